import Synchronization

/// Where a logger is kept that many threads read on every commit and one thread replaces now and
/// then: read with one atomic load, without a lock.
///
/// A replaced logger is not freed while the slot lives, because a thread on another core may still
/// be reading it; the slot keeps every logger it was given. Loggers are replaced a handful of times
/// in a process (at start-up, in a test's set-up), so what is kept stays small.
final class LoggerSlot: Sendable {
    /// Holds one logger (or none) at a stable address.
    private final class Box: Sendable {
        let logger: (any CycleLogging)?
        /// The logger's ``CycleLogging/takesRecords``, asked once.
        let takesRecords: Bool
        init(_ logger: (any CycleLogging)?) {
            self.logger = logger
            self.takesRecords = logger?.takesRecords ?? false
        }
    }

    /// The address of the box in use (0: none), unretained: `boxes` keeps it alive.
    private let current = Atomic<UInt>(0)
    private let boxes = Locked<[Box]>([])

    /// Reads the logger.
    @inline(__always)
    var logger: (any CycleLogging)? {
        guard let address = UnsafeRawPointer(bitPattern: current.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Box>.fromOpaque(address).takeUnretainedValue().logger
    }

    /// Whether the logger takes records (``CycleLogging/takesRecords``), as it said when stored;
    /// `nil` when the slot is empty. One load, where asking the logger is a call through its
    /// existential on every event.
    @inline(__always)
    var takesRecords: Bool? {
        guard let address = UnsafeRawPointer(bitPattern: current.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Box>.fromOpaque(address).takeUnretainedValue().takesRecords
    }

    /// Replaces the logger; `nil` leaves the slot empty.
    func store(_ logger: (any CycleLogging)?) {
        boxes.withLock { boxes in
            guard let logger else {
                current.store(0, ordering: .releasing)
                return
            }
            let box = Box(logger)
            boxes.append(box)
            current.store(UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque()), ordering: .releasing)
        }
    }
}
