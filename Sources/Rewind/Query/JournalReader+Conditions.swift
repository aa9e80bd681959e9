extension JournalReader {
    /// The steps where a condition holds, in order, each with its source's state before and after
    /// it — read lazily, so `first` stops at the first one. Each source's state is walked by the
    /// one rule of ``StateWalker``.
    ///
    /// ```swift
    /// let negative = try Condition(parsing: "cart.total < 0")
    /// if let step = reader.steps(where: negative).first { print(step.event.sequence) }
    /// ```
    public func steps(where condition: Condition, source: UInt64? = nil) -> ConditionSteps {
        ConditionSteps(events: events(matching: EventFilter(sourceIDs: source.map { [$0] })), condition: condition)
    }
}

/// The steps where a condition holds (``JournalReader/steps(where:source:)``).
public struct ConditionSteps: Sequence {
    let events: JournalEvents
    let condition: Condition

    /// The same steps, with `progress` told each block reading reaches (see
    /// ``JournalEvents/reportingProgress(_:)``).
    public func reportingProgress(_ progress: @escaping (_ block: Int, _ of: Int) -> Void) -> ConditionSteps {
        ConditionSteps(events: events.reportingProgress(progress), condition: condition)
    }

    public struct Iterator: IteratorProtocol {
        var events: JournalEvents.Iterator
        var scan: ConditionScan

        public mutating func next() -> ConditionStep? {
            while let event = events.next() {
                if let step = scan.step(event) { return step }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(events: events.makeIterator(), scan: ConditionScan(condition))
    }
}

/// Judges a condition at each step of a journal given in order, walking each source's state: for
/// readers that take events as they come (`rewind watch` on a journal being written).
///
/// ```swift
/// var scan = ConditionScan(try Condition(parsing: "count > 10"))
/// for event in newEvents { if let step = scan.step(event) { print(step.event.sequence) } }
/// ```
public struct ConditionScan: Sendable {
    public let condition: Condition
    private var walker = StateWalker()

    public init(_ condition: Condition) {
        self.condition = condition
    }

    /// Takes the next event; the step, with its source's state before and after, when the
    /// condition holds there.
    public mutating func step(_ event: RecordedEvent) -> ConditionStep? {
        let before = walker.state(of: event.source.instanceID)
        walker.advance(event)
        let step = ConditionStep(event: event, before: before, after: walker.state(of: event.source.instanceID))
        return condition.isTrue(at: step) ? step : nil
    }
}
