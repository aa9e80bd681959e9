import Foundation

/// A value guarded by a lock, with `Mutex`'s `withLock` shape.
///
/// Why not `Synchronization.Mutex`: on Linux it is futex-based code inside the (uninstrumented)
/// standard library, so ThreadSanitizer cannot see it and reports races on the data it guards —
/// measured here with four threads appending under one `Mutex`: a correct count, and a TSan warning.
/// `NSLock` is a pthread mutex, which TSan understands, so `swift test --sanitize=thread` stays
/// meaningful for everything Rewind shares between threads.
package final class Locked<Value>: @unchecked Sendable {
    // Unchecked: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// Wraps a value.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
