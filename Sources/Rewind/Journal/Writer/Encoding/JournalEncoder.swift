/// Turns events — as the units made them (``EventRecord``s): no ``Event`` is made on the journal's
/// path — into block records on the writer's thread: captures values into trees, decides
/// between keyframes and diffs per source, seals blocks by size, and rotates files.
///
/// Each kind of event is one step, in a file of its own: mutations (`JournalEncoder+Mutation`),
/// changes (`+Change`), whole states (`+Snapshot`), and values (`+Payload`); the state record
/// after them is chosen in `+StateRecord`.
///
/// Its fields opt out of Swift's dynamic exclusivity checks (a measurable part of the writer's
/// cost): the encoder is used by one thread only, the journal's writer.
final class JournalEncoder {
    let configuration: JournalConfiguration
    private let basePath: String
    @exclusivity(unchecked) private var file: any BlockSink
    @exclusivity(unchecked) private var rotation = 0
    @exclusivity(unchecked) private var builder = BlockBuilder()
    /// Compresses sealed blocks on another thread, when the configuration asks for it.
    private let compressor: BlockCompressor?
    /// A block compressed on this thread and not in the file yet.
    @exclusivity(unchecked) private var compressedHere: CompressedBlock?
    @exclusivity(unchecked) private var tracks: [UInt64: SourceTrack] = [:]
    private let header: JournalHeader
    @exclusivity(unchecked) private var renumbering: Renumbering?
    /// Events in blocks written to the file (a dropped-events record is not an event).
    @exclusivity(unchecked) private(set) var eventsWritten = 0
    /// Events encoded, whether their block is written yet or not.
    @exclusivity(unchecked) private(set) var eventsEncoded = 0
    /// Events left out because their record was larger than a block can hold.
    @exclusivity(unchecked) private(set) var eventsRefused = 0

    /// Change paths seen so far, and their parsed forms.
    @exclusivity(unchecked) var shapes: ChangeShapes

    init(path: String, configuration: JournalConfiguration, header: JournalHeader) throws(JournalWriteError) {
        var configuration = configuration
        // Each journal numbers its secrets' values from the first it sees.
        configuration.captureOptions.secretVersions = SecretVersions()
        self.configuration = configuration
        self.shapes = ChangeShapes(redaction: configuration.captureOptions.redaction)
        self.basePath = path
        self.header = header
        if let ringSize = configuration.ringSize {
            self.file = try RingFile(
                path: path, header: header, size: ringSize, replaceExisting: configuration.replaceExisting, catalog: configuration.ringCatalog)
        } else {
            self.file = try JournalFile(path: path, header: header, replaceExisting: configuration.replaceExisting, sizeLimit: configuration.sizeLimitForTesting)
        }
        if configuration.deterministic { renumbering = Renumbering() }
        compressor = configuration.compressesOnOwnThread ? BlockCompressor() : nil
    }

    var currentPath: String { file.path }
    var bytesWritten: Int { file.bytesWritten }
    var eventsLeftOut: Int { file.eventsLeftOut }
    var hasOpenBlock: Bool { !builder.isEmpty }
    /// Whether a sealed block is being compressed and is not in the file yet.
    var hasBlockInFlight: Bool { compressor?.isBusy ?? false }
    var openBlockAge: UInt64 { builder.isEmpty ? 0 : EventTime.monotonicNow() &- builder.openedAtMonotonic }

    /// Encodes `event`; `recordedCallSite` stands in for its call site when the event is one a journal
    /// recorded, written again (a shrunk recording, an input a re-record sent), whose call site is
    /// text rather than the compiler's static strings.
    func encode(_ event: EventRecord, recordedCallSite: RecordedCallSite? = nil) throws(JournalWriteError) {
        guard renumbering != nil else {
            return try encode(event, sequence: event.sequence, time: event.time, sourceID: event.source.instanceID, recordedCallSite: recordedCallSite)
        }
        let (sequence, time, sourceID) = renumbering!.map(event)
        let renumbered = renumbering!.deterministicCopy(of: event, sequence: sequence)
        try encode(renumbered, sequence: sequence, time: time, sourceID: sourceID, recordedCallSite: recordedCallSite)
    }

