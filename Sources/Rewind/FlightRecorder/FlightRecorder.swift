import Foundation

/// Keeps the last minutes of a program's events — every dispatch, change and state of every unit
/// that logs to it — in a ring file of fixed size, always on, and writes them out as a journal
/// (a *dump*) when the program says something went wrong.
///
/// ```swift
/// let recorder = try FlightRecorder(path: "/var/tmp/shop.rewind-ring")   // 16 MiB, 5 minutes
/// CycleLoggingSystem.bootstrap(recorder)
/// …
/// if order.total < 0, let dump = try recorder.dump(reason: "negative total") {
///     print(dump)   // a .rewind file: rewind DUMP opens it at the step it was made
/// }
/// ```
///
/// The ring is a file, not memory: what was written survives `kill -9` and a crash without a core
/// dump. A recorder that starts on a ring its previous process did not close dumps that ring
/// first (``previousRunDump``), so the last minutes before a crash are never lost. `rewind` reads
/// a ring file directly, as a journal of the blocks that survive in it.
///
/// Recording costs what a ``JournalLogger`` costs (<doc:RecordingCost>); the ring only changes
/// where blocks go. Dumps are written beside the ring (or in
/// ``Configuration/dumpDirectory``) with mode 0600, atomically, under names that never collide:
/// `RING-20261128-101502.123-4242-1.rewind` (the ring's name without its extension, the time in
/// UTC, the process and a count).
public final class FlightRecorder: CycleLogging, Sendable {
    /// How large the ring is, how far back a dump reaches, and how the journal records.
    public struct Configuration: Sendable {
        /// The ring file's size in bytes, allocated at start (at least 64 KiB). A block larger than
        /// the whole ring — one state of more than that, compressed — is left out, and its events
        /// counted (``JournalLogger/Statistics/eventsLeftOutOfRing``).
        public var maximumBytes: Int = 16 << 20
        /// How far back a dump reaches: the last `age` of events, when the ring holds that much
        /// (when it holds less, a dump has all of it). Blocks older than this stay in the ring
        /// until overwritten but are left out of dumps.
        public var age: Duration = .seconds(300)
        /// Where dumps are written; by default the ring's directory.
        public var dumpDirectory: String? = nil
        /// The signal that makes the recorder dump (`kill -USR2 PID`); `nil` listens for none. The
        /// recorder installs its handler for it in place of the default action (which for SIGUSR2
        /// is to end the process); a handler the app had installed for it still gets every such
        /// signal, and gets the signal back to itself when the last recorder listening closes.
        public var dumpSignal: Int32? = SIGUSR2
        /// Called with the path of each dump the recorder makes — asked for, on a signal, or of
        /// the previous run's ring at start — on the thread that made it: to upload it, say.
        public var onDump: (@Sendable (String) -> Void)? = nil
        /// Conditions over the recorded state, in the query language (`cart.total < 0`; see
        /// ``Condition``), that dump when they become true on a unit (trigger `condition`). They
        /// are judged on the journal's writer thread, never on the app's, at each state a unit
        /// settles in: an outermost commit's end, a replaced state, a unit's first state, a change
        /// made outside any commit — not between two changes of one commit, nor at a nested
        /// commit's end. `old(…)` and `changed(…)` compare
        /// with the state at the unit's previous judged step. A condition fires when it starts to
        /// hold, not again while it goes on holding; the dump's step is the one where it started.
        /// A condition that can hold only at one of the app's own log messages (`level >= error`,
        /// `kind == log && name == "error"`; recorded by ``RecordingLogHandler``) is judged at
        /// each message, where the state reads as nothing, and fires at each one it holds at. Of a
        /// condition whose top-level `||` mixes both (`level >= error || count > 1000000`), each
        /// term is judged where it can hold: the message's terms at messages, the others where a
        /// state settles.
        public var conditions: [Condition] = []
        /// How often each trigger may dump (one a minute and ten an hour by default); each
        /// condition counts on its own. The dump of a previous run's ring at start is never held back.
        public var rateLimit: RateLimit = .standard
        /// How long the recorder goes on recording after a trigger before it writes the dump, so
        /// that the dump shows what followed too: for conditions, the dump signal and
        /// ``FlightRecorder/requestDump(reason:)``. ``FlightRecorder/dump(reason:)`` writes at once.
        /// ``FlightRecorder/close()`` during a tail writes the dump then; a recorder released
        /// without `close()` does not. A tail longer than the ring holds, or than ``age``, leaves
        /// the trigger's step out of its own dump.
        public var tail: Duration = .zero
        /// Called when a dump the recorder makes on its own — on a condition, the dump signal or a
        /// request — cannot be written (a full disk, say), on the thread that tried.
        public var onDumpFailure: (@Sendable (JournalWriteError) -> Void)? = nil
        /// The clock the rate limit and the tail are measured on (tests move their own).
        package var clock: any DumpClock = MonotonicDumpClock()
        /// How events are recorded: redaction, keyframes, the queue (``JournalConfiguration``).
        /// Its rotation setting does not apply; its `replaceExisting` lets the recorder replace a
        /// file at the ring's path that is not a ring. Its queue holds 4,096 events rather than a
        /// journal's 65,536: a recorder left on keeps its memory small (each waiting event takes
        /// about 300 bytes, and every slot is touched as the queue goes round), and at 10,000
        /// events a second that is still 0.4 s of events for the writer to catch up with.
        public var journal: JournalConfiguration = {
            var journal = JournalConfiguration()
            journal.queueCapacity = 1 << 12
            return journal
        }()

