import Synchronization

/// Which dispatch is running, so that the events it causes carry its sequence number as their
/// parent. A task-local value follows the dispatch into the synchronous code it calls and into the
/// tasks it starts; work that hops threads some other way (a Combine delay, a queue) keeps the link
/// through the dispatch's context object instead.
public enum DispatchScope {
    @TaskLocal private static var current: UInt64?

    /// How many dispatches are running anywhere in the process. Reading a task-local value costs a
    /// generic-metadata lookup; while no dispatch runs (most commits in a busy app), that lookup is
    /// skipped.
    private static let running = Atomic<Int>(0)

    /// The sequence number of the innermost running dispatch, if any.
    @inline(__always)
    public static var currentDispatch: UInt64? {
        running.load(ordering: .relaxed) == 0 ? nil : current
    }

    /// Runs `body` as the inside of dispatch `sequence`.
    public static func run<T>(inside sequence: UInt64?, _ body: () throws -> T) rethrows -> T {
        guard sequence != nil || running.load(ordering: .relaxed) > 0 else { return try body() }
        running.add(1, ordering: .relaxed)
        defer { running.subtract(1, ordering: .relaxed) }
        return try $current.withValue(sequence, operation: body)
    }
}
