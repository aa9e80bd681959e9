/// What a change's path held just before the change: the old side of `count: 0 → 1`. One type
/// for it everywhere (rows, search, JSON, the viewer), instead of a doubly optional value.
///
/// ```swift
/// let before = walker.value(before: event)   // .value(.integer(0)) for "count: 0 → 1"
/// event.rowText(old: before)                 // "count: 0 → 1"
/// ```
public enum ValueBefore: Sendable, Equatable {
    /// Not known: the event is not a change, or its source's state before it is not there.
    case unknown
    /// The path was missing, as an optional left out as `nil` is.
    case absent
    /// The value it held.
    case value(StateValue)

    /// What `event`'s path holds in `state`, the source's state just before the event: the one
    /// rule of "the value before". `unknown` for an event that is not a change or without a state.
    public init(of event: RecordedEvent, in state: StateValue?) {
        self.init(kind: event.kind, path: event.path, in: state)
    }

    /// The same for an event of `kind` with a change's `path` (a record read in its block).
    package init(kind: Event.Category, path: String?, in state: StateValue?) {
        guard kind == .change, let text = path, let path = StatePath(recordedChange: text), let state else {
            self = .unknown
            return
        }
        self = state[path].map(ValueBefore.value) ?? .absent
    }

    /// Whether it is known (a value, or known to be absent).
    public var isKnown: Bool { self != .unknown }

    /// The value it held: `nil` when absent or not known.
    public var held: StateValue? {
        if case .value(let value) = self { value } else { nil }
    }

    /// The same, as the doubly optional value the API took before (`nil`: not known; `.some(nil)`:
    /// absent).
    package var optional: StateValue?? {
        switch self {
        case .unknown: .none
        case .absent: .some(nil)
        case .value(let value): .some(value)
        }
    }

    /// From the doubly optional value the API took before.
    package init(_ optional: StateValue??) {
        switch optional {
        case .none: self = .unknown
        case .some(.none): self = .absent
        case .some(.some(let value)): self = .value(value)
        }
    }
}
