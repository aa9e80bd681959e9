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
///
/// ## What a logger implements, and where it is called
///
/// - **One requirement does the work: ``log(_:)``.** Every event reaches a logger through it,
///   and only through it; its default implementation calls the hook that matches the event. A
///   logger implements either `log(_:)` (and sees every field and every kind) or the hooks it
///   cares about (and sees what the original Cycler passed), never both — a `log(_:)` of your own
///   replaces the calls to the hooks.
/// - **Units hand over records.** A unit calls ``record(_:)`` with an ``EventRecord`` — the event's
///   fields and values as the unit had them — whose default implementation makes the ``Event``
///   and calls `log(_:)`. A logger that works off the app's thread (``JournalLogger``) implements
///   `record(_:)` and ``takesRecords`` instead, queues the record as it is and pays nothing for an
///   `Event` (the "Recording cost" article says which logger takes which path).
/// - **On the unit's thread, synchronously.** `log(_:)` runs on the thread that did what the event
///   records — the one that dispatched, committed, emitted or released — before that call returns
///   to the app. Events of one unit arrive in the order it did them; events of different units, or
///   of one unit used from several threads, may arrive concurrently, which is why a logger is
///   `Sendable` and must be thread-safe.
/// - **Under the unit's locks.** Events may be logged while the unit holds locks of its own: a
///   Cycler commit's events (`willMutate`, its changes, `didMutate`) under its storage's lock
///   (recursive, held for the whole commit), and every unit's `created` and `released` under its
///   ``EventChannel``'s life-cycle lock. A logger must therefore not call back into the unit that
///   logs (dispatch, commit) and must not wait for another thread that might: it would deadlock.
///   The values an event carries are the live Swift values (``LoggedValue``), turned into a
///   ``StateValue`` tree only by a logger that asks (``LoggedValue/tree(options:)``), so a
///   logger that never looks at them pays nothing for them.
/// - **Quickly.** The app waits for `log(_:)`. A logger that does real work hands the event to a
///   thread of its own, as ``JournalLogger`` does (the measured cost on the app's thread is in
///   the "Recording cost" article); ``MultiplexLogger`` calls its children one after another,
///   making one `Event` for those that want one.
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
    /// Receives one event as the unit made it (see ``EventRecord``). The default implementation
    /// makes the ``Event`` and calls ``log(_:)``; the journal and the OpenTelemetry exporter queue
    /// the record as it is, so that the app's thread makes no `Event` for them.
    func record(_ record: consuming EventRecord)
    /// Whether ``record(_:)`` takes the record as it is rather than making an ``Event`` of it:
    /// ``MultiplexLogger`` makes the `Event` once for the children that do not. A logger that
    /// says `true` implements `record(_:)`; the default `log(_:)` then hands it the record of any
    /// event it is given.
    var takesRecords: Bool { get }
}

extension MutableStorageLogging {
    public func didChange(value: Any, for keyPath: AnyKeyPath, root: Any) {}
    public func didReplace(root: Any) {}
}

extension CycleLogging {
    /// Makes the ``Event`` the record describes (its values bound to their redaction context)
    /// and calls ``log(_:)``.
    public func record(_ record: consuming EventRecord) {
        log(Event(record))
    }

    /// `false`: a logger gets ``Event``s unless it says otherwise.
    public var takesRecords: Bool { false }

    public func didEmit(activity: Any, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}
    public func willDispatch(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}
    public func didDispatch(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}
    public func willMutate(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}
    public func didMutate(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {}

    /// Calls the hook method that matches the event (or, for a logger that takes records,
    /// ``record(_:)`` with the event's record). Values that hold a secret (a ``Secret``
    /// property, or a field whose name the ``Redaction`` rules cover) arrive as ``RedactedValue``. Changes named by text rather than by a Swift
    /// key path (from Ricemill, Unio and Flask) have no `AnyKeyPath` to pass to `didChange`, so they
    /// reach only loggers that implement `log(_:)`.
    public func log(_ event: Event) {
        // A logger that takes records and was handed an event (by a logger that forwards, or a
        // unit that was given another logger than its channel's) gets its record.
        if takesRecords {
            record(EventRecord(event))
            return
        }
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
        case .created, .released, .log:
            break
        }
    }
}
