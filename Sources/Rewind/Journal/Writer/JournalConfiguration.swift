import Foundation

/// How a ``JournalLogger`` writes.
public struct JournalConfiguration: Sendable {
    /// What a producer does when the queue to the writer is full: ``EventQueue/Overflow/wait``
    /// until the writer catches up, so that nothing is lost (the default), or
    /// ``EventQueue/Overflow/drop`` the event and count it — the journal records how many were
    /// dropped and their range.
    public typealias Overflow = EventQueue.Overflow

    /// A full snapshot of a source's state is written at its first event in each block and then
    /// every this many of its state-changing events (and whenever a diff would be larger).
    public var keyframeInterval: Int = 64
    /// A block is compressed and written once its records, keyframes left out, reach this size…
    public var blockSize: Int = 64 * 1024
    /// …or this long after its first event, whichever comes first.
    public var flushInterval: Duration = .milliseconds(100)
    /// How many events may wait for the writer before producers wait (or drop), rounded up to a
    /// power of two.
    public var queueCapacity: Int = 1 << 16
    /// How many bytes the events waiting for the writer may hold before producers wait (or drop);
    /// the batch the writer has taken holds at most as much again. An event that carries a state
    /// counts that state's size, as the writer last measured the source's state: a queued state
    /// keeps the app's buffers shared, so the app's next in-place write to them copies them, and
    /// those copies are what this bounds. An estimate (16 bytes per node of the state's tree; 64
    /// KiB before the first measure), not an exact count of memory.
    public var queueByteLimit: Int = 32 << 20
    /// What a producer does when the queue is full.
    public var overflow: Overflow = .wait
    /// Start a new file once the current one reaches this many bytes (`nil`: never). The files are
    /// named `name.rewind`, `name.1.rewind`, `name.2.rewind`, …
    public var rotationSize: Int? = nil
    /// Compress each sealed block on a thread of its own while the writer encodes the next one
    /// (one block at a time; the writer still writes blocks in order). On by default where the
    /// machine has more than one core: measured on two cores, where the app's loop and the
    /// writer already keep both busy, it still gives ~5% more events per second to disk and the
    /// app's thread is not slower.
    public var compressesOnOwnThread: Bool = ProcessInfo.processInfo.activeProcessorCount > 1
    /// zlib's compression level, 1 (fastest) to 9 (smallest).
    public var compressionLevel: Int32 = 1
    /// How states and values are captured (redaction rules, depth limit).
    public var captureOptions: CaptureOptions = .current
    /// Write fixed times, sequence numbers and instance numbers (counting from 1 in the order they
    /// are seen), so that the same session always produces the same bytes: for fixtures and tests.
    public var deterministic: Bool = false

    /// The version of the app being recorded, written into the journal's header (at most 255
    /// bytes of UTF-8): `rewind info` shows it and `rewind export` puts it on every row, so that
    /// a fleet of recordings can be asked which app versions show a problem.
    ///
    /// ```swift
    /// var configuration = JournalConfiguration()
    /// configuration.appVersion = "2.4.1 (812)"
    /// ```
    public var appVersion: String? = nil
    /// The recording's identifier, written into the journal's header and shared by its rotated
    /// files (``JournalLogger/recordingID``). `nil`, the default: a fresh random one (with
    /// ``deterministic``, one made from the fixed creation time, the same for every such journal).
    public var recordingID: UUID? = nil

    /// Replace a file already at the journal's path (or a rotated file's). Off by default: opening
    /// a journal on an existing file fails, so an earlier recording is never lost by accident.
    public var replaceExisting: Bool = false
    /// Called once, on the writer's thread, when writing fails (a full disk, an I/O error). The
    /// journal stops writing then; the file stays readable up to its last good block, and
    /// ``JournalLogger/flush()``, ``JournalLogger/sync()`` and ``JournalLogger/statistics`` report
    /// the failure too.
    ///
    /// It may log, into this journal too (a ``RecordingLogHandler`` telling the app's log about
    /// the failure): nothing the writer's thread logs waits for room in the queue, which only it
    /// makes; what does not fit is dropped and counted (``JournalLogger/Statistics/eventsDropped``).
    /// It must not wait for another thread that logs into this journal.
    public var onFailure: (@Sendable (JournalWriteError) -> Void)? = nil
    /// Called on the writer's thread for each event left out because its record would be larger
    /// than a journal block can hold (a state of more than about four million values; see
    /// ``JournalLogger/Refusal``). The journal goes on: the file shows a dropped event in its
    /// place, and the unit's next state is recorded whole. It may log as ``onFailure`` may.
    public var onRefusal: (@Sendable (JournalLogger.Refusal) -> Void)? = nil
    /// For tests: writes that would take a file past this many bytes fail as on a full disk.
    var sizeLimitForTesting: Int? = nil
    /// Set by a ``FlightRecorder``: the journal is a ring file of this many bytes (``RingFile``),
    /// and does not rotate.
    var ringSize: Int? = nil
    /// Set by a ``FlightRecorder``: the blocks its ring holds, for its own dumps.
    var ringCatalog: RingCatalog? = nil
    /// Set by a ``FlightRecorder`` with conditions: judged at each state the writer records.
    var stateWatch: StateWatch? = nil

    /// The default configuration.
    public init() {}
}
