/// Receives the changes of a storage, as in the original Cycler.
///
/// Loggers are called on the thread that made the change, so they must be thread-safe and quick.
public protocol MutableStorageLogging: Sendable {
    /// One key path of the state changed to `value`; `root` is the whole state after the change.
    func didChange(value: Any, for keyPath: AnyKeyPath, root: Any)
    /// The whole state was replaced by `root`.
    func didReplace(root: Any)
}

/// Receives everything a view model does — the hooks of the original Cycler, with the source
/// generalised from a cycler to any unit (a Cycler, a Ricemill machine, a Unio stream, a Flask
/// substance), plus `didDispatch`.
///
/// There are two ways to write a logger. Implement the hook methods you care about, as with the
/// original Cycler; or implement ``log(_:)``, which receives each ``Event`` with every field
/// (sequence number, timestamps, causal link, captured values). By default ``log(_:)`` calls the
/// hooks, and the hooks do nothing.
///
/// ```swift
/// struct PrintingLogger: CycleLogging {
///     func willDispatch(name: String, description: String, file: StaticString,
///                       function: StaticString, line: UInt, on cycler: AnyCyclerType) {
///         print("dispatch \(name) on \(cycler)")
///     }
/// }
/// viewModel.set(logger: PrintingLogger())
/// ```
public protocol CycleLogging: MutableStorageLogging {
    /// An activity was emitted.
    func didEmit(activity: Any, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType)
    /// A dispatch is about to run.
    func willDispatch(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType)
    /// A dispatch finished.
    func didDispatch(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType)
    /// A commit is about to run.
    func willMutate(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType)
    /// A commit finished.
    func didMutate(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType)
    /// Receives one event with all its fields. The default implementation calls the hook methods.
    func log(_ event: Event)
}

extension MutableStorageLogging {
    public func didChange(value: Any, for keyPath: AnyKeyPath, root: Any) {}
    public func didReplace(root: Any) {}
}

extension CycleLogging {
    public func didEmit(activity: Any, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}
    public func willDispatch(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}
    public func didDispatch(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}
    public func willMutate(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}
    public func didMutate(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}

    /// Calls the hook method that matches the event. Values that hold a secret (a ``Secret``
    /// property, or a field whose name the ``Redaction`` rules cover) arrive as ``RedactedValue``. Changes named by text rather than by a Swift
    /// key path (from Ricemill, Unio and Flask) have no `AnyKeyPath` to pass to `didChange`, so they
    /// reach only loggers that implement `log(_:)`.
    public func log(_ event: Event) {
        let site = event.callSite
        switch event.kind {
        case .willDispatch:
            willDispatch(name: event.name, description: event.description, file: site.file, function: site.function, line: site.line, on: event.source)
        case .didDispatch:
            didDispatch(name: event.name, description: event.description, file: site.file, function: site.function, line: site.line, on: event.source)
        case .willMutate:
            willMutate(name: event.name, description: event.description, file: site.file, function: site.function, line: site.line, on: event.source)
        case .didMutate:
            didMutate(name: event.name, description: event.description, file: site.file, function: site.function, line: site.line, on: event.source)
        case .change(let path, let value, let state):
            if let keyPath = path.keyPath {
                let root: Any = if let state { RedactedValue.shown(state) } else { Optional<Any>.none as Any }
                didChange(value: RedactedValue.shownChange(value, at: path, in: state), for: keyPath, root: root)
            }
        case .replace(let state):
            didReplace(root: RedactedValue.shown(state))
        case .activity(let activity):
            didEmit(activity: RedactedValue.shown(activity), file: site.file, function: site.function, line: site.line, on: event.source)
        case .created, .released:
            break
        }
    }
}
