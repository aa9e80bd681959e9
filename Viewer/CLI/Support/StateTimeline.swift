import Rewind

/// Walks a journal's events in order and keeps each source's state up to date, for commands that
/// need the state after every step (blame, diff of two recordings, export).
struct StateTimeline {
    private(set) var states: [UInt64: StateValue] = [:]

    /// Applies the event's state record; returns the source's state before and after it when the
    /// event changed it.
    mutating func advance(_ event: RecordedEvent) -> (before: StateValue?, after: StateValue)? {
        let id = event.source.instanceID
        let before = states[id]
        switch event.stateRecord {
        case .keyframe(let tree)?:
            states[id] = tree
        case .diff(let changes)?:
            guard let base = before, let applied = try? apply(changes, to: base) else { return nil }
            states[id] = applied
        case nil:
            return nil
        }
        return (before, states[id]!)
    }

    /// The state a source has now, if any.
    func state(of source: UInt64) -> StateValue? {
        states[source]
    }
}