        /// The defaults: 16 MiB, five minutes, dumps beside the ring.
        public init() {}
    }

    /// The ring file's path.
    public let path: String
    /// The configuration the recorder was started with.
    public let configuration: Configuration
    /// The dump of the ring a previous process left unclosed at ``path``, made when this recorder
    /// started; `nil` when there was none, or it was closed.
    public let previousRunDump: String?

    let journal: JournalLogger
    private let queue: DumpQueue
    let writer: DumpWriter

    /// Starts recording into a ring file at `path`.
    ///
    /// A ring already at `path` is replaced by a new file; if its process did not close it, it is
    /// dumped first (``previousRunDump``). A ring is known by its signature and taken only when
    /// this user owns it and nobody else may write it: a ring another user planted (in a shared
    /// folder such as `/var/tmp`) is neither dumped nor recorded into, and the recorder does not
    /// start. Any other file at `path` is kept, and the recorder does not start, unless
    /// ``Configuration/journal``'s `replaceExisting` is set.
    ///
    /// - Throws: ``JournalWriteError`` when the ring cannot be created (a file that is not a ring at
    ///   `path`, a ring another running recorder holds or another user owns or may write, a
    ///   symbolic link, a directory that is not
    ///   writable, a disk without room for the ring), or the previous run's ring cannot be dumped.
    public init(path: String, configuration: Configuration = Configuration()) throws(JournalWriteError) {
        self.path = path
        self.configuration = configuration
        let existing = RingDump.existingRing(at: path)
        switch existing {
        case .other where !configuration.journal.replaceExisting: throw JournalWriteError(path: path, operation: "create", code: EEXIST)
        case .inUse: throw JournalWriteError(path: path, operation: "create", code: EBUSY)
        case .untrusted(let refusal): throw refusal
        default: break
        }
        if case .unclosed(let crashSignal) = existing {
            let (trigger, reason): (JournalHeader.Dump.Trigger, String) =
                if let crashSignal {
                    (.crash, "the previous run died of \(CrashMarks.name(of: crashSignal))")
                } else {
                    (.unclosed, "the previous run ended without closing its recorder")
                }
            previousRunDump = try RingDump.dump(
                ringAt: path, age: configuration.age, directory: configuration.dumpDirectory,
                trigger: trigger, reason: reason, step: nil, signal: crashSignal
            ).path
        } else {
            previousRunDump = nil
        }
        let queue = DumpQueue(limit: configuration.rateLimit, tail: configuration.tail, clock: configuration.clock)
        self.queue = queue
        let catalog = RingCatalog()
        var journalConfiguration = configuration.journal
        journalConfiguration.ringSize = max(configuration.maximumBytes, RingFile.minimumSize)
        journalConfiguration.rotationSize = nil
        journalConfiguration.ringCatalog = catalog
        if !configuration.conditions.isEmpty {
            journalConfiguration.stateWatch = StateWatch(conditions: configuration.conditions) { condition, step, source in
                let reason = "\(condition.text) on \(source)"
                queue.request(DumpSchedule.Request(trigger: .condition, reason: reason, step: step, key: "condition \(condition.text)"))
            }
        }
        journal = try JournalLogger(path: path, configuration: journalConfiguration)
        // A stack overflow on the thread that starts the recorder (the main thread, most often)
        // still marks the ring; other threads' overflows leave it unclosed, dumped all the same.
        SignalHandling.giveThreadAlternateStack()
        writer = DumpWriter(ring: path, configuration: configuration, journal: journal, catalog: catalog)
        queue.serve(writer)
        if let previousRunDump { configuration.onDump?(previousRunDump) }
        if let signal = configuration.dumpSignal { SignalDumps.listen(self, to: signal) }
    }

