import Cycler
import Dispatch
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind

/// The Cycler README's view model, with RxSwift's delayed `Observable` replaced by a scheduler the
/// test controls, so the asynchronous part runs without sleeping.
final class SeedViewModel: CyclerType {
    enum Activity {
        case didReachBigNumber
    }

    struct State {
        // - Data
        fileprivate(set) var count: Int = 0

        // - Computed
        // It will be subscribed whole of this State, so, we can use computed property.
        var countText: String {
            count.description
        }
    }

    private var cancellables = Set<AnyCancellable>()
    private let later: ManualScheduler

    let state: Storage<State> = .init(.init(count: 0))

    init(later: ManualScheduler) {
        self.later = later
    }

    func increment(number: Int) {
        // Dispatch Action
        // Action can contain async operation.
        dispatch("increment") { context in
            // Context references self weakly.
            later.schedule {
                // Retain references of context
                // So, run operation completely in this scope.
                context.retain { c in
                    // Mutation
                    // Transaction for mutating.
                    c.commit { state in
                        // State is MutableStorage.
                        state.updateIfChanged(state.value.count + number, \.count)
                    }

                    if c.currentState.count > 10 {
                        // Emit Activity.
                        // Activity just an event that does not need to store to State.
                        c.emit(.didReachBigNumber)
                    }
                }
            }
        }
    }

    func decrement(number: Int) {
        dispatch("decrement") { _ in
            commit { state in
                state.updateIfChanged(state.value.count - number, \.count)
            }
        }
    }
}

/// Runs scheduled work when the test says so: a virtual clock with one tick.
final class ManualScheduler: @unchecked Sendable {
    // Unchecked: used from one test at a time, on one thread.
    private var pending: [() -> Void] = []

    func schedule(_ work: @escaping () -> Void) {
        pending.append(work)
    }

    func runAll() {
        let work = pending
        pending.removeAll()
        work.forEach { $0() }
    }
}
