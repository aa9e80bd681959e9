/// A recording as a Perfetto trace, to open in ui.perfetto.dev: Perfetto's native protobuf format
/// (`Trace` of `TracePacket`s with `TrackEvent`s, perfetto.dev/docs/reference/trace-packet-proto),
/// written field by field (by the internal `ProtobufMessage`).
///
/// - one process track for the recording, and under it one track per unit (`TodoSample#1`) and
///   one for each unit's activities;
/// - a dispatch is a slice from its start to its end, and a commit a slice nested inside it;
/// - each key-path change is an instant event with `path`, `old` and `new` annotations, and a
///   change to a number also a sample on a counter track of its own (`TodoSample#1 count`), so
///   that it plots as a graph — for a field reached through objects; numbers inside list elements
///   get counter tracks only when asked (``countsListElements``), and at most
///   ``maximumCounterTracks`` in all; a step that changed more than ``changesShownPerStep`` paths
///   (a list replaced wholesale) is one instant saying how many, so a trace stays in proportion
///   to the recording's steps rather than to the sizes of its states;
/// - work a dispatch started and that finished after it (an async commit) is linked to it by a
///   flow (an arrow);
/// - every event carries `rewind.seq`, its step, which `rewind show --at` takes.
///
/// Names are interned (`name_iid`), so each is written once. Values are as the journal recorded
/// them, so redacted exactly as it is.
///
/// ```swift
/// var trace = PerfettoTrace(recordingName: "todo.rewind")
/// var walker = StateWalker()
/// for event in reader.events() { trace.add(event, change: walker.advance(event)) }
/// let bytes = trace.takeBytes()   // take them as often as you like: the trace goes on
/// ```
package struct PerfettoTrace {
    /// The trace so far (`Trace.packet` fields), until taken.
    private var output = ProtobufMessage()
    private var interned = InternedNames()
    private var tracks = TrackTable()
    private var isFirstPacket = true
    /// The dispatches and commits begun and not yet ended, per unit: an end closes the innermost.
    private var openSlices: [UInt64: Int] = [:]
    /// The dispatches running, by step: a child that starts after its dispatch ended is an async
    /// one, linked by a flow.
    private var runningDispatches: Set<UInt64> = []
    /// When each unit was created: a counter starts there, at the value before its first change.
    private var createdAt: [UInt64: UInt64] = [:]
    private let processTrack: UInt64 = 1

    /// Whether numbers inside list elements (`items[id: 3].quantity`) get counter tracks: a list
    /// of hundreds of items would make hundreds of tracks.
    package var countsListElements = false
    /// The most counter tracks a trace makes; changes past it are instants only.
    package static let maximumCounterTracks = 1_000
    /// The most changes of one step written one by one; a step with more is one instant.
    package static let changesShownPerStep = 64

    /// A trace whose process track is named `recordingName`.
    package init(recordingName: String) {
        var descriptor = ProtobufMessage()
        descriptor.varint(1, processTrack)
        descriptor.message(3) { process in
            process.signed(1, 1)
            process.string(6, recordingName)
        }
        appendPacket(timestamp: nil) { $0.message(60, descriptor) }
    }

    /// What an event's step did to its unit's state, as a trace shows it. It depends on the
    /// states alone, so a block's thread makes it (``step(_:)``) and the trace, which must take
    /// events in order, only writes it (``add(_:step:)``).
    package enum Step: Sendable {
        /// No state moved, or none was there before it.
        case none
        /// Each change, with its path as the trace names it (an element by its id, as blame
        /// names it): at most ``changesShownPerStep``.
        case changes([(change: StateChange, path: String)])
        /// More changes than are shown one by one: how many, and the top-level fields they are
        /// under, sorted (the first 16).
        case many(count: Int, under: [String])
    }

    /// The trace's view of a step that took its unit's state from `change.before` to
    /// `change.after` (``StateWalker/advance(_:)`` gives them; `nil` when it moved no state).
    package static func step(_ change: (before: StateValue?, after: StateValue)?) -> Step {
        guard let change, let before = change.before else { return .none }
        let differences = StateDiff(from: before, to: change.after).changes
        guard differences.count <= changesShownPerStep else {
            let under = Set(differences.map { $0.path.components.first.map { StatePath([$0]).description } ?? "state" }).sorted()
            return .many(count: differences.count, under: Array(under.prefix(16)))
        }
        return .changes(differences.map { ($0, $0.followedPath(before: before, after: change.after).description) })
    }

    /// Adds one recorded event (an event, or a record read in its block); `change` is its unit's
    /// state before and after it, when it moved that state (``StateWalker/advance(_:)`` gives it).
    package mutating func add(_ event: some EventFields, change: (before: StateValue?, after: StateValue)?) {
        add(event, step: Self.step(change))
    }

    /// Adds one recorded event whose ``Step`` was made already, perhaps on another thread.
    package mutating func add(_ event: some EventFields, step: Step) {
        let id = event.source.instanceID
        let unitTrack = track(forUnit: event.source)
        let time = event.monotonicNanoseconds
        switch event.kind {
        case .willDispatch, .willMutate:
            let isAsync = event.parent.map { !runningDispatches.contains($0) } ?? false
            if event.kind == .willDispatch { runningDispatches.insert(event.sequence) }
            openSlices[id, default: 0] += 1
            var annotations: [(String, StateValue)] = []
            if let value = event.value { annotations.append(("input", value)) }
            trackEvent(.sliceBegin, event, track: unitTrack, name: event.name.isEmpty ? event.kind.rawValue : event.name, annotations: annotations) { body in
                // Every dispatch may start a flow; a child that outlives it ends one.
                if event.kind == .willDispatch { body.fixed64(47, event.sequence) }
                if isAsync, let parent = event.parent { body.fixed64(48, parent) }
            }
        case .didDispatch, .didMutate:
            // A dispatch's end records the dispatch as its parent.
            if event.kind == .didDispatch, let parent = event.parent { runningDispatches.remove(parent) }
            guard let open = openSlices[id], open > 0 else { break }
            openSlices[id] = open - 1
            trackEvent(.sliceEnd, event, track: unitTrack, name: nil, annotations: [])
        case .activity:
            trackEvent(.instant, event, track: tracks.uuid(activitiesOf: id), name: event.name, annotations: event.value.map { [("value", $0)] } ?? [])
        case .created:
            createdAt[id] = time
            trackEvent(.instant, event, track: unitTrack, name: "created", annotations: [])
        case .released, .replace, .dropped:
            trackEvent(.instant, event, track: unitTrack, name: event.kind == .replace && !event.name.isEmpty ? event.name : event.kind.rawValue, annotations: [])
        case .log:
            // On the logger's own track (its label), named by its message, with its level and
            // metadata, and the dispatch it was logged in.
            var annotations: [(String, StateValue)] = [("level", .string(event.name))]
            if let metadata = event.value { annotations.append(("metadata", metadata)) }
            if let parent = event.parent { annotations.append(("dispatch", .unsignedInteger(parent))) }
            trackEvent(.instant, event, track: unitTrack, name: event.description, annotations: annotations)
        case .change:
            break
        }
        switch step {
        case .none:
            break
        case .changes(let changes):
            for (change, path) in changes { addChange(change, path: path, event: event, unitTrack: unitTrack) }
        case .many(let count, let under):
            trackEvent(.instant, event, track: unitTrack, name: "\(count) changes", annotations: [
                ("changes", .integer(Int64(count))), ("under", .array(under.map { .string($0) })),
            ])
        }
    }

    private mutating func addChange(_ change: StateChange, path: String, event: some EventFields, unitTrack: UInt64) {
        let (old, new) = change.values
        var annotations: [(String, StateValue)] = [("path", .string(path))]
        if let old { annotations.append(("old", old)) }
        if let new { annotations.append(("new", new)) }
        trackEvent(.instant, event, track: unitTrack, name: path, annotations: annotations)
        guard let new, new.isNumber else { return }
        let inElement = change.path.components.contains { if case .index = $0 { true } else { false } }
        guard countsListElements || !inElement else { return }
        guard let (counter, isNew) = tracks.uuid(counter: path, of: event.source, under: unitTrack, limit: Self.maximumCounterTracks) else { return }
        if isNew {
            let descriptor = tracks.descriptor(of: counter)
            appendPacket(timestamp: nil) { $0.message(60, descriptor) }
            if let old, old.isNumber { counterSample(old, track: counter, at: createdAt[event.source.instanceID] ?? event.monotonicNanoseconds, sequence: nil) }
        }
        counterSample(new, track: counter, at: event.monotonicNanoseconds, sequence: event.sequence)
    }

    private mutating func counterSample(_ value: StateValue, track: UInt64, at time: UInt64, sequence: UInt64?) {
        appendPacket(timestamp: time) { packet in
            packet.message(11) { body in
                body.varint(9, TrackEventType.counter.rawValue)
                body.varint(11, track)
                switch value {
                case .integer(let number): body.signed(30, number)
                case .unsignedInteger(let number): body.signed(30, Int64(clamping: number))
                case .floatingPoint(let number): body.double(44, number)
                default: break
                }
            }
        }
    }

    /// The bytes made so far, handed over (to write them out as the trace grows).
    package mutating func takeBytes() -> [UInt8] {
        output.takeBytes()
    }

    // MARK: Packets

    private enum TrackEventType: UInt64 {
        case sliceBegin = 1, sliceEnd = 2, instant = 3, counter = 4
    }

    private mutating func track(forUnit source: RecordedSource) -> UInt64 {
        let (uuid, isNew) = tracks.uuid(unit: source, under: processTrack)
        if isNew {
            let unit = tracks.descriptor(of: uuid)
            appendPacket(timestamp: nil) { $0.message(60, unit) }
            let activities = tracks.descriptor(of: tracks.uuid(activitiesOf: source.instanceID))
            appendPacket(timestamp: nil) { $0.message(60, activities) }
        }
        return uuid
    }

    private mutating func trackEvent(
        _ type: TrackEventType, _ event: some EventFields, track: UInt64, name: String?, annotations: [(String, StateValue)],
        extra: (inout ProtobufMessage) -> Void = { _ in }
    ) {
        var newNames = ProtobufMessage()
        let nameID = name.map { interned.id(eventName: $0, newEntries: &newNames) }
        var annotationIDs: [UInt64] = []
        let sequenceID = interned.id(annotationName: "rewind.seq", newEntries: &newNames)
        for (key, _) in annotations { annotationIDs.append(interned.id(annotationName: key, newEntries: &newNames)) }
        appendPacket(timestamp: event.monotonicNanoseconds, interned: newNames) { packet in
            packet.message(11) { body in
                body.varint(9, type.rawValue)
                body.varint(11, track)
                if let nameID { body.varint(10, nameID) }
                body.message(4) { annotation in
                    annotation.varint(1, sequenceID)
                    annotation.varint(3, event.sequence)
                }
                for (index, (_, value)) in annotations.enumerated() {
                    body.message(4) { annotation in
                        annotation.varint(1, annotationIDs[index])
                        Self.write(value, into: &annotation)
                    }
                }
                extra(&body)
            }
        }
    }

    /// A value as a debug annotation's value: numbers, booleans and text as themselves, anything
    /// else as the log shows it.
    private static func write(_ value: StateValue, into annotation: inout ProtobufMessage) {
        switch value {
        case .bool(let flag): annotation.varint(2, flag ? 1 : 0)
        case .integer(let number): annotation.signed(4, number)
        case .unsignedInteger(let number): annotation.varint(3, number)
        case .floatingPoint(let number): annotation.double(5, number)
        case .string(let text): annotation.string(6, text)
        default: annotation.string(6, value.compactDescription(limit: 4096))
        }
    }

    private mutating func appendPacket(timestamp: UInt64?, interned newNames: ProtobufMessage = ProtobufMessage(), _ build: (inout ProtobufMessage) -> Void) {
        let flags: UInt64 = isFirstPacket ? 1 : 2  // SEQ_INCREMENTAL_STATE_CLEARED, then SEQ_NEEDS_INCREMENTAL_STATE
        isFirstPacket = false
        output.message(1) { packet in
            if let timestamp { packet.varint(8, timestamp) }
            packet.varint(10, 1)  // trusted_packet_sequence_id: one sequence for the whole trace
            packet.varint(13, flags)
            if !newNames.bytes.isEmpty { packet.message(12, newNames) }
            build(&packet)
        }
    }
}

