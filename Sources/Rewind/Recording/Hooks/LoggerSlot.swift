import Synchronization

/// Where a logger is kept that many threads read on every commit and one thread replaces now and
/// then: read with one atomic load, without a lock.
///
/// A replaced logger is not freed while the slot lives, because a thread on another core may still
/// be reading it; the slot keeps every logger it was given. Loggers are replaced a handful of times
/// in a process (at start-up, in a test's set-up), so what is kept stays small.
final class LoggerSlot: Sendable {
    /// The address of the handle in use (0: none), unretained: `handles` keeps it alive.
    private let current = Atomic<UInt>(0)
    private let handles = Locked<[LoggerHandle]>([])

    /// Reads the logger, as a handle (a stable address: the slot keeps every handle it made).
    @inline(__always)
    var handle: LoggerHandle? {
        guard let address = UnsafeRawPointer(bitPattern: current.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<LoggerHandle>.fromOpaque(address).takeUnretainedValue()
    }

    /// Replaces the logger; `nil` leaves the slot empty.
    func store(_ logger: (any CycleLogging)?) {
        handles.withLock { handles in
            guard let logger else {
                current.store(0, ordering: .releasing)
                return
            }
            let handle = LoggerHandle(logger)
            handles.append(handle)
            current.store(UInt(bitPattern: Unmanaged.passUnretained(handle).toOpaque()), ordering: .releasing)
        }
    }
}
