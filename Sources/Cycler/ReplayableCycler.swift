@_spi(Tooling) import Rewind

/// A view model whose dispatches can be replayed: it names its actions in a Codable enum and
/// handles them in one place, so that a journal records each action as a value and a replay can
/// send it again. This is the way to make a view model replayable; for one written with
/// `dispatch { }` closures, ``CyclerType/replayTarget(resending:)`` names the methods that re-send
/// its dispatches instead.
///
/// ```swift
/// final class Counter: ReplayableCycler {
///     enum Action: Codable { case increment, add(Int) }
///     struct State: Codable { var count = 0 }
///     let state: Storage<State> = .init(.init())
///
///     func handle(_ action: Action) {
///         switch action {
///         case .increment: commit("increment") { $0.update($0.value.count + 1, \.count) }
///         case .add(let amount): commit("add") { $0.update($0.value.count + amount, \.count) }
///         }
///     }
/// }
/// counter.send(.add(3))   // logged as a dispatch `add` carrying {add: {_0: 3}}
/// ```
public protocol ReplayableCycler: CyclerType where State: Codable {
    /// What the view model can be asked to do.
    associatedtype Action: Codable

    /// Does `action`: commits, emits, starts work, as a dispatch closure would.
    func handle(_ action: Action)
}

extension ReplayableCycler {
    /// Dispatches `action`: logged as a dispatch named after the action's case, carrying the action,
    /// with everything `handle(_:)` does inside it.
    public func send(_ action: Action, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        runDispatch(name: Self.caseName(of: action), description: "", input: LoggedValue(action), callSite: CallSite(file: file, function: function, line: line)) { _ in
            handle(action)
        }
    }

    /// Emits an activity from `handle(_:)` (a dispatch closure emits through its context).
    public func emit(_ activity: Activity, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        emitActivity(activity, callSite: CallSite(file: file, function: function, line: line))
    }

    /// This view model as a unit a recorded session can be replayed into: each recorded action is
    /// decoded and sent again; dispatches made with a closure are put back as recorded (and listed
    /// in the replay's report).
    public var replayTarget: any ReplayTarget {
        CyclerReplayTarget(self, resend: { cycler, input in
            guard let value = input.value else { return false }
            cycler.send(try StateCapture.decode(Action.self, from: value))
            return true
        }, inputProblem: { input in
            // A dispatch made with a closure carries no action: it is put back, not re-sent.
            input.value == nil ? nil : .sending(input, as: Action.self)
        })
    }

    /// `add` for `.add(3)`.
    static func caseName(of action: Action) -> String {
        let text = String(describing: action)
        return String(text.prefix { $0 != "(" })
    }
}
