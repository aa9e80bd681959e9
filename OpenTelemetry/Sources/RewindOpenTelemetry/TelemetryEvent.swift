@_spi(Tooling) import Rewind

/// One event as OpenTelemetry receives it: the fields a span or a log record carries, with values
/// as JSON text. Made from a live ``Rewind/Event`` (on the exporter's thread, where capturing its
/// values costs the app nothing) or from a journal's ``Rewind/RecordedEvent``, so that both go
/// through one mapping (``TelemetryMapping``).
struct TelemetryEvent: Sendable {
    var sequence: UInt64
    var wallNanoseconds: Int64
    var kind: Event.Category
    var name: String
    var source: String
    var sourceID: UInt64
    var framework: String
    var parent: UInt64?
    var file: String
    var line: UInt
    /// A change's path.
    var path: String?
    /// A change's new value, an activity, a dispatch's input or a state, as JSON.
    var value: String?
    /// A didDispatch's or didMutate's duration.
    var duration: Duration?
    /// A change's old value as JSON, where it is known (a recording's export walks the states).
    var old: String?
    /// What the event did as the viewer's row and `rewind log` say it: `items[id: 2].done: false →
    /// true`, `setEnabled true`, `saved (itemCount: 4)`.
    var summary: String?
}

extension TelemetryEvent {
    /// A live event, its values captured with `options` (redaction applies, as for every logger).
    init(_ event: Event, options: CaptureOptions) {
        var path: String?
        var value: StateValue?
        var duration: Duration?
        var summary: String?
        // A log message says where it was logged itself: its event has no call site.
        var logMessage: LogMessage?
        switch event.kind {
        case .change(let changed, let newValue, _):
            path = changed.description
            value = newValue.tree(options: options)
            // Live, the old value is not at hand: the change reads `path = value`.
            summary = value.map { RecordedEvent.changeRowText(path: changed.description, new: $0) }
        case .activity(let activity):
            value = activity.tree(options: options)
            summary = value?.payloadDescription(sentAs: event.name, limit: .max)
        case .willDispatch(let input):
            value = input?.tree(options: options)
            summary = value?.payloadDescription(sentAs: event.name, limit: .max)
        case .didDispatch(let time):
            duration = time
        case .didMutate(let time, _):
            duration = time
        case .replace(let state), .created(.some(let state)):
            value = state.tree(options: options)
        case .log(let message):
            // The app's own message: its text is the record's body, its metadata the value.
            logMessage = message
            value = message.metadataTree(options: options)
            summary = message.message
        case .willMutate, .created(.none), .released:
            break
        }
        self.init(
            sequence: event.sequence, wallNanoseconds: event.time.wallNanoseconds, kind: event.kind.category,
            name: event.name, source: event.source.description, sourceID: event.source.instanceID,
            framework: event.source.framework.rawValue, parent: event.parent,
            file: logMessage?.file ?? event.callSite.file.description, line: logMessage?.line ?? event.callSite.line,
            path: path, value: value.map(JSONText.value), duration: duration, old: nil,
            summary: summary.flatMap { $0.isEmpty ? nil : $0 }
        )
    }

    /// An event read back from a journal, with its source's state after it (which carries a
    /// creation's or a replacement's value) and, for a change, the value its path held before
    /// (``Rewind/ValueBefore``).
    init(_ event: RecordedEvent, state: StateValue?, old: ValueBefore = .unknown) {
        let stateValue: StateValue? = switch event.kind {
        case .replace, .created: state
        default: nil
        }
        let summary = event.kind == .log ? event.description : event.rowText(old: old)
        self.init(
            sequence: event.sequence, wallNanoseconds: event.wallNanoseconds, kind: event.kind, name: event.name,
            source: event.source.description, sourceID: event.source.instanceID, framework: event.source.framework,
            parent: event.parent, file: event.file, line: event.line, path: event.path,
            value: (event.value ?? stateValue).map(JSONText.value), duration: event.duration,
            old: old.isKnown ? JSONText.value(old.held ?? .null) : nil, summary: summary.isEmpty ? nil : summary
        )
    }
}
