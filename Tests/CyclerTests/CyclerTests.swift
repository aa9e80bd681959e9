import Foundation
@preconcurrency import OpenCombine
import Synchronization
import Testing
import Cycler
@_spi(Tooling) import Rewind

@Suite("Cycler")
struct CyclerTests {
    struct Todo: Codable, Equatable { var title: String; var done = false }
    struct TodoState: Codable, Equatable { var todos: [Todo] = []; var filter = "all"; var editing: Int? }

    final class TodoViewModel: CyclerType, Sendable {
        enum Activity: Equatable { case saved(count: Int) }
        let state: Storage<TodoState> = .init(.init())

        func add(_ title: String) {
            dispatch("add", "append a todo") { context in
                context.commit("append") { state in
                    state.update(state.value.todos + [Todo(title: title)], \.todos)
                }
                context.emit(.saved(count: context.currentState?.todos.count ?? 0))
            }
        }
    }

    @Test("a subscription to one key path fires only when that property changes")
    func keyPathSubscriptionFiresOnChange() {
        let viewModel = SeedViewModel(later: ManualScheduler())
        var texts: [String] = []
        var counts: [Int] = []
        let byText = viewModel.state.changed(\.countText).sink { texts.append($0) }
        let byObservable = viewModel.state.asObservable(keyPath: \.count).sink { counts.append($0) }
        viewModel.decrement(number: 1)
        viewModel.decrement(number: 0)  // no change: updateIfChanged skips it
        viewModel.commit { $0.update("ignored", \.countText2) }
        viewModel.decrement(number: -1)
        #expect(texts == ["0", "-1", "0"])
        // asObservable repeats on every change of the state, as the seed warns; changed(_:) does not.
        #expect(counts == [0, -1, -1, 0])
        _ = (byText, byObservable)
    }

