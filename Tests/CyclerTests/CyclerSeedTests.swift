import Cycler
import Foundation
@preconcurrency import OpenCombine
import ReadmeChecking
import RxSwiftCompatibility
import Testing

// The Cycler seed's example (003), as written: RxSwift's names come from `RxSwiftCompatibility`.

// seed:begin
class ViewModel : CyclerType {

  enum Activity {
    case didReachBigNumber
  }

  struct State {

    // - Data
    fileprivate var count: Int = 0

    // - Computed
    // It will be subscribed whole of this State, so, we can use computed property.
    var countText: String {
      return count.description
    }
  }

  private let disposeBag = DisposeBag()

  let state: Storage<State> = .init(.init(count: 0))

  init() {

  }

  func increment(number: Int) {

    // Dispatch Action
    // Action can contain async operation.
    dispatch("increment") { (context) in

      // Context references self weakly.

      Observable.just(())
        .delay(0.1, scheduler: MainScheduler.instance)
        .do(onNext: {

          // Retain references of context
          // So, run operation completely in this scope.
          context.retain { c in

            // Mutation
            // Transaction for mutating.
            c.commit { (state) in
              // State is MutableStorage.
              state.updateIfChanged(state.value.count + number, \.count)
            }

            if c.currentState.count > 10 {
              // Emit Activity.
              // Activity just an event that does not need to store to State.
              c.emit(.didReachBigNumber)
            }
          }
        })
        .subscribe()
      }
      .disposed(by: disposeBag)
  }

  func decrement(number: Int) {

    dispatch("decrement") { _ in
      commit { (state) in
        state.updateIfChanged(state.value.count - number, \.count)
      }
    }

  }
}
// seed:end

@Suite("The Cycler seed's example")
struct CyclerSeedTests {
    @Test("the view model runs: decrement at once, increment 0.1 s later on the main queue, activity past ten")
    func viewModel() async {
        let viewModel = ViewModel()
        var texts: [String] = []
        var activities: [ViewModel.Activity] = []
        // The seed's three ways to subscribe to the state, each given a sink.
        let subscription = viewModel
            .state
            .changed(\.countText) // This includes `distinctUntilChanged`
            .sink { texts.append($0) }
        let observed = viewModel
            .state
            .asObservable()
            .map { $0.countText }
            .distinctUntilChanged()
            .sink { _ in }
        let byKeyPath = viewModel
            .state
            .asObservable(keyPath: \.countText)
            .distinctUntilChanged()
            .sink { _ in }
        let activity = viewModel.activity.emit(onNext: { activities.append($0) })

        viewModel.decrement(number: 1)
        #expect(viewModel.state.value.countText == "-1")

        // The delayed commit runs on the main queue; the test waits for the state, not for time.
        let (reachedEleven, continuation) = AsyncStream<Void>.makeStream()
        let token = viewModel.state.add { state in
            if state.countText == "11" { continuation.yield(()) }
        }
        viewModel.increment(number: 12)
        var iterator = reachedEleven.makeAsyncIterator()
        _ = await iterator.next()
        viewModel.state.remove(subscriber: token)
        #expect(texts == ["0", "-1", "11"])
        #expect(activities.count == 1)
        _ = (subscription, observed, byKeyPath, activity)
    }

    @Test("the code above is the seed's, as written")
    func asWritten() throws {
        try SeedText.expectRegions(of: #filePath, in: "003_eca022b7923a1ddf.txt")
    }
}

/// What the original's own tests call on a storage: drivers and comparers (RxCocoa's names).
@Suite("Cycler's storage, as the original's tests use it")
struct CyclerStorageUpstreamTests {
    struct State {
        var name1: String = ""
        var name2: String? = nil
    }

    @Test("a driver of a key path skips the current value and hears changed values only through updateIfChanged")
    func drivers() {
        let _state: MutableStorage<State> = .init(.init())
        let state: Storage<State> = _state.asStorage()
        var updated = 0
        let subscription = state
            .asDriver(keyPath: \.name1)
            .skip(1)
            .drive(onNext: { _ in updated += 1 })
        _state.updateIfChanged("", \.name1)
        #expect(updated == 0)
        _state.updateIfChanged("mmm", \.name1)
        #expect(updated == 1)
        subscription.dispose()

        var optionals: [String?] = []
        let changed = state.changed(\.name2, { $0 == $1 }).sink { optionals.append($0) }
        _state.updateIfChanged("a", \.name2)
        _state.updateIfChanged("a", \.name2)
        #expect(optionals == [nil, "a"])
        changed.cancel()
        var drivenNames: [String] = []
        let driven = state.changedDriver(\.name1).drive(onNext: { drivenNames.append($0) })
        #expect(drivenNames == ["mmm"])
        driven.dispose()
    }
}
