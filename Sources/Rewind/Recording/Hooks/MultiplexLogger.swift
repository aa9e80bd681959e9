/// Sends every event to several loggers, in order: a journal and the console at once, say.
///
/// ```swift
/// viewModel.set(logger: MultiplexLogger([ConsoleLogger(), try JournalLogger(path: "run.rewind")]))
/// ```
///
/// A unit's event is made into an ``Event`` once, for the children that want one; a journal
/// among them takes the unit's record as it is and pays nothing for the others.
public struct MultiplexLogger: CycleLogging {
    /// The loggers, in the order they receive events.
    public let loggers: [any CycleLogging]
    /// Which of `loggers` take records as they are, by position (asked once, not per event).
    private let takes: [Bool]
    private let anyChildTakesRecords: Bool

    /// Creates a logger that forwards to all of `loggers`.
    public init(_ loggers: [any CycleLogging]) {
        self.loggers = loggers
        takes = loggers.map(\.takesRecords)
        anyChildTakesRecords = takes.contains(true)
    }

    public func log(_ event: Event) {
        for logger in loggers {
            logger.log(event)
        }
    }

    /// Hands `record` to the children that take records, and one ``Event`` made from it to the
    /// others, in the children's order.
    public func record(_ record: consuming EventRecord) {
        let record = copy record
        var event: Event?
        for index in loggers.indices {
            if takes[index] {
                loggers[index].record(record)
            } else {
                if event == nil { event = Event(record) }
                loggers[index].log(event!)
            }
        }
    }

    /// Whether a child takes records: the multiplexer then makes the ``Event`` for the others
    /// itself, once; otherwise it gets events, as its children would.
    public var takesRecords: Bool { anyChildTakesRecords }
}
