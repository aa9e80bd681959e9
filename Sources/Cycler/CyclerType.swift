@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind

/// A view model with an observable state, changed by commits (mutations) and dispatches (actions),
/// that emits activities — events that are not stored in the state.
///
/// ```swift
/// final class CounterViewModel: CyclerType {
///     enum Activity { case didReachBigNumber }
///     struct State { var count = 0 }
///
///     let state: Storage<State> = .init(.init())
///
///     func increment() {
///         dispatch("increment") { context in
///             context.commit { $0.updateIfChanged($0.value.count + 1, \.count) }
///             if (context.currentState?.count ?? 0) > 10 { context.emit(.didReachBigNumber) }
///         }
///     }
/// }
/// ```
///
/// Every dispatch, commit, key-path update, replacement and activity reaches the logger set with
/// ``set(logger:)`` or, without one, ``CycleLoggingSystem/defaultLogger``.
public protocol CyclerType: AnyObject {
    /// The state the view model exposes.
    associatedtype State
    /// The activities it emits (`Never` for a view model without activities).
    associatedtype Activity = Never

    /// The current state.
    var state: Storage<State> { get }
}

extension CyclerType {
    /// The activities this view model emits, from now on.
    public var activity: Signal<Activity> {
        let core = state.core
        let subject = core.lock.withLock {
            if let existing = core.activitySubject as? PassthroughSubject<Activity, Never> { return existing }
            let created = PassthroughSubject<Activity, Never>()
            core.activitySubject = created
            return created
        }
        return Signal(subject.eraseToAnyPublisher())
    }

    /// Sends this view model's events to `logger` instead of the process-wide default; `nil` goes
    /// back to the default.
    public func set(logger: (any CycleLogging)?) {
        // The new logger has not seen the view model's creation: the next event announces it again.
        channel.set(logger: logger)
    }

    /// The identity this view model's events carry.
    public var eventSource: EventSource {
        channel.source
    }

    var channel: EventChannel {
        state.core.channel(for: Self.self)
    }

    /// Changes the state in one transaction: subscribers hear of it once, at the end, and the loggers
    /// see it as one mutation with the changes it made.
    public func commit(
        _ name: String = "",
        _ description: String = "",
        file: StaticString = #fileID,
        function: StaticString = #function,
        line: UInt = #line,
        _ mutate: (MutableStorage<State>) throws -> Void
    ) rethrows {
        try state.core.commit(
            name: name, description: description, callSite: CallSite(file: file, function: function, line: line),
            unitType: Self.self, mutable: state.mutableView, mutate
        )
    }

    /// Runs an action: logic that may commit, emit and start asynchronous work, reaching the view
    /// model through a context that holds it weakly. Everything the action causes is logged with the
    /// dispatch as its parent, including work that finishes later through the context.
    public func dispatch<Result>(
        _ name: String = "",
        _ description: String = "",
        file: StaticString = #fileID,
        function: StaticString = #function,
        line: UInt = #line,
        _ action: (CyclerWeakContext<Self>) throws -> Result
    ) rethrows -> Result {
        try runDispatch(name: name, description: description, input: nil, callSite: CallSite(file: file, function: function, line: line), action)
    }

    /// A dispatch, logged with the input it carries (a replayable action) if any.
    ///
    /// The name and input are made only when a logger listens: naming a replayable action's case
    /// costs a `String(describing:)`.
    func runDispatch<Result>(
        name makeName: @autoclosure () -> String, description: String, input makeInput: @autoclosure () -> LoggedValue?, callSite: CallSite,
        _ action: (CyclerWeakContext<Self>) throws -> Result
    ) rethrows -> Result {
        let channel = self.channel
        let logger = state.core.lock.withLock { state.core.activeLogger(callSite: callSite) }
        guard let logger else {
            return try action(CyclerWeakContext(self, dispatch: nil))
        }
        let name = makeName()
        let input = makeInput()
        let start = EventTime.now()
        let sequence = channel.emit(.willDispatch(input: input), name: name, description: description, callSite: callSite, at: start, to: logger)
        defer {
            let end = EventTime.now()
            let duration = Duration.nanoseconds(Int64(end.monotonicNanoseconds - start.monotonicNanoseconds))
            channel.emit(.didDispatch(duration: duration), name: name, description: description, callSite: callSite, parent: sequence, at: end, to: logger)
        }
        return try DispatchScope.run(inside: sequence) {
            try action(CyclerWeakContext(self, dispatch: sequence))
        }
    }

    /// Emits an activity to ``activity`` subscribers and the loggers.
    func emitActivity(_ activity: Activity, callSite: CallSite) {
        let core = state.core
        let channel = self.channel
        let subject = core.lock.withLock {
            if let logger = core.activeLogger(unitType: Self.self, callSite: callSite) {
                channel.emit(.activity(LoggedValue(activity)), callSite: callSite, to: logger)
            }
            return core.activitySubject as? PassthroughSubject<Activity, Never>
        }
        subject?.send(activity)
    }
}
