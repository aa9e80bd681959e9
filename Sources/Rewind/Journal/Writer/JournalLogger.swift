import Foundation
import Synchronization

/// A logger that records every event into a compressed, crash-safe `.rewind` journal.
///
/// ```swift
/// let journal = try JournalLogger(path: "session.rewind")
/// viewModel.set(logger: journal)      // or CycleLoggingSystem.bootstrap(journal)
/// …
/// journal.close()                     // writes the index; a journal that is never closed still opens
/// ```
///
/// The caller's thread only moves the event — as the unit made it (an ``EventRecord``: no `Event`
/// is made for the journal), its values uncaptured, since Swift values are copy-on-write — into an
/// ``EventQueue``, without a lock. A background thread captures states into trees, diffs them
/// against each source's previous state, frames, compresses and writes blocks (see
/// docs/JOURNAL_FORMAT.md). A block is written when it holds `blockSize` bytes of records or
/// `flushInterval` after its first event; ``flush()`` and ``sync()`` force it.
///
/// States that hold class instances are read on the writer's thread, after the caller moved on:
/// record value types (or immutable objects) to get exactly the state of each step.
///
/// When writing fails (a full disk, an I/O error) the journal stops writing: the file keeps every
/// block written before the failure and nothing after it; ``flush()`` and ``sync()`` throw the
/// failure, ``JournalConfiguration/onFailure`` is called once, and ``statistics`` counts what is on
/// disk and what was lost.
public final class JournalLogger: CycleLogging, @unchecked Sendable {
    // Unchecked: the requests and figures below are guarded by `condition`; `encoder` is used only
    // by the writer thread; `queue` is thread-safe.

    /// The path of the file being written (it changes when the journal rotates).
    public var path: String { condition.withLock { currentPath } }
    /// The configuration the journal was opened with.
    public let configuration: JournalConfiguration
    /// The recording's identifier, as its header holds it: give it to an OpenTelemetry exporter
    /// (`OpenTelemetryConfiguration.recordingID`) so that its spans lead back to this journal.
    public let recordingID: UUID

    private let queue: EventQueue
    /// Guards the requests and figures below; ``flush()`` and ``sync()`` wait on it.
    private let condition = NSCondition()
    private var closing = false
    private var closed = false
    private var flushRequested: UInt64 = 0
    /// Written by the writer thread only (under `condition`), so the writer reads it without it.
    private var flushCompleted: UInt64 = 0
    private var syncRequested: UInt64 = 0
    private var currentPath: String
    /// Set by the writer thread only (under `condition`), so the writer reads it without it.
    private var failure: JournalWriteError?
    private var writtenCount = 0
    /// Events accepted but never written, because writing had failed.
    private var lostCount = 0
    private var writtenBytes = 0
    /// Events the writer left out as too large to record (``Refusal``).
    private var refusedCount = 0
    private var leftOutCount = 0
    private let encoder: JournalEncoder
    private let writerDone = DispatchSemaphore(value: 0)
    /// The writer's thread, once it runs: a `close()` from its own callbacks must not wait for it.
    private var writerThread: pthread_t?

