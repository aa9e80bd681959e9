/// Turns events into block records on the writer's thread: captures values into trees, decides
/// between keyframes and diffs per source, seals blocks by size, and rotates files.
final class JournalEncoder {
    private let configuration: JournalConfiguration
    private let basePath: String
    private var file: JournalFile
    private var rotation = 0
    private var builder = BlockBuilder()
    private var tracks: [UInt64: SourceTrack] = [:]
    private let header: JournalHeader
    private var renumbering: Renumbering?
    /// Events in blocks written to the file (a dropped-events record is not an event).
    private(set) var eventsWritten = 0
    /// Events encoded, whether their block is written yet or not.
    private(set) var eventsEncoded = 0

    /// What the writer remembers about one source between events.
    private struct SourceTrack {
        var state: StateValue?
        var stateRecordsSinceKeyframe = 0
        /// State records since the state was last captured rather than derived from changes.
        var stateRecordsSinceCapture = 0
        var keyframedInBlock = false
        var commitDepth = 0
        /// During a commit: the state so far, rebuilt from the state before it and the changes the
        /// commit made; `nil` once a change could not be applied (see `encode(_:)`).
        var derivedState: StateValue?
        /// The live state as of the last event that carried one, to resolve a subscript change's
        /// index and to capture a list-valued change by comparing live values rather than trees.
        /// Kept only for sources whose changes need it (`keepsLiveState`): holding a state keeps its
        /// buffers shared, so the app's next in-place write to them copies them.
        var liveState: Any? {
            get { keptLiveState }
            set { if keepsLiveState { keptLiveState = newValue } }
        }
        private var keptLiveState: Any?
        /// Set at the source's first subscript or list-valued change.
        var keepsLiveState = false
    }

    init(path: String, configuration: JournalConfiguration, header: JournalHeader) throws(JournalWriteError) {
        self.configuration = configuration
        self.basePath = path
        self.header = header
        self.file = try JournalFile(path: path, header: header, replaceExisting: configuration.replaceExisting, sizeLimit: configuration.sizeLimitForTesting)
        if configuration.deterministic { renumbering = Renumbering() }
    }

    var currentPath: String { file.path }
    var bytesWritten: Int { file.size }
    var hasOpenBlock: Bool { !builder.isEmpty }
    var openBlockAge: UInt64 { builder.isEmpty ? 0 : EventTime.monotonicNow() &- builder.openedAtMonotonic }

    func encode(_ event: Event) throws(JournalWriteError) {
        var sequence = event.sequence
        var time = event.time
        var sourceID = event.source.instanceID
        if renumbering != nil {
            (sequence, time, sourceID) = renumbering!.map(event)
        }
        let recorded = renumbering.map { $0.deterministicCopy(of: event, sequence: sequence) } ?? event
        // The track is modified in place: copying it out and back would copy its state tree.
        let (body, state) = describe(recorded, track: &tracks[sourceID, default: SourceTrack()])
        builder.append(EventRecord(recorded, sequence: sequence, time: time, body: body, state: state), source: event.source, sourceID: sourceID)
        if case .released = event.kind { tracks[sourceID] = nil }
        eventsEncoded += 1
        if builder.recordBytes >= configuration.blockSize || builder.allRecordBytes >= Self.largestBlock {
            try sealBlock()
        }
    }