/// Names written once each, then referred to by number (`iid`), per kind.
private struct InternedNames {
    /// One kind of name: the `InternedData` field its entries go in (`EventName`,
    /// `DebugAnnotationName`: both `iid` 1, `name` 2).
    struct Table {
        let field: Int
        var ids: [String: UInt64] = [:]

        /// `name`'s number; a new one is added to `newEntries` (`InternedData`).
        mutating func id(_ name: String, newEntries: inout ProtobufMessage) -> UInt64 {
            if let known = ids[name] { return known }
            let id = UInt64(ids.count + 1)
            ids[name] = id
            newEntries.message(field) { entry in
                entry.varint(1, id)
                entry.string(2, name)
            }
            return id
        }
    }

    private var eventNames = Table(field: 2)
    private var annotationNames = Table(field: 3)

    /// `name`'s number as an event name.
    mutating func id(eventName name: String, newEntries: inout ProtobufMessage) -> UInt64 {
        eventNames.id(name, newEntries: &newEntries)
    }

    /// `name`'s number as a debug annotation's name.
    mutating func id(annotationName name: String, newEntries: inout ProtobufMessage) -> UInt64 {
        annotationNames.id(name, newEntries: &newEntries)
    }
}

/// The trace's tracks: a number each, and the descriptor that names it.
private struct TrackTable {
    private var units: [UInt64: UInt64] = [:]
    private var activities: [UInt64: UInt64] = [:]
    private var counters: [String: UInt64] = [:]
    private var descriptors: [UInt64: ProtobufMessage] = [:]
    private var next: UInt64 = 2