    /// Whether the caller is the writer's thread (one of the journal's own callbacks).
    var isOnWriterThread: Bool {
        condition.withLock { writerThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }
    /// Recorded call sites to write in place of some events' own, by sequence number (see
    /// ``log(_:recordedAt:)``); looked at only once one has been given.
    private let callSiteStandIns = Locked<[UInt64: RecordedCallSite]>([:])
    private let hasCallSiteStandIns = Atomic<Bool>(false)

    /// Creates the file (mode 0600) and starts the writer thread.
    ///
    /// - Throws: ``JournalWriteError`` when the file cannot be created: a file is already at
    ///   `path` (unless ``JournalConfiguration/replaceExisting``), `path` is a symbolic link, or the
    ///   directory is not writable.
    public init(path: String, configuration: JournalConfiguration = JournalConfiguration()) throws(JournalWriteError) {
        self.configuration = configuration
        let now = configuration.deterministic
            ? EventTime(wallNanoseconds: Renumbering.startWallNanoseconds, monotonicNanoseconds: 0) : EventTime.now()
        let header = JournalHeader(
            formatVersion: JournalFormat.version, createdWallNanoseconds: now.wallNanoseconds,
            createdMonotonicNanoseconds: now.monotonicNanoseconds, writerVersion: RewindVersion.current,
            // Deterministic: none, so the identifier is made from the fixed creation times.
            recordingID: configuration.recordingID ?? (configuration.deterministic ? nil : UUID()),
            appVersion: configuration.appVersion
        )
        recordingID = header.recordingID
        encoder = try JournalEncoder(path: path, configuration: configuration, header: header)
        currentPath = path
        // The writer is woken for a quarter of the queue, not for each event: a trickle waits for
        // the flush interval, so that a quiet app does not pay a wake-up per event.
        queue = EventQueue(
            capacity: configuration.queueCapacity, byteLimit: configuration.queueByteLimit,
            overflow: configuration.overflow, wakeThreshold: min(configuration.queueCapacity / 4, 4096)
        )
        let thread = Thread { [self] in runWriter() }
        thread.name = "Rewind journal writer"
        thread.start()
    }

    deinit {
        close()
    }

    // MARK: Producer side

    /// Queues an event a user's code made (a logger that forwards to the journal).
    public func log(_ event: Event) {
        record(EventRecord(event))
    }

    /// Queues a unit's event as the unit made it: the app's thread moves it into the queue, and
    /// the writer makes what it records of it.
    public func record(_ record: consuming EventRecord) {
        var bytes = Self.eventBytes
        // Told from the kind: looking into the optional value copies it, on the app's thread.
        if record.category.carriesState {
            let measured = record.source.measuredStateBytes.load(ordering: .relaxed)
            bytes += measured == 0 ? Self.unmeasuredStateBytes : measured
        } else if record.category == .log {
            // An app's log message counts for its text too (its metadata's size is not known
            // before the writer takes its tree).
            bytes += record.description.utf8.count
        }
        queue.push(consume record, bytes: bytes)
    }

    /// The journal takes records as they are.
    public var takesRecords: Bool { true }

    /// Logs `event` as if made at `callSite`, a call site a journal recorded: a re-record sends a
    /// recorded input from Rewind's code, and writes it where the app had sent it from.
    func log(_ event: Event, recordedAt callSite: RecordedCallSite) {
        callSiteStandIns.withLock { $0[event.sequence] = callSite }
        hasCallSiteStandIns.store(true, ordering: .releasing)
        log(event)
    }

    /// What an event counts for in the queue without its state: its own size and its values'
    /// boxes, roughly.
    static let eventBytes = 256

    /// What a state counts for before the writer has measured its source's: enough that a large
    /// state's first events cannot fill memory while the writer is busy with its first block.
    static let unmeasuredStateBytes = 64 * 1024

    /// Returns once every event logged before the call is written to the file (not necessarily to
    /// the disk: see ``sync()``).
    ///
    /// - Throws: the ``JournalWriteError`` that stopped the journal, if writing has failed.
    public func flush() throws(JournalWriteError) {
        try waitForWriter(sync: false)
    }

    /// Returns once every event logged before the call is written and the file is fsync'ed.
    ///
    /// - Throws: the ``JournalWriteError`` that stopped the journal, if writing (or the fsync)
    ///   has failed.
    public func sync() throws(JournalWriteError) {
        try waitForWriter(sync: true)
    }

    private func waitForWriter(sync: Bool) throws(JournalWriteError) {
        let ticket: UInt64? = condition.withLock {
            // The writer's own callbacks cannot wait for it.
            guard !closed, writerThread.map({ pthread_equal($0, pthread_self()) == 0 }) ?? true else { return nil }
            flushRequested += 1
            if sync { syncRequested = flushRequested }
            return flushRequested
        }
        if let ticket {
            queue.wake()
            condition.lock()
            while flushCompleted < ticket && !closed { condition.wait() }
            condition.unlock()
        }
        if let failure = condition.withLock({ failure }) { throw failure }
    }

    /// Writes everything, then the index, and stops the writer. Later events are ignored. Called by
    /// `deinit` too; calling it twice is harmless, and a call while another thread closes returns
    /// once the file is complete. A call from the writer's own thread (an ``JournalConfiguration/onFailure``
    /// callback) asks it to close and returns at once.
    public func close() {
        let (first, onWriterThread) = condition.withLock {
            defer { closing = true }
            return (!closing, writerThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        if first { queue.wake() }
        guard !onWriterThread else { return }
        // The writer signals once when it ends; each closer passes the signal on to the next.
        writerDone.wait()
        writerDone.signal()
    }

    /// Counters about the journal so far.
    public struct Statistics: Sendable, Equatable {
        /// Events in blocks written to the file: after ``JournalLogger/sync()``, what is on disk.
        public var eventsWritten: Int
        /// Bytes in the current file.
        public var bytesWritten: Int
        /// Events dropped because the queue was full: in drop mode, and in wait mode those the
        /// writer's own thread logged (a callback's messages), which never wait for it.
        public var eventsDropped: UInt64
        /// Events logged but not written because writing had failed.
        public var eventsLost: Int
        /// The write error that stopped the journal, if writing failed.
        public var failure: JournalWriteError?
        /// Events left out because their record was larger than a journal block can hold
        /// (``Refusal``).
        public var eventsRefused: Int = 0
        /// Events a flight recorder's ring left out because their block was larger than the whole
        /// ring (one state of more than the ring, compressed); always 0 for a journal file.
        public var eventsLeftOutOfRing: Int = 0
    }

    /// An event the journal left out, at record time, because its record would be larger than a
    /// journal block can hold: every reader would refuse the block, and lose the events around
    /// it. The limits are documented in docs/JOURNAL_FORMAT.md ("Limits"): about four million
    /// values, or 32 MiB, in one event's record.
    public struct Refusal: Error, CustomStringConvertible, Sendable, Equatable {
        /// The event's sequence number.
        public var sequence: UInt64
        /// The unit that logged it (`TypeName#instance`, or its label).
        public var source: String
        /// The event's kind.
        public var kind: Event.Category
        /// The event's name (the dispatch or commit), if any.
        public var name: String
        /// The values (state nodes, changes, path components and strings) its record held.
        public var values: Int
        /// The bytes its record took.
        public var bytes: Int

        public var description: String {
            let what = name.isEmpty ? "\(kind)" : "\(kind) \(name)"
            return "event #\(sequence) of \(source) (\(what)) was not recorded: its record holds \(values) values in \(bytes) bytes, "
                + "more than a journal block can hold (\(JournalFormat.maximumRecordItems) values, \(JournalFormat.maximumRecordBytes) bytes); "
                + "the journal shows a dropped event in its place and records the unit's next state whole"
        }
    }

    /// Counters about the journal so far (as of the last block the writer finished).
    public var statistics: Statistics {
        condition.withLock {
            Statistics(
                eventsWritten: writtenCount, bytesWritten: writtenBytes, eventsDropped: queue.droppedCount, eventsLost: lostCount,
                failure: failure, eventsRefused: refusedCount, eventsLeftOutOfRing: leftOutCount
            )
        }
    }

    // MARK: Writer side

    /// What the writer was asked for, read at the start of a round.
    private struct Requests {
        var flushTicket: UInt64
        var sync: Bool
        var closing: Bool
    }

    /// Whether a flush or close waits for the writer. Reads the requests, so call it with
    /// `condition` held.
    private var hasRequests: Bool { flushRequested != flushCompleted || closing }

    private func runWriter() {
        condition.withLock { writerThread = pthread_self() }
        // What this thread logs (a callback's messages, a state's own description) never waits.
        queue.becomeConsumer()
        var batch: [EventRecord] = []
        batch.reserveCapacity(min(queue.capacity, BatchPacing.limits.upperBound))
        // A producer waiting for room in a full queue waits for one batch, not for the whole ring.
        var pacing = BatchPacing()
        while true {
            let requests = condition.withLock {
                Requests(flushTicket: flushRequested, sync: syncRequested > flushCompleted, closing: closing)
            }
            let mustDrain = requests.closing || requests.flushTicket > flushCompleted
            if requests.closing { queue.close() }
            var round = Round()
            // A flush or close covers every event queued before it: take until the queue has
            // given up to where it stood, even past drops, which end a take.
            let drainTo = mustDrain ? queue.claimedCount : 0
            var tookAny = takeAndEncode(&batch, pacing: &pacing, round: &round)
            while queue.takenCount < drainTo {
                if !takeAndEncode(&batch, pacing: &pacing, round: &round) { sched_yield() }  // a producer is publishing
                tookAny = true
            }
            // A block still being compressed is written before the writer sleeps (unless writing
            // has failed: then nothing more is written, and the writer must not spin).
            if !tookAny && !mustDrain && !(encoder.hasBlockInFlight && failure == nil) {
                let wait = encoder.hasOpenBlock
                    ? max(0, Double(configuration.flushInterval.nanoseconds) - Double(encoder.openBlockAge)) / 1e9
                    : Double(configuration.flushInterval.nanoseconds) / 1e9
                let woken = queue.sleep(seconds: wait) { condition.withLock { hasRequests } }
                // Time up with a block open: seal it below, as it is old enough.
                if woken || !encoder.hasOpenBlock { continue }
            }
            finish(&round, seal: mustDrain, sync: requests.sync, closing: requests.closing)
            let firstFailure = failure == nil ? round.error : nil
            condition.withLock {
                failure = failure ?? round.error
                lostCount += round.lost
                writtenCount = encoder.eventsWritten
                refusedCount = encoder.eventsRefused
                leftOutCount = encoder.eventsLeftOut
                writtenBytes = encoder.bytesWritten
                currentPath = encoder.currentPath
                flushCompleted = requests.closing ? flushRequested : max(flushCompleted, requests.flushTicket)
                if requests.closing { closed = true }
                condition.broadcast()
            }
            if let firstFailure { configuration.onFailure?(firstFailure) }
            if requests.closing {
                writerDone.signal()
                return
            }
        }
    }

    /// What one round of the writer did.
    private struct Round {
        var error: JournalWriteError?
        /// Events taken but not written, because writing had failed.
        var lost = 0
    }

    /// Takes what is queued and encodes it, a paced batch at a time (``BatchPacing``: each take
    /// frees room for a waiting producer), until about the largest batch's worth of events is
    /// encoded in this round of the writer (whose bookkeeping after it costs the same for 64 events
    /// as for 1,024); `false` when there was nothing.
    private func takeAndEncode(_ batch: inout [EventRecord], pacing: inout BatchPacing, round: inout Round) -> Bool {
        var taken = 0
        var tookAny = false
        while taken < BatchPacing.limits.upperBound, takeAndEncodeBatch(&batch, pacing: &pacing, round: &round, taken: &taken) {
            tookAny = true
            if !queue.hasQueuedEvents { break }
        }
        return tookAny
    }

    /// Takes one batch and encodes it (sorted by sequence number, since producers on several
    /// threads can queue out of order), then the drops after it; `false` when there was nothing.
    private func takeAndEncodeBatch(_ batch: inout [EventRecord], pacing: inout BatchPacing, round: inout Round, taken: inout Int) -> Bool {
        let dropped = queue.take(into: &batch, limit: pacing.limit)
        defer { batch.removeAll(keepingCapacity: true) }
        guard !batch.isEmpty || dropped != nil else { return false }
        taken += max(1, batch.count)
        let started = EventTime.monotonicNow()
        defer { pacing.encoded(batch.count, in: EventTime.monotonicNow() &- started) }
        guard failure == nil && round.error == nil else {
            round.lost += batch.count
            return true
        }
        if batch.count > 1 && !isSorted(batch) { batch.sort { $0.sequence < $1.sequence } }
        // A refused event is not lost to a later failure: it was never going to be written.
        let encodedBefore = encoder.eventsEncoded + encoder.eventsRefused
        do {
            if hasCallSiteStandIns.load(ordering: .acquiring) {
                for index in batch.indices {
                    try encoder.encode(batch[index], recordedCallSite: callSiteStandIns.withLock { $0.removeValue(forKey: batch[index].sequence) })
                }
            } else {
                // Borrowed from the buffer: a `for … in` loop, or a subscript of the array the
                // loop may change, copies each record out, retaining its values.
                try batch.withUnsafeBufferPointer { (records) throws(JournalWriteError) in
                    for index in records.indices { try encoder.encode(records[index]) }
                }
            }
            if let (range, source) = dropped { try encoder.encodeDropped(range, source: source) }
        } catch {
            round.error = error
            // This batch's events not encoded, and those encoded but not in a written block (an
            // event counts as encoded even when sealing the block after it failed).
            let encoded = encoder.eventsEncoded + encoder.eventsRefused - encodedBefore
            round.lost += batch.count - encoded + encoder.eventsEncoded - encoder.eventsWritten
        }
        return true
    }

    /// Seals the open block when asked or when it is old enough, syncs when asked, and writes the
    /// index when closing.
    private func finish(_ round: inout Round, seal: Bool, sync: Bool, closing: Bool) {
        guard failure == nil && round.error == nil else { return }
        do {
            // Deterministic journals seal blocks by size only, so that timing cannot move boundaries.
            let aged = !configuration.deterministic && encoder.openBlockAge >= UInt64(configuration.flushInterval.nanoseconds)
            if seal || aged { try encoder.sealBlock() }
            // A block being compressed stays in flight while events wait, so that the next
            // block is encoded meanwhile; otherwise, or when asked, it is written now.
            if seal || !queue.hasQueuedEvents { try encoder.writeBlockInFlight() }
            if sync { try encoder.sync() }
            if closing { try encoder.finish() }
        } catch {
            round.error = error
            round.lost += encoder.eventsEncoded - encoder.eventsWritten
        }
    }

    private func isSorted(_ batch: [EventRecord]) -> Bool {
        for index in batch.indices.dropFirst() where batch[index - 1].sequence > batch[index].sequence {
            return false
        }
        return true
    }
}