    /// A recorder released without ``close()`` closes: the dump thread holds the writer, not the
    /// recorder, so what waits for its tail is still written.
    deinit {
        close()
    }

    /// Queues an event, as a ``JournalLogger`` does.
    public func record(_ record: consuming EventRecord) {
        journal.record(record)
    }

    /// Queues an event a user's code made.
    public func log(_ event: Event) {
        journal.log(event)
    }

    /// The recorder takes records as they are.
    public var takesRecords: Bool { true }

    /// Counters about the recording so far (events written count every event put in the ring,
    /// also those overwritten since).
    public var statistics: JournalLogger.Statistics { journal.statistics }

    /// How many dumps the rate limit (``Configuration/rateLimit``) has held back so far.
    public var dumpsHeldBack: Int { queue.heldBack.load(ordering: .relaxed) }

    /// Writes the ring's window — the last ``Configuration/age`` of events, every event logged
    /// before the call included — as a journal, and returns its path; `nil` when the rate limit
    /// (``Configuration/rateLimit``) holds the dump back. Safe from any thread; recording goes on
    /// meanwhile. The dump is written at once: ``Configuration/tail`` does not apply (see
    /// ``requestDump(reason:)``).
    ///
    /// - Parameter reason: why, in the program's words; the dump's header keeps it
    ///   (``JournalHeader/Dump``), and `rewind info` and the viewer's title show it.
    /// - Throws: ``JournalWriteError`` when the ring or the dump cannot be written.
    @discardableResult
    public func dump(reason: String) throws(JournalWriteError) -> String? {
        guard queue.admitNow(JournalHeader.Dump.Trigger.call.rawValue) else { return nil }
        return try writer.write(DumpSchedule.Request(trigger: .call, reason: reason, key: ""))
    }

    /// Dumps, as ``dump(reason:)``, when `condition` is false; returns the dump's path, or `nil`
    /// when the condition held (and the reason was not made) or the rate limit held the dump back.
    ///
    /// ```swift
    /// try recorder.dump(unless: cart.total >= 0, "negative total: \(cart.total)")
    /// ```
    @discardableResult
    public func dump(unless condition: Bool, _ reason: @autoclosure () -> String) throws(JournalWriteError) -> String? {
        guard !condition, queue.admitNow(JournalHeader.Dump.Trigger.assertion.rawValue) else { return nil }
        return try writer.write(DumpSchedule.Request(trigger: .assertion, reason: reason(), key: ""))
    }

    /// Asks for a dump written once ``Configuration/tail`` has passed, on the recorder's own
    /// thread, and returns at once: the dump holds what happened after the request too. Its path
    /// goes to ``Configuration/onDump``, a failure to ``Configuration/onDumpFailure``.
    ///
    /// - Returns: `false` when the rate limit held the dump back, or the recorder has closed.
    @discardableResult
    public func requestDump(reason: String) -> Bool {
        queue.request(DumpSchedule.Request(trigger: .call, reason: reason, step: EventSequence.last, key: JournalHeader.Dump.Trigger.call.rawValue))
    }

    /// Returns once every event logged before the call is in the ring file and the file is
    /// fsync'ed: what a crash then keeps.
    ///
    /// - Throws: the ``JournalWriteError`` that stopped the recorder, if writing has failed.
    public func sync() throws(JournalWriteError) {
        try journal.sync()
    }

    /// Stops recording and marks the ring closed, so that the next recorder on it does not dump it.
    /// A dump still waiting for its tail is written first; a call made while another thread
    /// closes returns once it has. A recorder released without `close()` closes the same way.
    public func close() {
        SignalDumps.stop(self)
        // The writer judges every event logged before the call, so that a condition they make
        // true still dumps, then what waits for its tail is written.
        try? journal.flush()
        // On the journal's writer thread (one of its callbacks closing the recorder), the dump
        // thread's next dump waits for this very thread: it is let finish on its own.
        queue.close(waiting: !journal.isOnWriterThread)
        journal.close()
    }

    /// Asks for a dump on the recorder's own thread (the dump signal's).
    func request(_ request: DumpSchedule.Request) {
        queue.request(request)
    }
}
