import Foundation
import Synchronization

/// Marks every open ring as crashed, with the signal, when the process dies of a fatal signal
/// (SIGSEGV, SIGBUS, SIGILL — a Swift `fatalError` or failed precondition on x86-64 —, SIGTRAP —
/// the same on arm64 —, SIGABRT, SIGFPE), then lets the process die as it would have.
///
/// The handler does only what a signal handler may: it reads atomics and static storage, and
/// writes each ring's header, made when the ring was opened, with `pwrite` and `fsync`. No
/// encoding, no allocation, no lock the crashed thread may hold. Events the writer had not written
/// (queued, or in its open block) are lost; everything in the ring survives, and
/// the next recorder on the path dumps it with the trigger `crash` and the signal.
///
/// The handler is installed once, by the first ring opened, and hands each signal on to the handler
/// that was there before (the Swift runtime's backtrace, or the default).
package enum CrashMarks {
    static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]
    /// Rings open at once that can be marked; more are recorded, but not marked.
    static let slotCount = 16
    /// The most bytes a prepared header may take.
    static let headerCapacity = 512

    // Static storage the handler reads. A slot's descriptor is -1 when free, -2 while it is being
    // filled; its headers are written before its descriptor is published (release), and read by
    // the handler after it sees the descriptor (acquire).
    nonisolated(unsafe) private static let descriptors: UnsafeMutablePointer<Atomic<Int32>> = {
        let pointer = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: slotCount)
        for index in 0..<slotCount { (pointer + index).initialize(to: Atomic(-1)) }
        return pointer
    }()
    nonisolated(unsafe) private static let headers = UnsafeMutablePointer<UInt8>.allocate(capacity: slotCount * signals.count * headerCapacity)
    nonisolated(unsafe) private static let headerLengths = UnsafeMutablePointer<Int>.allocate(capacity: slotCount * signals.count)
    nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    /// The process that registered the rings: a child made by `fork` inherits the handler and
    /// the descriptors, and its crash is not the recorder's.
    private static let owner = Atomic<Int32>(0)
    private static let installed = Locked(false)

    /// Registers the ring open at `descriptor`: on a fatal signal its header is replaced by
    /// `header(signal)`. Returns the slot to give back to ``unregister(_:)``, or `nil` when every
    /// slot is taken or a header is too large (the ring is then recorded, not marked).
    static func register(descriptor: Int32, header: (Int32) -> [UInt8]) -> Int? {
        let prepared = signals.map(header)
        guard prepared.allSatisfy({ $0.count <= headerCapacity }) else { return nil }
        _ = descriptors  // its one-time setup, not first in a handler
        guard let slot = (0..<slotCount).first(where: { descriptors[$0].compareExchange(expected: -1, desired: -2, ordering: .acquiring).exchanged })
        else { return nil }
        for (index, bytes) in prepared.enumerated() {
            let place = slot * signals.count + index
            bytes.withUnsafeBufferPointer { headers.advanced(by: place * headerCapacity).update(from: $0.baseAddress!, count: $0.count) }
            headerLengths[place] = bytes.count
        }
        owner.store(getpid(), ordering: .relaxed)
        descriptors[slot].store(descriptor, ordering: .releasing)
        installIfNeeded()
        return slot
    }

    /// Stops marking the ring of `slot` (it is closed, or its file about to be).
    static func unregister(_ slot: Int) {
        descriptors[slot].store(-1, ordering: .releasing)
    }

    private static func installIfNeeded() {
        installed.withLock { installed in
            guard !installed else { return }
            installed = true
            let handler: @convention(c) (Int32) -> Void = { signal in
                // A switch, not a search of the array: nothing generic in a signal handler.
                let index: Int
                switch signal {
                case SIGSEGV: index = 0
                case SIGBUS: index = 1
                case SIGILL: index = 2
                case SIGTRAP: index = 3
                case SIGABRT: index = 4
                case SIGFPE: index = 5
                default: index = -1
                }
                for slot in 0..<CrashMarks.slotCount where index >= 0 && getpid() == CrashMarks.owner.load(ordering: .relaxed) {
                    let descriptor = CrashMarks.descriptors[slot].load(ordering: .acquiring)
                    guard descriptor >= 0 else { continue }
                    let place = slot * CrashMarks.signals.count + index
                    _ = pwrite(descriptor, CrashMarks.headers + place * CrashMarks.headerCapacity, CrashMarks.headerLengths[place], 0)
                    _ = fsync(descriptor)
                }
                SignalHandling.handOn(signal, to: CrashMarks.previous)
            }
            SignalHandling.install(handler, for: signals, flags: SA_ONSTACK, previous: previous)
        }
    }

    /// `SIGILL`, `SIGSEGV`, …; the number for a signal this list does not name.
    package static func name(of signal: Int32) -> String {
        switch signal {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGFPE: "SIGFPE"
        case SIGUSR1: "SIGUSR1"
        case SIGUSR2: "SIGUSR2"
        default: "signal \(signal)"
        }
    }
}
