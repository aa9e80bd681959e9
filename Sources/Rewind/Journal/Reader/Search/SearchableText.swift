extension RecordedEvent {
    /// Every text of the event that a search looks at: `rewind log --grep` (name, description,
    /// path, value) and the viewer's `/` (name, source, description, the summary on its row).
    /// A block's ``NGramFilter`` is made from these, so a search over any of them can trust it:
    /// a search that looks at a text not listed here would skip blocks it should not.
    var searchableTexts: [String] {
        let summary = summary()
        // The row's text too (`isOn true`), which the viewer's `/` matches as the screen shows it.
        var texts = [name, description, source.description, summary, name + " " + summary]
        if let path { texts.append(path) }
        if let value { texts.append(value.description) }
        return texts
    }
}
