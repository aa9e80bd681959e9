/// A value handed to the loggers as it was, not yet converted into a tree.
///
/// Swift values are copy-on-write, so keeping one costs a reference count, not a copy: the caller's
/// thread only wraps the value, and a logger converts it (``tree(options:)``) where conversion is
/// cheap to afford — on the journal's background writer, for instance.
public struct LoggedValue: @unchecked Sendable {
    // Unchecked: the wrapped value is only ever read after it is captured. Value types are safe to
    // read from another thread because the captured copy is immutable; a state that holds class
    // instances is read while its owner may mutate it, the same caveat as with any logger that runs
    // off the caller's thread, and it is documented on `JournalLogger`.

    /// The value itself.
    public let value: Any
    /// What decides, besides the value itself, whether the redaction rules hide it: for a change's
    /// new value, where it was written and the state after it; for a dispatch's input or an
    /// activity, the name it was sent under (`setPassword`, an input named `apiKey`). Set where the
    /// event is made (``Event``'s initializer; for a logger that takes records, where it makes
    /// what it records of one, on its own thread), so that every logger — one a user writes
    /// included — gets the same redacted tree.
    private let context: Context?

    /// Wraps a value.
    @inline(__always)
    public init(_ value: Any) {
        self.value = value
        self.context = nil
    }

    private init(_ value: Any, context: Context) {
        self.value = value
        self.context = context
    }

    /// The value as a ``StateValue`` tree, with secrets redacted: fields by name and ``Secret``
    /// anywhere inside it; for a change's new value, the value itself when the path it was written
    /// at is secret (`credentials.token`); for an input or activity, the value itself when the name
    /// it was sent under is secret (`setPassword`).
    public func tree(options: CaptureOptions = .current) -> StateValue {
        treeAndCapturedState(options: options).value
    }

    /// ``tree(options:)`` for a whole state, taking the trees of list elements that did not change
    /// from the last capture of the same state (see ``ListMemory``).
    func tree(options: CaptureOptions, reusing lists: ListMemory) -> StateValue {
        context == nil ? StateCapture.capture(value, options: options, reusing: lists) : tree(options: options)
    }

    /// ``tree(options:)``, and — when deciding its redaction took capturing the state after the
    /// change (a path that does not name its fields, such as `items[…].done`) — that state's tree,
    /// so that a logger which needs the state too does not capture it a second time.
    ///
    /// `pathText` is the change path's text when the caller knows it already — the journal's
    /// writer works it out once per path, with its subscripts resolved (`items[3].done`) when it
    /// found them without a capture, and the name rules then decide as for any named path — which
    /// spares printing the key path again; `pathIsShownByName` says that the caller found that
    /// text names every field and no secret's (as the writer does once per path), which spares
    /// asking the rules again. `captured` is the value's tree when the caller has built it already.
    func treeAndCapturedState(
        options: CaptureOptions, pathText: String? = nil, pathIsShownByName: Bool = false, captured: StateValue? = nil
    ) -> (value: StateValue, state: StateValue?) {
        if pathIsShownByName, case .change? = context {
            return (captured ?? StateCapture.capture(value, options: options), nil)
        }
        switch context {
        case nil:
            return (captured ?? StateCapture.capture(value, options: options), nil)
        case .named(let name)? where options.redaction.redacts(sentAs: name):
            return (.opaque(options.redactedLeaf(typeName: CaptureSession.typeName(of: value), of: value)), nil)
        case .named?:
            return (captured ?? StateCapture.capture(value, options: options), nil)
        case .change(let change)?:
            return changedTree(change, options: options, path: pathText ?? change.path.description, captured: captured)
        }
    }

    private func changedTree(_ change: ChangeContext, options: CaptureOptions, path: String, captured: StateValue?) -> (value: StateValue, state: StateValue?) {
        let tree = captured ?? StateCapture.capture(value, options: options)
        var captured: StateValue?
        let visible = options.redaction.visibleChange(at: path, value: tree, options: options) {
            captured = change.state?.tree(options: options)
            return captured
        }
        return (visible, captured)
    }

    /// This value as the new value of a change at `path`, leaving `state` as the state after it.
    func changed(at path: ChangedPath, in state: LoggedValue?) -> LoggedValue {
        context == nil ? LoggedValue(value, context: .change(ChangeContext(path: path, state: state))) : self
    }

    /// This value as the payload of a dispatch, input, output or activity named `name`.
    func sent(as name: String) -> LoggedValue {
        context == nil && !name.isEmpty ? LoggedValue(value, context: .named(name)) : self
    }

    private enum Context: Sendable {
        case change(ChangeContext)
        case named(String)
    }

    private final class ChangeContext: Sendable {
        let path: ChangedPath
        let state: LoggedValue?

        init(path: ChangedPath, state: LoggedValue?) {
            self.path = path
            self.state = state
        }
    }
}

/// The name ``LoggedValue`` had, which said the opposite of what it is (the value *before* it is
/// captured into a tree): for one release.
@available(*, deprecated, renamed: "LoggedValue")
public typealias CapturedValue = LoggedValue
