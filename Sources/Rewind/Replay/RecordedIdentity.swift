/// The logger a re-record gives each bound unit: it hands the unit's events on under the identity
/// the unit had in the recording being re-recorded (its type, instance number and label), so that
/// the new journal names its units as the old one did — a test that binds `Cart#3` keeps working,
/// and two re-records of one journal name the same units.
struct RecordedIdentity: CycleLogging {
    let journal: any CycleLogging
    let source: EventSource

    init(_ journal: any CycleLogging, source recorded: RecordedSource) {
        self.journal = journal
        self.source = EventSource(
            framework: EventSource.Framework(rawValue: recorded.framework), typeName: recorded.typeName,
            instanceID: recorded.instanceID, label: recorded.label
        )
    }

    func log(_ event: Event) {
        journal.log(Event(
            sequence: event.sequence, time: event.time, source: source, kind: event.kind, name: event.name,
            description: event.description, callSite: event.callSite, parent: event.parent
        ))
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
