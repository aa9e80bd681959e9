import Cycler
import Flask
import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import Ricemill

/// The workloads of the recording benchmark.
enum Workload: String, CaseIterable {
    /// 1,000,000 commits of a 3-field struct on a Cycler.
    case counter
    /// 100,000 commits on a nested state of about 2 KiB (50 items), each changing one item.
    case todo
    /// 10,000 commits on a list of 1,000 identified items (growing to 6,000): every other commit
    /// appends an item, the others toggle one — what a feed or a chat does.
    case wide
    /// 100,000 commits on a list of 1,000 identified items, each toggling one item in place through
    /// a key path (`\.items[i].done`): what a long list's checkbox does.
    case wideToggle = "wide-toggle"
    /// The same toggle made inside a commit's closure (`state.update { $0.items[i].done.toggle() }`),
    /// without a key path: the journal sees only the state after it.
    case closureToggle = "closure-toggle"
    /// 1,000,000 increments of a Ricemill machine's counter (an input value, a store change).
    case ricemill
    /// 1,000,000 mixes of a Flask substance's counter (a chain reaction of one mix).
    case flask
    /// 2,000 mixes of a Flask board of 600 cards, each changing one card's points: what a kanban
    /// board's edit does. Flask compares the states before and after every mix, with or without
    /// a logger.
    case flaskBoard = "flask-board"

    var commits: Int {
        // For profiling under callgrind, where a million commits take too long.
        if let override = ProcessInfo.processInfo.environment["REWIND_BENCH_COMMITS"].flatMap(Int.init) { return override }
        return switch self {
        case .counter: 1_000_000
        case .todo: 100_000
        case .wide: 10_000
        case .wideToggle: 100_000
        case .closureToggle: 20_000
        case .ricemill, .flask: 1_000_000
        case .flaskBoard: 2_000
        }
    }

    /// Events per commit: willMutate, change, didMutate (a Ricemill input: willDispatch, change,
    /// didDispatch).
    static let eventsPerCommit = 3

    /// Makes the view model and returns the function that performs commit number `index`.
    func makeDriver(logger: (any CycleLogging)?) -> (unit: AnyObject, commit: (Int) -> Void) {
        switch self {
        case .counter:
            let model = CounterModel()
            model.set(logger: logger)
            return (model, { _ in model.commit("increment") { $0.update($0.value.count + 1, \.count) } })
        case .wide:
            let model = WideModel()
            model.set(logger: logger)
            return (model, { index in
                model.commit(index % 2 == 0 ? "append" : "toggle") { state in
                    let items = state.value.items
                    if index % 2 == 0 {
                        state.update(items + [WideModel.Item(id: items.count, text: "Message \(items.count)", done: false)], \.items)
                    } else {
                        let item = (index * 7) % items.count
                        state.update(!items[item].done, \.items[item].done)
                    }
                }
            })
        case .wideToggle:
            let model = WideModel()
            model.set(logger: logger)
            return (model, { index in
                model.commit("toggle") { state in
                    let item = (index * 7) % 1_000
                    state.update(!state.value.items[item].done, \.items[item].done)
                }
            })
        case .closureToggle:
            let model = WideModel()
            model.set(logger: logger)
            return (model, { index in
                model.commit("toggle") { state in
                    state.update { $0.items[(index * 7) % 1_000].done.toggle() }
                }
            })
        case .ricemill:
            let machine = RicemillCounter()
            machine.set(logger: logger)
            return (machine, { _ in machine.input.increment.send() })
        case .flask:
            let substance = Flask.newSubstance(definedBy: FlaskCounterState.self, named: "counter")
            substance.set(logger: logger)
            let reactor = Flask.getReactor(attachedTo: substance)
            return (substance, { _ in reactor.mix(substance) { $0.prop.count += 1 }.react() })
        case .flaskBoard:
            let substance = Flask.newSubstance(definedBy: FlaskBoardState.self, named: "board")
            substance.set(logger: logger)
            let reactor = Flask.getReactor(attachedTo: substance)
            return (substance, { index in reactor.mix(substance) { $0.prop.cards[(index * 7) % 600].points += 1 }.react() })
        case .todo:
            let model = TodoModel()
            model.set(logger: logger)
            return (model, { index in
                model.commit("toggle") { state in
                    let item = index % 50
                    state.update(!state.value.items[item].done, \.items[item].done)
                }
            })
        }
    }
}

final class CounterModel: CyclerType {
    struct State: Codable { var count = 0; var step = 1; var isEnabled = true }
    let state: Storage<State> = .init(.init())
}

final class TodoModel: CyclerType {
    struct Item: Codable { var id: Int; var title: String; var notes: String; var done: Bool }
    struct State: Codable { var title: String; var filter: String; var items: [Item] }
    let state: Storage<State> = .init(State(
        title: "Groceries", filter: "all",
        items: (0..<50).map { Item(id: $0, title: "Item number \($0)", notes: "", done: false) }
    ))
}

final class WideModel: CyclerType {
    struct Item: Codable { var id: Int; var text: String; var done: Bool }
    struct State: Codable { var items: [Item] }
    let state: Storage<State> = .init(State(items: (0..<1_000).map { Item(id: $0, text: "Message \($0)", done: false) }))
}

final class RicemillCounter: Machine<RicemillCounter> {
    struct Input: InputType {
        let increment = PassthroughSubject<Void, Never>()
    }

    final class Store: StoredOutputType {
        @Published var count = 0
    }

    typealias Output = Store
    struct Extra: ExtraType {}

    convenience init() {
        self.init(input: Input(), store: Store(), extra: Extra())
    }

    static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
        var cancellables: [AnyCancellable] = []
        input.increment.map { _ in store.count + 1 }.assign(to: \.count, on: store).store(in: &cancellables)
        return Polished(cancellables: cancellables)
    }
}

struct FlaskCounterState: State {
    var count = 0
    var step = 1
    var isEnabled = true
}

struct FlaskBoardState: State {
    struct Card: Codable { var id: Int; var title: String; var column: String; var points: Int }
    var cards = (0..<600).map { Card(id: $0, title: "Card number \($0)", column: ["todo", "doing", "done"][$0 % 3], points: 1) }
    var selected = 0
}
