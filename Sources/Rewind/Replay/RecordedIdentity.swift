/// The logger a re-record gives each bound unit: it hands the unit's events on under the identity
/// the unit had in the recording being re-recorded (its type, instance number and label), so that
/// the new journal names its units as the old one did — a test that binds `Cart#3` keeps working,
/// and two re-records of one journal name the same units.
///
/// The dispatch of an input the re-record sends is written with the call site the recording gave
/// it (the app's), not Rewind's, which sent it this time.
struct RecordedIdentity: CycleLogging {
    let journal: JournalLogger
    let source: EventSource
    let sending: InputBeingSent

    init(_ journal: JournalLogger, source recorded: RecordedSource, sending: InputBeingSent) {
        self.journal = journal
        self.sending = sending
        self.source = EventSource(
            framework: EventSource.Framework(rawValue: recorded.framework), typeName: recorded.typeName,
            instanceID: recorded.instanceID, label: recorded.label
        )
    }

    func log(_ event: Event) {
        let renamed = Event(
            sequence: event.sequence, time: event.time, source: source, kind: event.kind, name: event.name,
            description: event.description, callSite: event.callSite, parent: event.parent
        )
        if let callSite = sending.callSite(for: event) {
            journal.log(renamed, recordedAt: callSite)
        } else {
            journal.log(renamed)
        }
    }

    /// The unit's release, where the recording ended with one: the live unit outlives the
    /// re-record, but the recording said it went.
    func logRelease() {
        let sequence = EventSequence.next()
        journal.log(Event(
            sequence: sequence, time: .now(), source: source, kind: .released, name: "",
            description: "", callSite: .unknown, parent: nil
        ))
    }
}

/// The recorded call site of the input a re-record is sending into a unit, while it sends it.
final class InputBeingSent: Sendable {
    /// The recorded call site, and the step of the live dispatch that sends it once it started.
    private let current = Locked<(callSite: RecordedCallSite, dispatch: UInt64?)?>(nil)

    /// The recorded call site for `event`, when it is the start or the end of the dispatch that
    /// sends the input (the first dispatch with no parent while it is sent).
    func callSite(for event: Event) -> RecordedCallSite? {
        current.withLock { current -> RecordedCallSite? in
            guard let sent = current else { return nil }
            switch event.kind.category {
            case .willDispatch where event.parent == nil && sent.dispatch == nil:
                current?.dispatch = event.sequence
                return sent.callSite
            case .didDispatch where sent.dispatch != nil && (event.parent == nil || event.parent == sent.dispatch):
                return sent.callSite
            default:
                return nil
            }
        }
    }

    /// Runs `send` while `dispatch` (the recorded dispatch being sent) is the input being sent.
    func sending<T>(_ dispatch: RecordedEvent, _ send: () throws -> T) rethrows -> T {
        current.withLock { $0 = dispatch.file.isEmpty ? nil : (RecordedCallSite(dispatch), nil) }
        defer { current.withLock { $0 = nil } }
        return try send()
    }
}