    /// Encodes `recorded` under the given numbering (its own, or a deterministic journal's): the
    /// record is read where it lies, not copied (a copy retains every value it holds).
    private func encode(
        _ recorded: EventRecord, sequence: UInt64, time: EventTime, sourceID: UInt64, recordedCallSite: RecordedCallSite?
    ) throws(JournalWriteError) {
        let source = recorded.source
        let kind = recorded.category
        // The track is modified in place, in one access: copying it out and back would copy its
        // state tree, and each lookup hashes.
        var record = WireRecord(recorded, sequence: sequence, time: time, body: .none, state: nil)
        step(recorded, reportingSizeOf: source, track: &tracks[sourceID, default: SourceTrack()], into: &record)
        // A unit's first record says what its state's type was: a replay on a later build compares it.
        if kind == .created, record.description.isEmpty, let state = recorded.state {
            record.description = TypeSchema(of: state.value).recordedText
        }
        if let recordedCallSite {
            record.file = .text(recordedCallSite.file)
            record.function = .text(recordedCallSite.function)
            record.line = recordedCallSite.line
        }
        if let size = builder.append(record, source: source, sourceID: sourceID) {
            return try refuse(record, size: size, source: source, sourceID: sourceID)
        }
        if let watch = configuration.stateWatch {
            judge(record, source: source, sourceID: sourceID, by: watch)
        }
        if kind == .released {
            // The released source's state is let go; a reader keeps it, so the source's next
            // block cannot start its summary from it. This block's summary goes on.
            var released = SourceTrack()
            released.summary = tracks[sourceID]?.summary ?? SourceSummaryRecorder()
            released.stateAsReadIsUnknown = true
            tracks[sourceID] = released
        }
        eventsEncoded += 1
        if builder.recordBytes >= configuration.blockSize || builder.isFull {
            try sealBlock()
        }
    }

    /// Judges a flight recorder's conditions at a step that left its unit in a recorded state, and
    /// those that speak of log messages at an app's message.
    private func judge(_ record: WireRecord, source: EventSource, sourceID: UInt64, by watch: StateWatch) {
        switch record.kind {
        case .didMutate, .replace, .created, .change:
            // A nested commit's end is inside the outer commit: judged at the outer one's. So is
            // a change inside a commit; one outside a commit carries its unit's new state (or,
            // when nothing changed or its place is unknown, no record: nothing to judge).
            let settles = record.kind == .replace || record.kind == .created
            guard let track = tracks[sourceID], track.commitDepth == 0 || settles, record.kind != .change || record.state != nil,
                let state = track.state
            else { return }
            let recorded = RecordedSource(instanceID: sourceID, framework: source.framework.rawValue, typeName: source.typeName, label: source.label)
            watch.judge(record.recordedEvent(source: recorded), sourceID: sourceID, state: state)
        case .log where watch.judgesMessages:
            let recorded = RecordedSource(instanceID: sourceID, framework: source.framework.rawValue, typeName: source.typeName, label: source.label)
            watch.judgeMessage(record.recordedEvent(source: recorded))
        case .released:
            watch.forget(sourceID)
        default:
            break
        }
    }

