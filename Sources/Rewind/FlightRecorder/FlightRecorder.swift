import Foundation
import Synchronization

/// Keeps the last minutes of a program's events — every dispatch, change and state of every unit
/// that logs to it — in a ring file of fixed size, always on, and writes them out as a journal
/// (a *dump*) when the program says something went wrong.
///
/// ```swift
/// let recorder = try FlightRecorder(path: "/var/tmp/shop.rewind-ring")   // 16 MiB, 5 minutes
/// CycleLoggingSystem.bootstrap(recorder)
/// …
/// if order.total < 0 {
///     let dump = try recorder.dump(reason: "negative total")   // a .rewind file: rewind view DUMP
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
        /// the whole ring — one state of more than that, compressed — is left out.
        public var maximumBytes: Int = 16 << 20
        /// How far back a dump reaches: the last `age` of events, when the ring holds that much
        /// (when it holds less, a dump has all of it). Blocks older than this stay in the ring
        /// until overwritten but are left out of dumps.
        public var age: Duration = .seconds(300)
        /// Where dumps are written; by default the ring's directory.
        public var dumpDirectory: String? = nil
        /// The signal that makes the recorder dump (`kill -USR2 PID`); `nil` listens for none. The
        /// recorder installs its handler for it (replacing the signal's default action, which
        /// for SIGUSR2 is to end the process).
        public var dumpSignal: Int32? = SIGUSR2
        /// Called with the path of each dump the recorder makes — asked for, on a signal, or of
        /// the previous run's ring at start — on the thread that made it: to upload it, say.
        public var onDump: (@Sendable (String) -> Void)? = nil
        /// How events are recorded: redaction, keyframes, the queue (``JournalConfiguration``).
        /// Its rotation setting does not apply; its `replaceExisting` lets the recorder replace a
        /// file at the ring's path that is not a ring.
        public var journal: JournalConfiguration = JournalConfiguration()

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

    private let journal: JournalLogger
    private let dumpsMade = Atomic<Int>(0)

    /// Starts recording into a ring file at `path`.
    ///
    /// A ring already at `path` is replaced; if its process did not close it, it is dumped first
    /// (``previousRunDump``). Any other file at `path` is kept, and the recorder does not start,
    /// unless ``Configuration/journal``'s `replaceExisting` is set.
    ///
    /// - Throws: ``JournalWriteError`` when the ring cannot be created (a file that is not a ring at
    ///   `path`, a ring another running recorder holds, a symbolic link, a directory that is not
    ///   writable, a disk without room for the ring), or the previous run's ring cannot be dumped.
    public init(path: String, configuration: Configuration = Configuration()) throws(JournalWriteError) {
        self.path = path
        self.configuration = configuration
        let existing = RingDump.existingRing(at: path)
        if existing == .other && !configuration.journal.replaceExisting {
            throw JournalWriteError(path: path, operation: "create", code: EEXIST)
        }
        if existing == .inUse {
            throw JournalWriteError(path: path, operation: "create", code: EBUSY)
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
        var journalConfiguration = configuration.journal
        journalConfiguration.ringSize = max(configuration.maximumBytes, RingFile.minimumSize)
        journalConfiguration.replaceExisting = true
        journalConfiguration.rotationSize = nil
        journal = try JournalLogger(path: path, configuration: journalConfiguration)
        if let previousRunDump { configuration.onDump?(previousRunDump) }
        if let signal = configuration.dumpSignal { SignalDumps.listen(self, to: signal) }
    }

    deinit {
        journal.close()
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

    /// Writes the ring's window — the last ``Configuration/age`` of events, every event logged
    /// before the call included — as a journal, and returns its path. Safe from any thread;
    /// recording goes on meanwhile.
    ///
    /// - Parameter reason: why, in the program's words; the dump's header keeps it
    ///   (``JournalHeader/Dump``), and `rewind info` shows it.
    /// - Throws: ``JournalWriteError`` when the ring or the dump cannot be written.
    @discardableResult
    public func dump(reason: String) throws(JournalWriteError) -> String {
        try dump(trigger: .call, reason: reason)
    }

    /// Dumps, as ``dump(reason:)``, when `condition` is false; returns the dump's path, or `nil`
    /// when the condition held (and the reason was not made).
    ///
    /// ```swift
    /// try recorder.dump(unless: cart.total >= 0, "negative total: \(cart.total)")
    /// ```
    @discardableResult
    public func dump(unless condition: Bool, _ reason: @autoclosure () -> String) throws(JournalWriteError) -> String? {
        guard !condition else { return nil }
        return try dump(trigger: .assertion, reason: reason())
    }

    /// Returns once every event logged before the call is in the ring file and the file is
    /// fsync'ed: what a crash then keeps.
    ///
    /// - Throws: the ``JournalWriteError`` that stopped the recorder, if writing has failed.
    public func sync() throws(JournalWriteError) {
        try journal.sync()
    }

    /// Stops recording and marks the ring closed, so that the next recorder on it does not dump it.
    public func close() {
        SignalDumps.stop(self)
        journal.close()
    }

    func dump(trigger: JournalHeader.Dump.Trigger, reason: String, signal: Int32? = nil) throws(JournalWriteError) -> String {
        let step = EventSequence.last
        try journal.flush()
        let number = dumpsMade.add(1, ordering: .relaxed).newValue
        let path = try RingDump.dump(
            ringAt: path, age: configuration.age, directory: configuration.dumpDirectory, number: number, trigger: trigger, reason: reason, step: step,
            signal: signal
        ).path
        configuration.onDump?(path)
        return path
    }
}