    /// What an event's record holds besides its fixed fields: its body (a change's path and new
    /// value, an activity, a dispatch's input or a duration) and its state record; updates the
    /// source's track.
    private func describe(_ event: Event, track: inout SourceTrack) -> (body: EventRecord.Body, state: StateRecord?) {
        let options = configuration.captureOptions
        var path: String?
        var value: StateValue?
        var valueFromState: StateDiff?
        var newState: StateValue?
        switch event.kind {
        case .willMutate:
            if track.commitDepth == 0 { track.derivedState = track.state }
            track.commitDepth += 1
        case .didMutate(_, let state):
            track.commitDepth = max(0, track.commitDepth - 1)
            track.liveState = state.value
            // Capturing a whole state is the writer's biggest cost, and grows with the state. The
            // state after a commit is the state before it with the commit's changes applied, when
            // every change named a stored property: Swift key paths to computed properties and to
            // properties with observers do not name themselves (they print as `<computed …>`), so a
            // named write has no side effects — keyframes included, which a large state needs at
            // the start of every block. Every `captureInterval` state records the real state is
            // captured all the same: writes the changes did not show (inside a class instance the
            // state holds) are then in the journal too.
            if track.commitDepth == 0, let derived = track.derivedState, track.stateRecordsSinceCapture < Self.captureInterval {
                newState = derived
            } else {
                newState = state.tree(options: options)
                track.stateRecordsSinceCapture = 0
            }
            if track.commitDepth == 0 { track.derivedState = nil }
        case .change(let changedPath, let changedValue, let state):
            var text = changedPath.description
            let throughSubscript = text.contains("[…]")
            if !track.keepsLiveState, throughSubscript || changedValue.value is any LiveElements { track.keepsLiveState = true }
            // A subscript's index (`items[…].done` → `items[3].done`) is found by comparing the live
            // states before and after the change, which costs what changed. Where that cannot be done,
            // the redaction check for a path that does not name its fields captures the state after
            // the change; that capture is the state here too, rather than being taken twice — and,
            // compared with the state before, it tells which element the subscript wrote.
            let liveResolution = throughSubscript ? track.liveState.flatMap { before in
                state.flatMap { SubscriptResolution.resolve(text, liveBefore: before, liveAfter: $0.value, options: options) }
            } : nil
            let reused = liveResolution == nil ? capture(changedValue, at: text, reusing: track) : nil
            track.liveState = state?.value
            let (captured, capturedState) = changedValue.treeAndCapturedState(options: options, resolvedPath: liveResolution, captured: reused)
            if let resolved = liveResolution {
                text = resolved.description
            } else if let after = capturedState, let before = track.commitDepth > 0 ? track.derivedState : track.state,
                      let resolved = SubscriptResolution.resolve(text, before: before, after: after) {
                text = resolved.description
            }
            path = text
            value = captured
            valueFromState = diffFromRecordedState(captured, at: text, track: track)
            // A hidden value says nothing about the state (the state's own capture hides it under
            // another name), so such a change leaves the state to be captured.
            let settable = captured != .null && !captured.containsRedaction
            let applied: (StateValue) -> StateValue? = { previous in
                settable ? self.parsedPath(text).flatMap { previous.setting(captured, at: $0) } : nil
            }
            if track.commitDepth > 0 {
                // The state captured for the redaction is the state after this change already. A
                // change to nil: Codable drops the field, reflection keeps it as null — only a
                // capture can tell, so without one the commit's state will be captured.
                track.derivedState = capturedState ?? track.derivedState.flatMap(applied)
            } else {
                // Outside a commit no didMutate follows: this event carries the state.
                newState = capturedState ?? state?.tree(options: options) ?? track.state.flatMap(applied)
            }
        case .replace(let state), .created(.some(let state)):
            track.liveState = state.value
            newState = state.tree(options: options)
            if track.commitDepth > 0 { track.derivedState = newState }
        case .activity(let activity):
            value = activity.tree(options: options)
        case .willDispatch(let input):
            value = input?.tree(options: options)
        case .didDispatch, .created(.none), .released:
            break
        }
        let record = newState.flatMap { stateRecord(for: &track, newState: $0) }
        let body: EventRecord.Body = switch event.kind {
        case .change: valueFromState.map { .changeFromState(path: path ?? "", diff: $0) } ?? .change(path: path ?? "", value: value ?? .null)
        case .activity: .value(value ?? .null)
        case .willDispatch: value.map { .value($0) } ?? .none
        case .didDispatch(let duration), .didMutate(let duration, _): .duration(UInt64(max(0, duration.nanoseconds)))
        default: .none
        }
        return (body, record)
    }

    /// A change's new value, when it is a list that shares its front and back with the list it
    /// replaced, captured by taking the shared elements' trees from the state before the change:
    /// what a list that grew by one item costs is capturing that item.
    private func capture(_ value: CapturedValue, at text: String, reusing track: SourceTrack) -> StateValue? {
        guard let elements = value.value as? any LiveElements, let path = parsedPath(text),
              let previousTree = (track.commitDepth > 0 ? track.derivedState : track.state)?[path],
              let previous = track.liveState.flatMap({ LiveValue.value(at: path, in: $0) }) else { return nil }
        return elements.capture(reusing: previousTree, of: previous, options: configuration.captureOptions)
    }

    /// A change's new value as the changes from the value at its path in the source's last state
    /// record, when that record is in the open block (a reader rebuilds the value from it) and the
    /// changes are much smaller than the value: a list that grew by one item is recorded as that
    /// item. `nil` otherwise; the value is then written whole.
    private func diffFromRecordedState(_ value: StateValue, at text: String, track: SourceTrack) -> StateDiff? {
        switch value {
        case .array, .object: break
        default: return nil
        }
        guard track.keyframedInBlock, let path = parsedPath(text), let old = track.state?[path] else { return nil }
        let changes = diff(old, value)
        return value.weighs(moreThan: 2 * changes.weight + 8) ? changes : nil
    }

    /// Parsed paths, by their text: the same few paths change again and again.
    private var parsedPaths: [String: StatePath] = [:]

    private func parsedPath(_ text: String) -> StatePath? {
        if let known = parsedPaths[text] { return known }
        guard let parsed = StatePath(recordedChange: text) else { return nil }
        if parsedPaths.count < 4_096 { parsedPaths[text] = parsed }
        return parsed
    }

    /// Records that a writer in drop mode dropped events.
    func encodeDropped(_ dropped: DroppedRange, source: EventSource) throws(JournalWriteError) {
        builder.append(EventRecord(dropped: dropped, time: .now()), source: source, sourceID: source.instanceID)
        // The dropped events' changes never reached the writer, so a state derived from the
        // changes it did see would miss them: every source's next state is captured for real.
        for key in tracks.keys {
            tracks[key]!.derivedState = nil
            tracks[key]!.liveState = nil
            tracks[key]!.stateRecordsSinceCapture = Self.captureInterval
        }
    }