    /// Leaves out an event whose record is larger than a block can always take, so that no block
    /// is ever written that a reader refuses: the block records a gap in its place (readers show
    /// one event dropped), its unit's next state is recorded whole, and the refusal is reported
    /// (``JournalConfiguration/onRefusal``, ``JournalLogger/Statistics/eventsRefused``).
    private func refuse(_ record: WireRecord, size: BlockBuilder.RecordSize, source: EventSource, sourceID: UInt64) throws(JournalWriteError) {
        eventsRefused += 1
        builder.appendUnchecked(
            WireRecord(dropped: DroppedRange(count: 1, sequences: record.sequence...record.sequence), time: record.time),
            source: source, sourceID: sourceID
        )
        // The reader's state of the unit is the one before the refused record, and no summary
        // vouches for this block's states.
        builder.isSummarized = false
        tracks[sourceID]?.keyframedInBlock = false
        // The next block's summary cannot start from the state the track now holds: the reader
        // never got it. Nor can its next record's fields be told from that state: any may change.
        tracks[sourceID]?.stateAsReadIsUnknown = true
        tracks[sourceID]?.changesSinceRecord += 1
        tracks[sourceID]?.fieldsChangedSinceRecord = nil
        tracks[sourceID]?.derivedState = nil
        tracks[sourceID]?.derivedChanges = nil
        configuration.onRefusal?(JournalLogger.Refusal(
            sequence: record.sequence, source: source.description, kind: record.kind, name: record.name,
            values: size.items, bytes: size.bytes
        ))
        if builder.isFull { try sealBlock() }
    }

    /// What an event's record holds besides its fixed fields — its body and its state record —
    /// by the step for its kind, set into `record` (a returned pair would be copied through the
    /// runtime's generic witnesses); updates the source's track.
    ///
    /// Values are bound here, on the writer's thread, to what their redaction depends on besides
    /// themselves (a change's path and state, an input's or activity's name), as ``Event``'s
    /// initializer binds them for the loggers that get events.
    private func step(_ event: EventRecord, reportingSizeOf source: EventSource, track: inout SourceTrack, into wire: inout WireRecord) {
        let kind = event.category
        defer {
            if let measured = track.measuredStateBytes {
                source.measuredStateBytes.store(measured, ordering: .relaxed)
                track.measuredStateBytes = nil
            }
        }
        if !track.summary.isStarted { track.startSummary() }
        let missing = EventRecord.missing
        let step: EncodedStep =
            switch kind {
            case .willMutate: mutationBegins(track: &track)
            case .didMutate: mutationEnds(duration: event.duration, state: event.state ?? missing, track: &track)
            case .change:
                changeStep(
                    event.path ?? ChangedPath(name: ""), value: (event.value ?? missing).changed(at: event.path ?? ChangedPath(name: ""), in: event.state),
                    state: event.state, track: &track
                )
            case .replace, .created: event.state.map { snapshotStep($0, track: &track) } ?? EncodedStep()
            case .activity: payloadStep((event.value ?? missing).sent(as: event.name))
            case .willDispatch: event.value.map { payloadStep($0.sent(as: event.name)) } ?? EncodedStep()
            case .didDispatch: EncodedStep(body: .duration(event.duration))
            case .released, .dropped: EncodedStep()
            case .log: logStep(event, into: &wire)
            }
        // The name the record carries (a log's is its level, set by its step): what a reader's
        // question about names is judged on.
        track.summary.saw(kind, name: wire.name)
        if let newState = step.newState { wire.state = stateRecord(for: &track, newState: newState, knownChanges: step.knownChanges) }
        // Without a record of its own, a change is put into the state by its reader.
        if wire.state == nil, let change = step.change { track.summary.changed(change.path, to: change.value) }
        track.noteReaderStep(recorded: wire.state != nil, changedPath: step.change.map(\.path))
        wire.body = step.body
    }

    /// Records that a writer in drop mode dropped events.
    func encodeDropped(_ dropped: DroppedRange, source: EventSource) throws(JournalWriteError) {
        builder.appendUnchecked(WireRecord(dropped: dropped, time: .now()), source: source, sourceID: source.instanceID)
        // The reader's states after a gap are not what the writer followed: no summary vouches
        // for this block.
        builder.isSummarized = false
        // The dropped events' changes never reached the writer, so a state derived from the
        // changes it did see would miss them: every source's next state is captured for real.
        for key in tracks.keys {
            tracks[key]!.reclaimState()
            tracks[key]!.derivedState = nil
            tracks[key]!.liveState = nil
            tracks[key]!.stateRecordsSinceCapture = Self.captureInterval
        }
    }

