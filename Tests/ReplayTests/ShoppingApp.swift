import CombineOperators
import Cycler
import Foundation
@preconcurrency import OpenCombine
import Ricemill

/// A shopping app as a new user writes it, with two units:
/// - a Ricemill shopping list: 800 identified items loaded from a server that answers later on the
///   scheduler, filtered and sorted through `combineLatest`, items ticked off by id, and a sign-in
///   whose token is a secret input;
/// - a Cycler inbox: 300 messages, a refresh answered later, messages marked read through a
///   subscript key path.
///
/// `plantedBug` makes the list ignore the sort order (the bug a replay must find).
enum Shopping {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var name: String
        var aisle: Int
        var done: Bool
    }

    /// The grocery server: answers a load with `count` items after a latency on the scheduler.
    struct Server {
        let scheduler: SessionScheduler
        var count = 800
        var latency: SessionScheduler.SchedulerTimeType.Stride = .milliseconds(500)

        func loadItems() -> AnyPublisher<[Item], Never> {
            let items = (1...count).map { Item(id: $0, name: "item \(String(format: "%03d", ($0 * 37) % count))", aisle: $0 % 12, done: false) }
            return Just(items).delay(for: latency, scheduler: scheduler).eraseToAnyPublisher()
        }
    }

    final class ShoppingList: Machine<ShoppingList>, @unchecked Sendable {
        // Unchecked: driven from the test's thread and the scheduler's, one at a time.
        typealias Output = Store

        final class Input: BindableInputType {
            let load = PassthroughSubject<Void, Never>()
            let toggle = PassthroughSubject<Int, Never>()
            let authToken = PassthroughSubject<String, Never>()
            @Published var filterText = ""
            @Published var sortAscending = true
        }

        final class Store: StoredOutputType {
            @Published var items: [Item] = []
            @Published var visibleItems: [Item] = []
            @Published var isLoading = false
            @Published var loadsCompleted = 0
            @Published var isSignedIn = false
        }

        struct Extra: ExtraType {
            let server: Server
            let plantedBug: Bool
        }

        static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
            var cancellables: [AnyCancellable] = []
            input.load
                .handleEvents(receiveOutput: { store.isLoading = true })
                .flatMap { extra.server.loadItems() }
                .sink { items in
                    store.items = items
                    store.isLoading = false
                    store.loadsCompleted += 1
                }
                .store(in: &cancellables)
            input.toggle
                .sink { id in
                    guard let index = store.items.firstIndex(where: { $0.id == id }) else { return }
                    store.items[index].done.toggle()
                }
                .store(in: &cancellables)
            input.authToken
                .map { !$0.isEmpty }
                .assign(to: \.isSignedIn, on: store)
                .store(in: &cancellables)
            store.$items
                .combineLatest(input.$filterText, input.$sortAscending)
                .map { items, filter, ascending in
                    let found = filter.isEmpty ? items : items.filter { $0.name.contains(filter) }
                    let sorted = found.sorted { $0.name < $1.name }
                    return ascending || extra.plantedBug ? sorted : sorted.reversed()
                }
                .assign(to: \.visibleItems, on: store)
                .store(in: &cancellables)
            return Polished(cancellables: cancellables)
        }
    }

    /// The inbox: replayable actions, a refresh answered later on the scheduler.
    final class Inbox: ReplayableCycler, @unchecked Sendable {
        // Unchecked: driven from the test's thread and the scheduler's, one at a time.
        enum Activity: Codable, Sendable {
            case refreshed(count: Int)
        }

        enum Action: Codable, Sendable {
            case refresh(count: Int)
            case markRead(id: Int)
            case archive(id: Int)
        }

        struct Message: Codable, Equatable, Sendable {
            var id: Int
            var subject: String
            var isRead: Bool
        }

        struct State: Codable, Equatable, Sendable {
            var messages: [Message] = []
            var unread = 0
            var isRefreshing = false
        }

        let state: Storage<State> = .init(.init())
        let scheduler: SessionScheduler

        init(scheduler: SessionScheduler) {
            self.scheduler = scheduler
        }

        func handle(_ action: Action) {
            switch action {
            case .refresh(let count):
                commit("start refresh") { $0.update(true, \.isRefreshing) }
                scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(200)), tolerance: .nanoseconds(0), options: nil) { [self] in
                    commit("refreshed") { state in
                        let first = (state.value.messages.map(\.id).max() ?? 0) + 1
                        let new = (first..<first + count).map { Message(id: $0, subject: "message \($0)", isRead: false) }
                        state.update(new + state.value.messages, \.messages)
                        state.update(state.value.messages.filter { !$0.isRead }.count, \.unread)
                        state.update(false, \.isRefreshing)
                    }
                    emit(.refreshed(count: count))
                }
            case .markRead(let id):
                commit("mark read") { state in
                    guard let index = state.value.messages.firstIndex(where: { $0.id == id }) else { return }
                    state.update(true, \.messages[index].isRead)
                    state.update(state.value.messages.filter { !$0.isRead }.count, \.unread)
                }
            case .archive(let id):
                commit("archive") { state in
                    state.update(state.value.messages.filter { $0.id != id }, \.messages)
                    state.update(state.value.messages.filter { !$0.isRead }.count, \.unread)
                }
            }
        }
    }

    /// The app's two units on one scheduler.
    final class App {
        let list: ShoppingList
        let inbox: Inbox

        init(scheduler: SessionScheduler, plantedBug: Bool = false) {
            list = ShoppingList(input: .init(), store: .init(), extra: .init(server: Server(scheduler: scheduler), plantedBug: plantedBug))
            inbox = Inbox(scheduler: scheduler)
        }
    }

    /// A session as a user clicks through it.
    static func session(_ app: App, scheduler: VirtualTimeScheduler) {
        app.inbox.send(.refresh(count: 300))
        app.list.input.load.send(())
        scheduler.advance(by: .milliseconds(600))
        app.list.input.authToken.send("tok-SECRET-4711")
        for id in stride(from: 5, to: 800, by: 97) { app.list.input.toggle.send(id) }
        app.list.input.filterText.wrappedValue = "item 1"
        app.inbox.send(.markRead(id: 7))
        app.inbox.send(.markRead(id: 7))
        app.list.input.sortAscending.wrappedValue = false
        app.inbox.send(.archive(id: 12))
        app.list.input.filterText.wrappedValue = ""
        app.inbox.send(.refresh(count: 3))
        app.list.input.load.send(())
        scheduler.advance(by: .milliseconds(600))
        app.list.input.toggle.send(400)
    }
}
