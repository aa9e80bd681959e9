/// Which dispatch is running, so that the events it causes carry its sequence number as their
/// parent. A task-local value follows the dispatch into the synchronous code it calls and into the
/// tasks it starts; work that hops threads some other way (a Combine delay, a queue) keeps the link
/// through the dispatch's context object instead.
public enum DispatchScope {
    @TaskLocal private static var current: UInt64?

    /// The sequence number of the innermost running dispatch, if any.
    public static var currentDispatch: UInt64? { current }

    /// Runs `body` as the inside of dispatch `sequence`.
    public static func run<T>(inside sequence: UInt64?, _ body: () throws -> T) rethrows -> T {
        try $current.withValue(sequence, operation: body)
    }
}