    /// Seals the open block and hands it to the compressor, after writing the block before it:
    /// the open block is compressed on another thread while the next one is encoded.
    func sealBlock() throws(JournalWriteError) {
        guard !builder.isEmpty else { return }
        try writeBlockInFlight()
        for source in builder.sources {
            builder.stepSummaries[source.instanceID] = tracks[source.instanceID]?.summary.finished()
        }
        if let compressor {
            compressor.start(builder, level: configuration.compressionLevel)
        } else {
            compressedHere = CompressedBlock(builder, level: configuration.compressionLevel)
        }
        builder = BlockBuilder()
        for key in tracks.keys {
            tracks[key]!.keyframedInBlock = false
            tracks[key]!.summary = SourceSummaryRecorder()
        }
    }

    /// Waits for the block being compressed, if any, writes it, and rotates the file if it grew
    /// past the limit. The writer calls it when it has nothing else to do, and before a flush,
    /// sync or close returns.
    func writeBlockInFlight() throws(JournalWriteError) {
        let block: CompressedBlock
        if let compressor, compressor.isBusy {
            block = compressor.finish()
        } else if let compressed = compressedHere {
            block = compressed
            compressedHere = nil
        } else {
            return
        }
        try file.append(block)
        eventsWritten += block.eventCount
        if let limit = configuration.rotationSize, configuration.ringSize == nil, file.bytesWritten >= limit {
            try file.finish(level: configuration.compressionLevel)
            rotation += 1
            file = try JournalFile(path: Self.rotatedPath(basePath, rotation), header: header, replaceExisting: configuration.replaceExisting, sizeLimit: configuration.sizeLimitForTesting)
        }
    }

    func sync() throws(JournalWriteError) {
        try writeBlockInFlight()
        try file.sync()
    }

    func finish() throws(JournalWriteError) {
        try sealBlock()
        try writeBlockInFlight()
        try file.finish(level: configuration.compressionLevel)
    }

    deinit {
        if let compressor {
            if compressor.isBusy { _ = compressor.finish() }
            compressor.stop()
        }
    }

    /// `run.rewind` → `run.1.rewind`, `run.2.rewind`, …
    static func rotatedPath(_ path: String, _ number: Int) -> String {
        guard number > 0 else { return path }
        if path.hasSuffix(".rewind") { return String(path.dropLast(7)) + ".\(number).rewind" }
        return path + ".\(number)"
    }
}

/// Fixed numbering for deterministic journals: sequence numbers and instance numbers count from 1
/// in the order the writer sees them, and time advances one millisecond per event from a fixed
/// start, so the same session always gives the same bytes.
struct Renumbering {
    static let startWallNanoseconds: Int64 = 1_767_225_600_000_000_000  // 2026-01-01T00:00:00Z
    private var sequences: [UInt64: UInt64] = [:]
    private var instances: [UInt64: UInt64] = [:]
    private var nextSequence: UInt64 = 1

    mutating func map(_ event: EventRecord) -> (UInt64, EventTime, UInt64) {
        let sequence = nextSequence
        nextSequence += 1
        sequences[event.sequence] = sequence
        let instance = instances[event.source.instanceID] ?? UInt64(instances.count + 1)
        instances[event.source.instanceID] = instance
        let elapsed = sequence * 1_000_000
        return (sequence, EventTime(wallNanoseconds: Self.startWallNanoseconds + Int64(elapsed), monotonicNanoseconds: elapsed), instance)
    }

    /// The event with its parent renumbered and its durations fixed.
    func deterministicCopy(of event: EventRecord, sequence: UInt64) -> EventRecord {
        var copy = event
        copy.sequence = sequence
        copy.duration = .zero
        copy.parent = event.parent.flatMap { sequences[$0] }
        return copy
    }
}