    /// A keyframe at a source's first state in each block, every `keyframeInterval` state records,
    /// and whenever the diff would be larger than the state; otherwise the diff (or nothing, when
    /// nothing changed).
    private func needsKeyframe(_ track: SourceTrack) -> Bool {
        track.state == nil || !track.keyframedInBlock || track.stateRecordsSinceKeyframe >= configuration.keyframeInterval
    }

    /// Records beyond this size seal a block whatever its keyframes: a quarter of the largest block
    /// a reader accepts (``JournalFormat/maximumBlockLength``).
    static let largestBlock = JournalFormat.maximumBlockLength / 4

    /// How many state records may be derived from changes before the real state is captured again.
    static let captureInterval = 1_024

    private func stateRecord(for track: inout SourceTrack, newState: StateValue) -> StateRecord? {
        defer { track.state = newState }
        track.stateRecordsSinceCapture += 1
        guard let previous = track.state, !needsKeyframe(track) else {
            track.keyframedInBlock = true
            track.stateRecordsSinceKeyframe = 0
            return .keyframe(newState)
        }
        let changes = diff(previous, newState)
        if changes.isEmpty { return nil }
        track.stateRecordsSinceKeyframe += 1
        if !newState.weighs(moreThan: changes.weight - 1) {
            track.stateRecordsSinceKeyframe = 0
            return .keyframe(newState)
        }
        return .diff(changes)
    }

    /// Compresses and writes the open block, then rotates the file if it grew past the limit.
    func sealBlock() throws(JournalWriteError) {
        guard !builder.isEmpty else { return }
        try file.writeBlock(&builder, level: configuration.compressionLevel)
        eventsWritten += builder.eventCount - builder.droppedRecordCount
        builder = BlockBuilder()
        for key in tracks.keys { tracks[key]!.keyframedInBlock = false }
        if let limit = configuration.rotationSize, file.size >= limit {
            try file.finish(level: configuration.compressionLevel)
            rotation += 1
            file = try JournalFile(path: Self.rotatedPath(basePath, rotation), header: header, replaceExisting: configuration.replaceExisting, sizeLimit: configuration.sizeLimitForTesting)
        }
    }

    func sync() throws(JournalWriteError) { try file.sync() }

    func finish() throws(JournalWriteError) {
        try sealBlock()
        try file.finish(level: configuration.compressionLevel)
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

    mutating func map(_ event: Event) -> (UInt64, EventTime, UInt64) {
        let sequence = nextSequence
        nextSequence += 1
        sequences[event.sequence] = sequence
        let instance = instances[event.source.instanceID] ?? UInt64(instances.count + 1)
        instances[event.source.instanceID] = instance
        let elapsed = sequence * 1_000_000
        return (sequence, EventTime(wallNanoseconds: Self.startWallNanoseconds + Int64(elapsed), monotonicNanoseconds: elapsed), instance)
    }

    /// The event with its parent renumbered and its durations fixed.
    func deterministicCopy(of event: Event, sequence: UInt64) -> Event {
        let kind: Event.Kind = switch event.kind {
        case .didDispatch: .didDispatch(duration: .zero)
        case .didMutate(_, let state): .didMutate(duration: .zero, state: state)
        default: event.kind
        }
        return Event(
            sequence: sequence, time: event.time, source: event.source, kind: kind, name: event.name,
            description: event.description, callSite: event.callSite, parent: event.parent.flatMap { sequences[$0] }
        )
    }
}

extension StateValue {
    /// A rough size, in nodes, for choosing between a keyframe and a diff.
    var weight: Int {
        switch self {
        case .array(let elements): 1 + elements.reduce(0) { $0 + $1.weight }
        case .object(let fields): 1 + fields.values.reduce(0) { $0 + 1 + $1.weight }
        default: 1
        }
    }

    /// Whether the tree's rough size, in nodes, is above `limit` — counting only until it is, since
    /// a small diff is compared with a large state on every commit.
    func weighs(moreThan limit: Int) -> Bool {
        var budget = limit
        return exhausts(&budget)
    }

    /// Takes this tree's nodes from `budget`; `true` once it runs out.
    private func exhausts(_ budget: inout Int) -> Bool {
        budget -= 1
        if budget < 0 { return true }
        switch self {
        case .array(let elements):
            return elements.contains { $0.exhausts(&budget) }
        case .object(let fields):
            return fields.values.contains { value in
                budget -= 1
                return budget < 0 || value.exhausts(&budget)
            }
        default:
            return false
        }
    }
}

extension StateDiff {
    /// A rough size, in nodes, for choosing between a keyframe and a diff.
    var weight: Int {
        changes.reduce(0) { $0 + 1 + $1.path.components.count + ($1.newValue?.weight ?? 0) }
    }
}
