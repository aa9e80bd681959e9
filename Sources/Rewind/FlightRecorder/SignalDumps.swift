import Foundation

/// Dumps recorders when a signal reaches the process (``FlightRecorder/Configuration/dumpSignal``,
/// SIGUSR2 by default): how an operator takes a running process's window with `kill -USR2 PID`.
///
/// The handler only writes the signal's number into a pipe (`write` is async-signal-safe) and hands
/// the signal on to the app's own handler for it, if it had one; a thread
/// of its own reads the pipe and dumps every recorder listening for that signal, as
/// the recorder's dump thread does for its other triggers (rate limit and tail included), so the dump
/// holds every event logged before the signal.
enum SignalDumps {
    /// A recorder listening, held weakly: a recorder that goes away stops listening.
    private final class Listener: Sendable {
        let signal: Int32
        nonisolated(unsafe) weak var recorder: FlightRecorder?
        // Unchecked: `recorder` is written once, in init, before the listener is shared.
        init(signal: Int32, recorder: FlightRecorder) {
            self.signal = signal
            self.recorder = recorder
        }
    }

    private struct State {
        var listeners: [Listener] = []
        var handled: Set<Int32> = []
        var pipe: (read: Int32, write: Int32)?
    }

    private static let state = Locked(State())
    /// The pipe's write end, for the handler; set before any handler is installed.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// The actions the app had for each signal before the recorder's (65 entries, by number): the
    /// handler hands each signal on to the app's own, and the last recorder to stop puts it back.
    /// Written only under `state`'s lock while the recorder's handler is not installed for that
    /// signal; read by the handler.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        return actions
    }()

    /// Dumps `recorder` whenever `signal` reaches the process, until ``stop(_:)``.
    static func listen(_ recorder: FlightRecorder, to signal: Int32) {
        state.withLock { state in
            state.listeners.removeAll { $0.recorder == nil }
            state.listeners.append(Listener(signal: signal, recorder: recorder))
            if state.pipe == nil {
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { return }
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                // The handler never waits: a full pipe already holds a request for a dump.
                _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
                state.pipe = (ends[0], ends[1])
                writeEnd = ends[1]
                let readEnd = ends[0]
                let thread = Thread { readSignals(from: readEnd) }
                thread.name = "Rewind flight recorder signals"
                thread.start()
            }
            guard state.handled.insert(signal).inserted else { return }
            var action = sigaction()
            #if canImport(Darwin)
                action.__sigaction_u.__sa_sigaction = Self.handler
            #else
                action.__sigaction_handler.sa_sigaction = Self.handler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART | SA_SIGINFO
            sigaction(signal, &action, previous + Int(signal))
            // A mask inherited from whatever started the process (a test runner's thread, say)
            // must not hold the signal back: a process-directed signal goes to a thread that
            // does not block it, and threads made later inherit this one's mask.
            SignalHandling.unblock([signal])
        }
    }

    /// The recorder's handler: writes the signal's number into the pipe (`write` is
    /// async-signal-safe), then hands the signal on to the app's handler.
    private static let handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { signal, info, context in
        var byte = UInt8(truncatingIfNeeded: signal)
        let saved = errno
        _ = write(SignalDumps.writeEnd, &byte, 1)
        errno = saved
        SignalDumps.handOnToApp(signal, info, context)
    }

    /// Stops dumping `recorder` on signals; a signal no recorder listens for any more gets back
    /// the action the app had for it.
    static func stop(_ recorder: FlightRecorder) {
        state.withLock { state in
            state.listeners.removeAll { $0.recorder == nil || $0.recorder === recorder }
            for signal in state.handled where !state.listeners.contains(where: { $0.signal == signal }) {
                // Put back only over the recorder's own: a handler the app installed since stays.
                var current = sigaction()
                let read = sigaction(signal, nil, &current)
                #if canImport(Darwin)
                    let installed = current.__sigaction_u.__sa_sigaction
                #else
                    let installed = current.__sigaction_handler.sa_sigaction
                #endif
                if read == 0, current.sa_flags & SA_SIGINFO != 0,
                    let installed, unsafeBitCast(installed, to: Int.self) == unsafeBitCast(Self.handler, to: Int.self)
                {
                    sigaction(signal, previous + Int(signal), nil)
                    state.handled.remove(signal)
                }
                // Otherwise the app's handler installed since stays, and the signal stays counted
                // as handled: a recorder listening again must not save that handler — which may
                // hand signals on to the recorder's — as the one to hand them on to (a loop).
            }
        }
    }

    /// From the handler: calls the handler the app had installed for `signal` before the
    /// recorder's, if it had one (not the default action, which for SIGUSR2 ends the process, nor
    /// "ignore"). Async-signal-safe.
    private static func handOnToApp(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        let action = previous[Int(signal)]
        // A handler, not SIG_DFL (0) or SIG_IGN (1), whichever field holds it.
        #if canImport(Darwin)
            let withInfo = action.__sigaction_u.__sa_sigaction
            let plain = action.__sigaction_u.__sa_handler
        #else
            let withInfo = action.__sigaction_handler.sa_sigaction
            let plain = action.__sigaction_handler.sa_handler
        #endif
        if action.sa_flags & SA_SIGINFO != 0 {
            if let withInfo, unsafeBitCast(withInfo, to: Int.self) > 1 { withInfo(signal, info, context) }
        } else if let plain, unsafeBitCast(plain, to: Int.self) > 1 {
            plain(signal)
        }
    }

    private static func readSignals(from descriptor: Int32) {
        var bytes = [UInt8](repeating: 0, count: 256)
        while true {
            // A burst of signals while a dump is written is one request per signal number, not a
            // dump per signal: what is read at once is taken together.
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            for signal in Set(bytes.prefix(count).map(Int32.init)) {
                let recorders = state.withLock { state in state.listeners.filter { $0.signal == signal }.compactMap(\.recorder) }
                for recorder in recorders {
                    let reason = "\(CrashMarks.name(of: signal)) reached the process"
                    let key = JournalHeader.Dump.Trigger.signal.rawValue
                    recorder.request(DumpSchedule.Request(trigger: .signal, reason: reason, step: EventSequence.last, signal: signal, key: key))
                }
            }
        }
    }
}
