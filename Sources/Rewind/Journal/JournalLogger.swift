import Foundation

/// A logger that records every event into a compressed, crash-safe `.rewind` journal.
///
/// ```swift
/// let journal = try JournalLogger(path: "session.rewind")
/// viewModel.set(logger: journal)      // or CycleLoggingSystem.bootstrap(journal)
/// …
/// journal.close()                     // writes the index; a journal that is never closed still opens
/// ```
///
/// The caller's thread only appends the event — with its values uncaptured, since Swift values are
/// copy-on-write — to a bounded queue. A background thread captures states into trees, diffs them
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
    // Unchecked: the queue fields are guarded by `condition`; `encoder` is used only by the writer
    // thread (and by `close()` after that thread has ended).

    /// The path of the file being written (it changes when the journal rotates).
    public var path: String { condition.withLock { currentPath } }
    /// The configuration the journal was opened with.
    public let configuration: JournalConfiguration

    private let condition = NSCondition()
    private var pending: [Event] = []
    private var writerIsWaiting = false
    private var producersWaiting = 0
    private var closing = false
    private var closed = false
    private var flushRequested: UInt64 = 0
    private var flushCompleted: UInt64 = 0
    private var syncRequested: UInt64 = 0
    /// Drops not yet recorded in the journal; the writer takes them with each batch.
    private var dropped: (count: UInt64, lowest: UInt64, highest: UInt64, source: EventSource?) = (0, .max, 0, nil)
    private var totalDropped: UInt64 = 0
    private var currentPath: String
    private var failure: JournalWriteError?
    private var writtenCount = 0
    /// Events accepted but never written, because writing had failed.
    private var lostCount = 0
    private var writtenBytes = 0
    /// What the events in `pending` hold, estimated (see ``JournalConfiguration/queueByteLimit``).
    private var pendingBytes = 0
    /// Each source's state size as the writer last measured it, by source object.
    private var stateSizes: [ObjectIdentifier: Int] = [:]
    /// The last source looked up in `stateSizes`, and its size: most events come from the source
    /// before them, and a dictionary lookup per event is a measurable part of the caller's cost.
    private var lastSized: (source: ObjectIdentifier, bytes: Int)?
    private let encoder: JournalEncoder
    private let wakeThreshold: Int
    private let writerDone = DispatchSemaphore(value: 0)

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
            createdMonotonicNanoseconds: now.monotonicNanoseconds, writerVersion: RewindVersion.current
        )
        encoder = try JournalEncoder(path: path, configuration: configuration, header: header)
        currentPath = path
        wakeThreshold = max(1, min(configuration.queueCapacity / 4, 4096))
        pending.reserveCapacity(min(configuration.queueCapacity, 1 << 16))
        let thread = Thread { [self] in runWriter() }
        thread.name = "Rewind journal writer"
        thread.start()
    }

    deinit {
        close()
    }

    // MARK: Producer side

    public func log(_ event: Event) {
        condition.lock()
        let bytes = Self.eventBytes + (event.kind.carriesState ? stateBytes(of: event.source) : 0)
        if isFull(adding: bytes) && !closing {
            if configuration.overflow == .drop {
                dropped.count += 1
                totalDropped += 1
                dropped.lowest = min(dropped.lowest, event.sequence)
                dropped.highest = max(dropped.highest, event.sequence)
                dropped.source = dropped.source ?? event.source
                condition.unlock()
                return
            }
            producersWaiting += 1
            while isFull(adding: bytes) && !closing { condition.wait() }
            producersWaiting -= 1
        }
        guard !closed else {
            condition.unlock()
            return
        }
        pending.append(event)
        pendingBytes += bytes
        if writerIsWaiting && pending.count >= wakeThreshold {
            condition.broadcast()
        }
        condition.unlock()
    }

    /// What an event counts for in the queue without its state: its own size and its values'
    /// boxes, roughly.
    static let eventBytes = 256

    /// What a state counts for before the writer has measured its source's: enough that a large
    /// state's first events cannot fill memory while the writer is busy with its first block.
    static let unmeasuredStateBytes = 64 * 1024

    /// What a state of `source` counts for in the queue. Call with `condition` held.
    private func stateBytes(of source: EventSource) -> Int {
        let id = ObjectIdentifier(source)
        if let lastSized, lastSized.source == id { return lastSized.bytes }
        let bytes = stateSizes[id] ?? Self.unmeasuredStateBytes
        lastSized = (id, bytes)
        return bytes
    }

    /// Whether the queue has no room for an event of `bytes` more. Call with `condition` held. One
    /// event always fits in an empty queue, however large its state. The batch the writer has
    /// taken is not counted: producers fill the queue while the writer writes it.
    private func isFull(adding bytes: Int) -> Bool {
        pending.count >= configuration.queueCapacity || (pendingBytes > 0 && pendingBytes + bytes > configuration.queueByteLimit)
    }

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
        condition.lock()
        defer { condition.unlock() }
        if !closed {
            flushRequested += 1
            let ticket = flushRequested
            if sync { syncRequested = ticket }
            condition.broadcast()
            while flushCompleted < ticket && !closed { condition.wait() }
        }
        if let failure { throw failure }
    }

    /// Writes everything, then the index, and stops the writer. Later events are ignored. Called by
    /// `deinit` too; calling it twice is harmless.
    public func close() {
        condition.lock()
        if closing {
            condition.unlock()
            return
        }
        closing = true
        condition.broadcast()
        condition.unlock()
        writerDone.wait()
    }

    /// Counters about the journal so far.
    public struct Statistics: Sendable, Equatable {
        /// Events in blocks written to the file: after ``JournalLogger/sync()``, what is on disk.
        public var eventsWritten: Int
        /// Bytes in the current file.
        public var bytesWritten: Int
        /// Events dropped because the queue was full (drop mode only).
        public var eventsDropped: UInt64
        /// Events logged but not written because writing had failed.
        public var eventsLost: Int
        /// The write error that stopped the journal, if writing failed.
        public var failure: JournalWriteError?
    }

    /// Counters about the journal so far (as of the last block the writer finished).
    public var statistics: Statistics {
        condition.withLock {
            Statistics(eventsWritten: writtenCount, bytesWritten: writtenBytes, eventsDropped: totalDropped, eventsLost: lostCount, failure: failure)
        }
    }

    // MARK: Writer side

    private func runWriter() {
        var batch: [Event] = []
        batch.reserveCapacity(min(configuration.queueCapacity, 1 << 16))
        while true {
            condition.lock()
            while pending.isEmpty && flushRequested == flushCompleted && !closing {
                let wait = encoder.hasOpenBlock
                    ? max(0, Double(configuration.flushInterval.nanoseconds) - Double(encoder.openBlockAge)) / 1e9
                    : Double(configuration.flushInterval.nanoseconds) / 1e9
                writerIsWaiting = true
                let signalled = condition.wait(until: Date(timeIntervalSinceNow: wait))
                writerIsWaiting = false
                if !signalled && encoder.hasOpenBlock { break }
            }
            swap(&batch, &pending)
            pendingBytes = 0
            let flushTicket = flushRequested
            let syncWanted = syncRequested > flushCompleted
            let isClosing = closing
            let droppedNow = dropped.count > 0 && dropped.source != nil
                ? DroppedRange(count: dropped.count, sequences: dropped.lowest...dropped.highest) : nil
            let droppedSource = dropped.source
            if droppedNow != nil { dropped = (0, .max, 0, nil) }
            if producersWaiting > 0 { condition.broadcast() }
            condition.unlock()

            // The writer alone sets `failure`, so reading it here without the lock is safe.
            var error: JournalWriteError?
            var lost = 0
            if failure == nil {
                let encodedBefore = encoder.eventsEncoded
                error = write(batch, dropped: droppedNow.map { ($0, droppedSource!) }, seal: flushTicket > flushCompleted || isClosing, sync: syncWanted)
                if error == nil && isClosing {
                    do { try encoder.finish() } catch let finishError { error = finishError }
                }
                if error != nil {
                    // The batch's events after the one that failed, and those of the open block.
                    let unencoded = batch.count - (encoder.eventsEncoded - encodedBefore)
                    lost = encoder.eventsEncoded - encoder.eventsWritten + unencoded
                }
            } else {
                lost = batch.count
            }
            batch.removeAll(keepingCapacity: true)
            let firstFailure = failure == nil ? error : nil
            let measuredSizes = encoder.stateSizes
            encoder.stateSizes.removeAll(keepingCapacity: true)
            condition.withLock {
                for (source, size) in measuredSizes { stateSizes[source] = size == 0 ? nil : size }
                if !measuredSizes.isEmpty { lastSized = nil }
                failure = failure ?? error
                lostCount += lost
                writtenCount = encoder.eventsWritten
                writtenBytes = encoder.bytesWritten
                currentPath = encoder.currentPath
                flushCompleted = isClosing ? flushRequested : max(flushCompleted, flushTicket)
                if isClosing { closed = true }
                condition.broadcast()
            }
            if let firstFailure { configuration.onFailure?(firstFailure) }
            if isClosing {
                writerDone.signal()
                return
            }
        }
    }

    /// Encodes a batch (sorted by sequence number, since producers on several threads can append
    /// out of order), and seals the open block when asked or when it is old enough.
    private func write(_ batch: [Event], dropped: (DroppedRange, EventSource)?, seal: Bool, sync: Bool) -> JournalWriteError? {
        do {
            let ordered = batch.count > 1 && !isSorted(batch) ? batch.sorted { $0.sequence < $1.sequence } : batch
            for event in ordered { try encoder.encode(event) }
            if let (range, source) = dropped { try encoder.encodeDropped(range, source: source) }
            // Deterministic journals seal blocks by size only, so that timing cannot move boundaries.
            let aged = !configuration.deterministic && encoder.openBlockAge >= UInt64(configuration.flushInterval.nanoseconds)
            if seal || aged {
                try encoder.sealBlock()
            }
            if sync { try encoder.sync() }
            return nil
        } catch {
            return error
        }
    }

    private func isSorted(_ batch: [Event]) -> Bool {
        for index in batch.indices.dropFirst() where batch[index - 1].sequence > batch[index].sequence {
            return false
        }
        return true
    }
}
