import Logging

extension FlightRecorder {
    /// Checks a condition the program cannot go on without, as Swift's `precondition` does; when it
    /// is false, the recorder first records `message` as a `critical` log message (label
    /// `FlightRecorder`), puts everything handed over so far into the ring, dumps the window
    /// (trigger `assertion`, at the message's step, whatever the rate limit) — then the process
    /// traps as `precondition` makes it. So the dump holds the broken step and why.
    ///
    /// ```swift
    /// recorder.precondition(cart.total >= 0, "negative total: \(cart.total)")
    /// ```
    ///
    /// The process then dies of the trap as of any, so its ring is marked as crashed and the next
    /// start dumps it again (trigger `crash`), message included. A plain `precondition` or
    /// `fatalError` marks the ring too — but its dump lacks what the writer had not written yet
    /// (at most ~100 ms, and what was queued) and the message.
    public func precondition(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = String(), file: StaticString = #file,
        function: String = #function, line: UInt = #line
    ) {
        guard !condition() else { return }
        fail(message(), file: file, function: function, line: line)
    }

    /// ``precondition(_:_:file:function:line:)`` where Swift's `assert` checks: in builds without
    /// optimisation (Rewind's own, as `swift test` and debug builds make it); elsewhere the condition
    /// is not even evaluated.
    public func assert(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = String(), file: StaticString = #file,
        function: String = #function, line: UInt = #line
    ) {
        Swift.assert(
            {
                if !condition() { fail(message(), file: file, function: function, line: line) }
                return true
            }())
    }

    /// Records `message` as ``precondition(_:_:file:function:line:)`` does, dumps, and traps as
    /// Swift's `fatalError`: for the places a program calls `fatalError`.
    ///
    /// ```swift
    /// guard let account else { recorder.fatalError("no account after sign-in") }
    /// ```
    public func fatalError(
        _ message: @autoclosure () -> String = String(), file: StaticString = #file, function: String = #function, line: UInt = #line
    ) -> Never {
        fail(message(), file: file, function: function, line: line)
    }

    /// Records the message, syncs the ring, dumps, and traps.
    private func fail(_ message: String, file: StaticString, function: String, line: UInt) -> Never {
        let logger = Logger(label: "FlightRecorder") { RecordingLogHandler(label: $0, recordingTo: self, metadataProvider: nil) }
        logger.critical("\(message)", file: "\(file)", function: function, line: line)
        // Its sequence number, taken as it was logged: where the dump opens.
        let step = EventSequence.last
        // Everything handed over before the failure, in the ring; a failing disk changes nothing
        // about the trap that follows.
        try? journal.sync()
        _ = try? writer.write(DumpSchedule.Request(trigger: .assertion, reason: message, step: step, key: ""))
        Swift.fatalError(message, file: file, line: line)
    }
}