    private mutating func make(name: String, parent: UInt64, isCounter: Bool = false) -> UInt64 {
        let uuid = next
        next += 1
        var descriptor = ProtobufMessage()
        descriptor.varint(1, uuid)
        descriptor.varint(5, parent)
        descriptor.string(2, name)
        if isCounter { descriptor.message(8) { _ in } }
        descriptors[uuid] = descriptor
        return uuid
    }

    mutating func uuid(unit source: RecordedSource, under process: UInt64) -> (UInt64, isNew: Bool) {
        if let known = units[source.instanceID] { return (known, false) }
        let uuid = make(name: source.description, parent: process)
        units[source.instanceID] = uuid
        activities[source.instanceID] = make(name: source.description + " activities", parent: uuid)
        return (uuid, true)
    }

    func uuid(activitiesOf id: UInt64) -> UInt64 { activities[id] ?? 1 }

    /// The counter track of a path, made if there are fewer than `limit`; `nil` past it.
    mutating func uuid(counter path: String, of source: RecordedSource, under unit: UInt64, limit: Int) -> (UInt64, isNew: Bool)? {
        let key = "\(source.instanceID) \(path)"
        if let known = counters[key] { return (known, false) }
        guard counters.count < limit else { return nil }
        let uuid = make(name: "\(source.description) \(path)", parent: unit, isCounter: true)
        counters[key] = uuid
        return (uuid, true)
    }

    func descriptor(of uuid: UInt64) -> ProtobufMessage { descriptors[uuid] ?? ProtobufMessage() }
}

extension StateValue {
    /// Whether the value is a number (a counter can plot it).
    var isNumber: Bool {
        switch self {
        case .integer, .unsignedInteger, .floatingPoint: true
        default: false
        }
    }
}
