/// One thing a view model did: a dispatch, a mutation, a key-path change, a replacement of its
/// whole state, an activity, or a lifecycle step.
///
/// Every event carries a process-wide ``sequence`` number, both clocks (``time``), its ``source``,
/// a name and description, the ``callSite`` in the user's code, and the sequence number of the
/// dispatch it happened inside (``parent``), so that a timeline can show what caused what.
public struct Event: Sendable {
    /// The event's place in the process-wide order (see ``EventSequence``).
    public let sequence: UInt64
    /// When it happened.
    public let time: EventTime
    /// Which unit emitted it.
    public let source: EventSource
    /// What happened, with the values involved.
    public let kind: Kind
    /// The dispatch or commit name the user gave (`"increment"`), or the changed property's name.
    public let name: String
    /// The longer description the user gave, if any.
    public let description: String
    /// Where in the user's code it was triggered.
    public let callSite: CallSite
    /// The sequence number of the dispatch this event happened inside, if any (its causal link).
    public let parent: UInt64?

    /// Creates an event. Frameworks use ``EventChannel/emit(_:name:description:callSite:parent:at:sequence:to:)``,
    /// which fills in the sequence number, time and source.
    public init(
        sequence: UInt64, time: EventTime, source: EventSource, kind: Kind, name: String,
        description: String, callSite: CallSite, parent: UInt64?
    ) {
        self.sequence = sequence
        self.time = time
        self.source = source
        // A value is bound here, once, to what its redaction depends on besides itself — a change's
        // path, an input's or activity's name — so that its tree is redacted for every logger that
        // asks for it (see ``LoggedValue/tree(options:)``).
        switch kind {
        case .change(let path, let value, let state):
            self.kind = .change(path: path, value: value.changed(at: path, in: state), state: state)
        case .willDispatch(let input?):
            self.kind = .willDispatch(input: input.sent(as: name))
        case .activity(let value):
            self.kind = .activity(value.sent(as: name))
        default:
            self.kind = kind
        }
        self.name = name
        self.description = description
        self.callSite = callSite
        self.parent = parent
    }
}

extension Event {
    /// What happened, with the values involved.
    public enum Kind: Sendable {
        /// A dispatch (an action, an input value, a mixer) is about to run; `input` is the value it
        /// carries, when it has one: a Ricemill or Unio input's value, a Flask mixer's payload, a
        /// replayable Cycler action.
        case willDispatch(input: LoggedValue? = nil)
        /// A dispatch finished; `duration` is measured from its `willDispatch`.
        case didDispatch(duration: Duration)
        /// A commit (a mutation transaction) is about to run.
        case willMutate
        /// A commit finished, leaving `state`; `duration` is measured from its `willMutate`.
        case didMutate(duration: Duration, state: LoggedValue)
        /// One key path of the state changed to `value`; `state` is the whole state after it.
        case change(path: ChangedPath, value: LoggedValue, state: LoggedValue?)
        /// The whole state was replaced by `state`.
        case replace(state: LoggedValue)
        /// An activity (an event that is not stored in the state) was emitted.
        case activity(LoggedValue)
        /// The unit was created (or first seen), with its initial state when it has one.
        case created(state: LoggedValue?)
        /// The unit was released.
        case released
        /// The application logged a message through swift-log (``RecordingLogHandler``). The
        /// event's name is the message's level (`warning`) and its description the message; its
        /// source is the logger's label.
        case log(LogMessage)

        /// The kind's name as written in logs, journals and `--kind` filters.
        public var name: String { category.rawValue }

        /// The kind without its values.
        public var category: Category {
            switch self {
            case .willDispatch: .willDispatch
            case .didDispatch: .didDispatch
            case .willMutate: .willMutate
            case .didMutate: .didMutate
            case .change: .change
            case .replace: .replace
            case .activity: .activity
            case .created: .created
            case .released: .released
            case .log: .log
            }
        }

        /// The whole state after the event, where the event carries it.
        public var state: LoggedValue? {
            switch self {
            case .didMutate(_, let state), .replace(let state): state
            case .change(_, _, let state), .created(let state): state
            default: nil
            }
        }
    }

    /// The kinds of event, without their values.
    public enum Category: String, Sendable, CaseIterable, Codable {
        case willDispatch, didDispatch, willMutate, didMutate, change, replace, activity, created, released
        /// A message the application logged through swift-log.
        case log
        /// Events a journal writer in drop mode could not keep (found only in journals).
        case dropped

        /// Whether an event of this kind may carry the whole state after it: a change or a
        /// creation without one counts too. Told from the kind alone, since looking into a
        /// payload copies it (measured: ~370 instructions per event, on the app's thread).
        var carriesState: Bool {
            switch self {
            case .didMutate, .replace, .created, .change: true
            default: false
            }
        }
    }
}
