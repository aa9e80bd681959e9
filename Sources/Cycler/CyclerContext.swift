@_spi(Tooling) import Rewind

/// What a dispatch's action receives: a handle on the view model that does not keep it alive, so
/// that asynchronous work started by the action ends quietly if the view model is released.
///
/// Commits and activities made through the context are logged as caused by its dispatch, even when
/// they happen later on another thread. The context is `Sendable`, so a `Task` or another queue can
/// finish the action's work:
///
/// ```swift
/// dispatch("load") { context in
///     Task {
///         let names = await catalog.names()
///         context.commit("loaded") { $0.update(names, \.names) }
///     }
/// }
/// ```
public struct CyclerWeakContext<Cycler: CyclerType>: @unchecked Sendable {
    // Unchecked: the context holds a weak reference, which Swift loads atomically from any thread,
    // and an immutable sequence number. Everything it does to the view model goes through the
    // storage, whose lock guards the state, the subscribers and the logging (see `StorageCore`).
    /// The view model, while it is alive.
    public private(set) weak var cycler: Cycler?
    /// The sequence number of the dispatch this context belongs to (when a logger was listening).
    public let dispatchSequence: UInt64?

    init(_ cycler: Cycler, dispatch: UInt64?) {
        self.cycler = cycler
        self.dispatchSequence = dispatch
    }

    /// The current state, or `nil` once the view model is released.
    public var currentState: Cycler.State? {
        cycler?.state.value
    }

    /// Commits to the view model if it is still alive.
    public func commit(
        _ name: String = "",
        _ description: String = "",
        file: StaticString = #fileID,
        function: StaticString = #function,
        line: UInt = #line,
        _ mutate: (MutableStorage<Cycler.State>) throws -> Void
    ) rethrows {
        try retain { try $0.commit(name, description, file: file, function: function, line: line, mutate) }
    }

    /// Emits an activity if the view model is still alive.
    public func emit(_ activity: Cycler.Activity, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        retain { $0.emit(activity, file: file, function: function, line: line) }
    }

    /// Runs `body` with a strong context if the view model is still alive, so that a sequence of
    /// commits and emits runs completely or not at all.
    public func retain(_ body: (CyclerContext<Cycler>) throws -> Void) rethrows {
        guard let cycler else { return }
        try body(CyclerContext(cycler: cycler, dispatchSequence: dispatchSequence))
    }
}

/// A context that holds the view model strongly, for the duration of ``CyclerWeakContext/retain(_:)``.
public struct CyclerContext<Cycler: CyclerType> {
    /// The view model.
    public let cycler: Cycler
    /// The sequence number of the dispatch this context belongs to.
    public let dispatchSequence: UInt64?

    /// The current state.
    public var currentState: Cycler.State {
        cycler.state.value
    }

    /// Commits to the view model, as caused by the context's dispatch.
    public func commit(
        _ name: String = "",
        _ description: String = "",
        file: StaticString = #fileID,
        function: StaticString = #function,
        line: UInt = #line,
        _ mutate: (MutableStorage<Cycler.State>) throws -> Void
    ) rethrows {
        try DispatchScope.run(inside: dispatchSequence) {
            try cycler.commit(name, description, file: file, function: function, line: line, mutate)
        }
    }

    /// Emits an activity, as caused by the context's dispatch.
    public func emit(_ activity: Cycler.Activity, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        DispatchScope.run(inside: dispatchSequence) {
            cycler.emitActivity(activity, callSite: CallSite(file: file, function: function, line: line))
        }
    }
}

extension CyclerType {
    /// The context of the dispatch running now, for work that finishes later: what a dispatch
    /// closure receives, for code that runs inside a dispatch without one — a ``ReplayableCycler``'s
    /// `handle(_:)`. Read it inside the dispatch; commits made through it later are logged as caused
    /// by that dispatch.
    ///
    /// ```swift
    /// func handle(_ action: Action) {
    ///     let context = dispatchContext
    ///     scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) {
    ///         context.commit("confirm") { $0.update("confirmed", \.status) }
    ///     }
    /// }
    /// ```
    public var dispatchContext: CyclerWeakContext<Self> {
        CyclerWeakContext(self, dispatch: DispatchScope.currentDispatch)
    }
}
