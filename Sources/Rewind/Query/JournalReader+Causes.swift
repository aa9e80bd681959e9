extension JournalReader {
    /// What led to an event, nearest first: the dispatch it happened in (its recorded `parent` —
    /// also for a commit made later through that dispatch's context), the dispatch that one
    /// happened in, and so on to a dispatch nothing caused. Events lost to damage end the chain.
    ///
    /// ```swift
    /// for cause in reader.causes(of: change) { print("#\(cause.sequence) \(cause.kind.word) \(cause.name)") }
    /// ```
    public func causes(of event: RecordedEvent, limit: Int = 64) -> [RecordedEvent] {
        Self.causes(of: event, limit: limit) { (try? self.event(sequence: $0)) ?? nil }
    }

    /// What led to an event (``causes(of:limit:)``), with events found by `lookUp`: for readers
    /// that have a faster way to an event near another (the viewer's timeline).
    package static func causes(of event: RecordedEvent, limit: Int = 64, lookUp: (UInt64) -> RecordedEvent?) -> [RecordedEvent] {
        var chain: [RecordedEvent] = []
        var next = event.parent
        // Parents are recorded before their effects: a link that does not go back is not followed.
        var bound = event.sequence
        while let sequence = next, sequence < bound, chain.count < limit, let cause = lookUp(sequence) {
            chain.append(cause)
            bound = sequence
            next = cause.parent
        }
        return chain
    }
}