    @Test("dispatch, commit, change and emit reach the logger in order, with causal links")
    func eventOrderAndParents() throws {
        let scheduler = ManualScheduler()
        let viewModel = SeedViewModel(later: scheduler)
        let recorder = InMemoryLogger()
        viewModel.set(logger: recorder)
        viewModel.decrement(number: -10)
        viewModel.increment(number: 5)
        scheduler.runAll()  // the delayed part of the action

        let events = recorder.events
        #expect(events.map(\.kind.category) == [
            .created,
            .willDispatch, .willMutate, .change, .didMutate, .didDispatch,
            .willDispatch, .didDispatch,
            .willMutate, .change, .didMutate, .activity,
        ])
        // A commit inside the dispatch's closure is linked to it.
        let decrement = events[1]
        #expect(decrement.name == "decrement")
        #expect(events[2...5].allSatisfy { $0.parent == decrement.sequence })
        // Work finished later through the context is still linked to its dispatch.
        let increment = events[6]
        #expect(increment.name == "increment")
        #expect(events[7...11].allSatisfy { $0.parent == increment.sequence })
        #expect(events[0].parent == nil)
        #expect(events.map(\.sequence) == events.map(\.sequence).sorted())
        guard case .change(let path, let value, let state) = events[9].kind else { Issue.record("kind"); return }
        #expect(path.description == "count")
        #expect(value.value as? Int == 15)
        #expect((state?.value as? SeedViewModel.State)?.count == 15)
        guard case .didMutate(let duration, let after) = events[10].kind else { Issue.record("kind"); return }
        #expect(after.tree() == .object(["count": .integer(15)]))
        #expect(duration >= .zero)
        guard case .didDispatch(let dispatchDuration) = events[5].kind else { Issue.record("kind"); return }
        #expect(dispatchDuration >= duration)
        #expect(events[2].callSite.fileName == "SeedExampleViewModel.swift")
        #expect(events.allSatisfy { $0.source === viewModel.eventSource })
        #expect(viewModel.eventSource.framework == .cycler && viewModel.eventSource.typeName == "SeedViewModel")
    }

    @Test("the context holds the view model weakly: released view models ignore late work")
    func weakContext() {
        let scheduler = ManualScheduler()
        var viewModel: SeedViewModel? = SeedViewModel(later: scheduler)
        weak let weakViewModel = viewModel
        let recorder = InMemoryLogger()
        viewModel?.set(logger: recorder)
        viewModel?.increment(number: 1)
        viewModel = nil
        #expect(weakViewModel == nil)
        scheduler.runAll()  // must not crash or commit
        #expect(recorder.events.map(\.kind.category) == [.created, .willDispatch, .didDispatch, .released])
    }

    @Test("activities reach subscribers and the logger")
    func activities() {
        let scheduler = ManualScheduler()
        let viewModel = SeedViewModel(later: scheduler)
        let recorder = InMemoryLogger()
        viewModel.set(logger: recorder)
        var received: [SeedViewModel.Activity] = []
        let subscription = viewModel.activity.emit(onNext: { received.append($0) })
        viewModel.increment(number: 5)
        scheduler.runAll()
        #expect(received.isEmpty)
        viewModel.increment(number: 6)
        scheduler.runAll()
        #expect(received == [.didReachBigNumber])
        #expect(recorder.events.filter { $0.kind.category == .activity }.count == 1)
        subscription.cancel()
    }

    @Test("update, replace and batch updates are logged too")
    func storageWritesAreLogged() throws {
        let viewModel = TodoViewModel()
        let recorder = InMemoryLogger()
        viewModel.set(logger: recorder)
        var notified: [TodoState] = []
        let token = viewModel.state.add { notified.append($0) }
        viewModel.add("tea")
        viewModel.commit("reset") { state in
            state.replace(TodoState(todos: [Todo(title: "jam")], filter: "done"))
            state.update { $0.editing = 0 }
        }
        viewModel.commit("two fields") { state in
            state.batchUpdate { batch in
                batch.update("active", \.filter)
                batch.updateIfChanged(nil, \.editing, comparer: ==)
            }
        }
        viewModel.state.remove(subscriber: token)
        viewModel.commit { $0.update("all", \.filter) }

        let categories = recorder.events.map(\.kind.category)
        #expect(categories == [
            .created, .willDispatch, .willMutate, .change, .didMutate, .activity, .didDispatch,
            .willMutate, .replace, .replace, .didMutate,
            .willMutate, .change, .change, .didMutate,
            .willMutate, .change, .didMutate,
        ])
        #expect(recorder.events[8].name == "reset")
        guard case .activity(let activity) = recorder.events[5].kind else { Issue.record("kind"); return }
        #expect(activity.value as? TodoViewModel.Activity == .saved(count: 1))
        // Subscribers hear once per commit, never mid-commit, and not after removal.
        #expect(notified.map(\.filter) == ["all", "done", "active"])
        #expect(notified[1].editing == 0)
        #expect(viewModel.state.value.filter == "all")
    }

    @Test("a storage works on its own, with tokens to remove subscribers")
    func standaloneStorage() {
        let storage = MutableStorage(TodoState())
        var seen: [Int] = []
        let token = storage.add { seen.append($0.todos.count) }
        storage.update([Todo(title: "a")], \.todos)
        storage.batchUpdate { batch in
            batch.update([Todo(title: "a"), Todo(title: "b")], \.todos)
            batch.update([Todo(title: "a"), Todo(title: "b"), Todo(title: "c")], \.todos)
        }
        storage.remove(subscriber: token)
        storage.update([], \.todos)
        #expect(seen == [1, 3])
        let readOnly = storage.asStorage()
        #expect(readOnly.value.todos.isEmpty)
        storage.update([Todo(title: "z")], \.todos)
        #expect(readOnly.value.todos.map(\.title) == ["z"])
    }

    @Test("eight threads committing at once lose no update")
    func concurrentCommits() async {
        let viewModel = TodoViewModel()
        let recorder = InMemoryLogger()
        viewModel.set(logger: recorder)
        let perThread = 500
        let counts = Mutex(0)
        let token = viewModel.state.add { _ in counts.withLock { $0 += 1 } }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for index in 0..<perThread {
                        viewModel.commit("add") { state in
                            state.update(state.value.todos + [Todo(title: "\(thread)-\(index)")], \.todos)
                        }
                    }
                }
            }
        }
        viewModel.state.remove(subscriber: token)
        let todos = viewModel.state.value.todos
        #expect(todos.count == 8 * perThread)
        #expect(Set(todos.map(\.title)).count == 8 * perThread)
        #expect(counts.withLock { $0 } == 8 * perThread)
        let sequences = recorder.events.map(\.sequence)
        #expect(Set(sequences).count == sequences.count)
        #expect(recorder.events.filter { $0.kind.category == .didMutate }.count == 8 * perThread)
    }

    @Test("a view model without a logger of its own still works")
    func noLogger() {
        // The process-wide default is left alone: another suite sets it, and tests run in parallel.
        let viewModel = TodoViewModel()
        viewModel.add("x")
        #expect(viewModel.state.value.todos.count == 1)
    }
}

extension SeedViewModel.State {
    /// A writable property only the test uses, to check that unrelated writes do not fire
    /// key-path subscriptions.
    var countText2: String {
        get { "" }
        set {}
    }
}

@Suite("Switching loggers")
struct SwitchingLoggerTests {
    final class Counter: ReplayableCycler {
        enum Action: Codable { case increment }
        struct State: Codable { var count = 0 }
        let state: Storage<State> = .init(.init())
        func handle(_ action: Action) { commit("add") { $0.update($0.value.count + 1, \.count) } }
    }

    @Test("a logger set later is told of the unit's creation, with its state then")
    func laterLoggerSeesCreation() {
        let first = InMemoryLogger()
        let second = InMemoryLogger()
        let counter = Counter()
        counter.set(logger: first)
        counter.send(.increment)
        counter.set(logger: second)
        counter.send(.increment)
        #expect(first.eventsInSequenceOrder.first?.kind.category == .created)
        let created = second.eventsInSequenceOrder.first
        #expect(created?.kind.category == .created)
        if case .created(let state?) = created?.kind {
            #expect(state.tree() == .object(["count": .integer(1)]))
        }
    }
}
