import Foundation
import Synchronization

/// A flight recorder's dump thread: takes the requests of the triggers that must not write on the
/// thread they fire on — a condition on the journal's writer thread, the dump signal, a request
/// with a tail — and writes each once its tail is over, in the order they were made.
///
/// The thread starts at the first such request and ends at ``close()``, which writes what still
/// waits at once: a recorder closing in the middle of a tail still makes its dump. It holds the
/// recorder's ``DumpWriter``, not the recorder, which closes it when released.
final class DumpQueue: Sendable {
    private struct State {
        var schedule: DumpSchedule
        var writer: DumpWriter?
        var started = false
        var closed = false
        /// The dump thread, once it runs.
        var thread: pthread_t?
    }

    private let state: Locked<State>
    private let clock: any DumpClock
    private let tail: Duration
    private let wake = DispatchSemaphore(value: 0)
    /// Dumps the rate limit held back.
    let heldBack = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    init(limit: FlightRecorder.RateLimit, tail: Duration, clock: any DumpClock) {
        state = Locked(State(schedule: DumpSchedule(limit: limit)))
        self.tail = tail
        self.clock = clock
    }

    /// Sets what the thread writes dumps with; once, after the recorder's journal is made.
    func serve(_ writer: DumpWriter) {
        state.withLock { $0.writer = writer }
    }

    /// Whether a dump under `key` may be written now (counting it when it may): for the triggers
    /// that write on their caller's thread.
    func admitNow(_ key: String) -> Bool {
        let now = clock.now
        let admitted = state.withLock { $0.schedule.admit(key, at: now) }
        if !admitted { heldBack.add(1, ordering: .relaxed) }
        return admitted
    }

    /// Queues a dump, written by the dump thread once the tail is over; `false` when the rate limit
    /// held it back or the recorder has closed. Never blocks: safe on the journal's writer thread.
    @discardableResult
    func request(_ request: DumpSchedule.Request) -> Bool {
        let now = clock.now
        let (admitted, start) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            guard state.schedule.schedule(request, at: now, tail: tail) else {
                heldBack.add(1, ordering: .relaxed)
                return (false, false)
            }
            defer { state.started = true }
            return (true, !state.started)
        }
        guard admitted else { return false }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "Rewind flight recorder dumps"
            thread.start()
        } else {
            wake.signal()
        }
        return true
    }

    /// Writes every waiting request now, and ends the thread; later requests are refused. A call
    /// while another closes returns once the thread has ended. On the dump thread itself — a
    /// recorder whose last reference `onDump` let go — the thread ends once that dump is done;
    /// so it does without `waiting` (a caller the dump thread may itself wait for: the journal's
    /// writer thread, whose flush every dump waits for).
    func close(waiting: Bool = true) {
        let (started, onTheThread) = state.withLock { state in
            defer {
                state.closed = true
                // The writer holds the journal, whose conditions hold this queue: let go of it.
                if !state.started { state.writer = nil }
            }
            return (state.started, state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        guard started else { return }
        // On the thread itself, the signal makes its loop look again, find the queue closed, and end.
        wake.signal()
        guard !onTheThread, waiting else { return }
        // The thread signals once when it ends; each closer passes the signal on to the next.
        finished.wait()
        finished.signal()
    }

    private func run() {
        state.withLock { $0.thread = pthread_self() }
        while true {
            let now = clock.now
            let (due, next, closed, writer) = state.withLock { state in
                (state.closed ? state.schedule.takeAll() : state.schedule.takeDue(at: now), state.schedule.nextDue, state.closed, state.writer)
            }
            for request in due { writer?.writeReportingFailure(request) }
            if closed {
                state.withLock { $0.writer = nil }
                finished.signal()
                return
            }
            clock.wait(until: next, orUntil: wake)
        }
    }
}
