import Logging

import Foundation

/// Recorded events written again: a shrunk recording is an ordinary journal, made by the encoder
/// that writes live events, from events another journal recorded.
extension JournalEncoder {
    /// Writes `events` into a new journal at `path`, keeping their steps, times, parent links and
    /// call sites. A state-carrying event must hold its whole state (a keyframe): the encoder makes
    /// its own diffs. A run of dropped events is not carried over.
    ///
    /// - Parameter header: the recording's header; its creation time and app version are kept, so
    ///   a recording with made-up times (a fixture) stays one. The new file is a recording of its
    ///   own, with a fresh identifier.
    static func write(_ events: [RecordedEvent], header: JournalHeader, to path: String) throws(JournalWriteError) {
        let written = JournalHeader(
            formatVersion: JournalFormat.version, createdWallNanoseconds: header.createdWallNanoseconds,
            createdMonotonicNanoseconds: header.createdMonotonicNanoseconds, writerVersion: RewindVersion.current,
            recordingID: UUID(), appVersion: header.appVersion
        )
        // The events are a journal's: what it hid is hidden already, and what it kept is kept
        // exactly — the rules of the process writing them (the command line's defaults, say) are
        // not the app's, and must not hide a value the app recorded (its `pin`, with `pin` taken
        // out of its rules).
        var configuration = JournalConfiguration()
        configuration.captureOptions.redaction = .secretsOnly
        let encoder = try JournalEncoder(path: path, configuration: configuration, header: written)
        var sources: [UInt64: EventSource] = [:]
        for recorded in events {
            let id = recorded.source.instanceID
            let source = sources[id] ?? EventSource(
                framework: .init(rawValue: recorded.source.framework), typeName: recorded.source.typeName,
                instanceID: id, label: recorded.source.label
            )
            sources[id] = source
            guard let event = Event(recorded: recorded, source: source) else { continue }
            try encoder.encode(EventRecord(event), recordedCallSite: RecordedCallSite(recorded))
        }
        try encoder.finish()
    }
}

extension Event {
    /// The live form of a recorded event, for the encoder; `nil` for a run of dropped events, and
    /// for a state-carrying event whose whole state the record does not hold.
    init?(recorded: RecordedEvent, source: EventSource) {
        var state: LoggedValue?
        if case .keyframe(let tree) = recorded.stateRecord { state = LoggedValue(tree) }
        let kind: Kind
        switch recorded.kind {
        case .willDispatch: kind = .willDispatch(input: recorded.value.map { LoggedValue($0) })
        case .didDispatch: kind = .didDispatch(duration: recorded.duration ?? .zero)
        case .willMutate: kind = .willMutate
        case .didMutate:
            guard let state else { return nil }
            kind = .didMutate(duration: recorded.duration ?? .zero, state: state)
        case .change:
            kind = .change(path: ChangedPath(name: recorded.path ?? ""), value: LoggedValue(recorded.value ?? .null), state: state)
        case .replace:
            guard let state else { return nil }
            kind = .replace(state: state)
        case .activity: kind = .activity(LoggedValue(recorded.value ?? .null))
        case .created: kind = .created(state: state)
        case .released: kind = .released
        case .log:
            kind = .log(
                LogMessage(
                    level: recorded.logLevel ?? .info, message: recorded.description, recordedMetadata: recorded.value, file: recorded.file,
                    function: recorded.function, line: recorded.line))
        case .dropped: return nil
        }
        self.init(
            sequence: recorded.sequence,
            time: EventTime(wallNanoseconds: recorded.wallNanoseconds, monotonicNanoseconds: recorded.monotonicNanoseconds),
            source: source, kind: kind, name: recorded.name, description: recorded.description,
            callSite: CallSite(file: "", function: "", line: recorded.line), parent: recorded.parent
        )
    }
}

/// A call site as a journal recorded it — text, where a live event's is the compiler's static
/// strings — for an event written again under the call site it had.
struct RecordedCallSite: Sendable, Equatable {
    var file: String
    var function: String
    var line: UInt

    /// The call site `event` was recorded with.
    init(_ event: RecordedEvent) {
        file = event.file
        function = event.function
        line = event.line
    }
}
