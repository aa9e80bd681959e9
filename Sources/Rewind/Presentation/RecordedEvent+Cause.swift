extension RecordedEvent {
    /// The event as a link in what led to `effect` (``JournalReader/causes(of:limit:)``), as
    /// `blame --why` and the viewer's detail pane say it: `#27 dispatch setStep 3  DemoSession.swift:47`,
    /// a commit as `#28 commit set step`, the source named when it is not the effect's.
    package func causeText(of effect: RecordedEvent) -> String {
        var text = "#\(sequence) " + (kind == .willMutate ? "commit" : kind.word)
        if !name.isEmpty { text += " " + VisibleText.escaped(name) }
        if kind == .willDispatch, case let input = rowText(valueLimit: 60), !input.isEmpty { text += " " + input }
        if source.instanceID != effect.source.instanceID { text += "  (\(VisibleText.escaped(source.description)))" }
        if !callSite.isEmpty { text += "  " + VisibleText.escaped(callSite) }
        return text
    }
}
