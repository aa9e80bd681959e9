import Foundation

/// Installing a C signal handler, one home for the three that install one (a crash's mark on a
/// ring, a dump on a signal, the viewer's terminal put back on a crash).
package enum SignalHandling {
    /// Installs `handler` for each of `signals` with `flags` (`SA_RESTART`, `SA_ONSTACK`) and an
    /// empty mask; the handlers that were there are stored in `previous`, by signal number, when
    /// given (65 entries).
    package static func install(
        _ handler: @convention(c) (Int32) -> Void, for signals: [Int32], flags: Int32, previous: UnsafeMutablePointer<sigaction>? = nil
    ) {
        var action = sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
        #else
            action.__sigaction_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        for signal in signals { sigaction(signal, &action, previous.map { $0 + Int(signal) }) }
    }

    /// From a handler: puts back the handler that was there before (stored by ``install(_:for:flags:previous:)``)
    /// and raises `signal` again, which it gets once the handler returns — the process ends as it
    /// would have. Async-signal-safe.
    package static func handOn(_ signal: Int32, to previous: UnsafeMutablePointer<sigaction>) {
        sigaction(signal, previous + Int(signal), nil)
        raise(signal)
    }

    /// Lets `signals` reach the calling thread (and the threads it starts later), whatever mask it
    /// inherited from what started the process: a test runner's thread, a shell.
    package static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The size of the stack a handler runs on when the thread's own is used up.
    static let alternateStackSize = 64 * 1024

    /// Gives the calling thread a stack of its own for handlers installed with `SA_ONSTACK`,
    /// unless it has one: a stack overflow (SIGSEGV on a thread without room left) then still
    /// runs the handler. Kept for the thread's life (64 KiB, once per thread).
    package static func giveThreadAlternateStack() {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: alternateStackSize, alignment: 16)
        var stack = stack_t()
        stack.ss_sp = memory
        stack.ss_size = alternateStackSize
        stack.ss_flags = 0
        if sigaltstack(&stack, nil) != 0 { memory.deallocate() }
    }
}
