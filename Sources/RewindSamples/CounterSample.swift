import Cycler
@_spi(Tooling) import Rewind

/// A counter with activities: the Cycler README's view model, grown a little, with its actions as a
/// Codable enum so that a recorded session can be replayed. Used by `rewind demo`, the fixtures and
/// the tests.
public final class CounterSample: ReplayableCycler, Sendable {
    /// What the counter tells its screen without storing it.
    public enum Activity: Codable, Equatable, Sendable {
        case didReachBigNumber(Int)
        case didReset
    }

    /// What the counter can be asked to do.
    public enum Action: Codable, Equatable, Sendable {
        case increment
        case decrement
        case setStep(Int)
        case setEnabled(Bool)
        case reset
    }

    /// The counter's state.
    public struct State: Codable, Equatable, Sendable {
        public var count = 0
        public var step = 1
        public var isEnabled = true
    }

    public let state: Storage<State> = .init(.init())

    /// A counter at zero.
    public init() {}

    /// Adds the step, and says so when the count passes 10.
    public func increment(file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        send(.increment, file: file, function: function, line: line)
    }

    /// Subtracts the step, never going below zero.
    public func decrement(file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        send(.decrement, file: file, function: function, line: line)
    }

    /// Changes the step.
    public func setStep(_ step: Int, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        send(.setStep(step), file: file, function: function, line: line)
    }

    /// Turns the buttons on or off.
    public func setEnabled(_ isEnabled: Bool, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        send(.setEnabled(isEnabled), file: file, function: function, line: line)
    }

    /// Back to zero.
    public func reset(file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        send(.reset, file: file, function: function, line: line)
    }

    public func handle(_ action: Action) {
        switch action {
        case .increment:
            commit("add step") { state in
                state.updateIfChanged(state.value.count + state.value.step, \.count)
            }
            if state.value.count > 10 {
                emit(.didReachBigNumber(state.value.count))
            }
        case .decrement:
            commit("subtract step") { state in
                state.updateIfChanged(max(0, state.value.count - state.value.step), \.count)
            }
        case .setStep(let step):
            commit("set step") { $0.updateIfChanged(step, \.step) }
        case .setEnabled(let isEnabled):
            commit("toggle") { $0.updateIfChanged(isEnabled, \.isEnabled) }
        case .reset:
            commit("reset") { $0.replace(State()) }
            emit(.didReset)
        }
    }
}
