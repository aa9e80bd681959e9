import Cycler
import Rewind

/// A counter with activities: the Cycler README's view model, grown a little. Used by `rewind demo`
/// and the fixtures.
public final class CounterSample: CyclerType, Sendable {
    /// What the counter tells its screen without storing it.
    public enum Activity: Codable, Equatable, Sendable {
        case didReachBigNumber(Int)
        case didReset
    }

    /// The counter's state.
    public struct State: Codable, Equatable, Sendable {
        public var count = 0
        public var step = 1
        public var isEnabled = true
    }

    public let state: Storage<State> = .init(.init())

    public init() {}

    /// Adds the step, and says so when the count passes 10.
    public func increment() {
        dispatch("increment", "add the step to the count") { context in
            context.commit("add step") { state in
                state.updateIfChanged(state.value.count + state.value.step, \.count)
            }
            if let count = context.currentState?.count, count > 10 {
                context.emit(.didReachBigNumber(count))
            }
        }
    }

    /// Subtracts the step, never going below zero.
    public func decrement() {
        dispatch("decrement") { context in
            context.commit("subtract step") { state in
                state.updateIfChanged(max(0, state.value.count - state.value.step), \.count)
            }
        }
    }

    /// Changes the step.
    public func setStep(_ step: Int) {
        commit("set step") { $0.updateIfChanged(step, \.step) }
    }

    /// Turns the buttons on or off.
    public func setEnabled(_ isEnabled: Bool) {
        commit("toggle") { $0.updateIfChanged(isEnabled, \.isEnabled) }
    }

    /// Back to zero.
    public func reset() {
        dispatch("reset") { context in
            context.commit("reset") { $0.replace(State()) }
            context.emit(.didReset)
        }
    }
}
