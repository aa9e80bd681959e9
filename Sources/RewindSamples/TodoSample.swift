import Cycler
import Logging
@_spi(Tooling) import Rewind

/// A todo list with nested state: items with tags, a filter, an item being edited. Used by `rewind demo` and the fixtures.
public final class TodoSample: CyclerType, Sendable {
    /// What the list tells its screen.
    public enum Activity: Codable, Equatable, Sendable {
        case saved(itemCount: Int)
    }

    /// How the list is filtered.
    public enum Filter: String, Codable, Sendable {
        case all, active, done
    }

    /// One todo.
    public struct Item: Codable, Equatable, Sendable {
        public var id: Int
        public var title: String
        public var done: Bool
        public var tags: [String]
    }

    /// The list's state.
    public struct State: Codable, Equatable, Sendable {
        public var title = "Groceries"
        public var filter = Filter.all
        public var items: [Item] = []
        public var editing: Int?
        public var nextID = 1
    }

    public let state: Storage<State> = .init(.init())
    /// A list that logs nowhere (``init(logger:)`` and ``init(recordingLogsTo:)`` log).
    public convenience init() { self.init(logger: Logger(label: "app.todo") { _ in SwiftLogNoOpLogHandler() }) }

    /// Appends an item.
    public func add(_ title: String, tags: [String] = []) {
        dispatch("add", "append \(title)") { context in
            context.commit("append item") { state in
                let item = Item(id: state.value.nextID, title: title, done: false, tags: tags)
                state.update(state.value.items + [item], \.items)
                state.update(state.value.nextID + 1, \.nextID)
            }
            context.emit(.saved(itemCount: context.currentState?.items.count ?? 0))
        }
    }

    /// Marks an item done or not done.
    public func toggle(id: Int) {
        dispatch("toggle") { context in
            context.commit("toggle done") { state in
                guard let index = state.value.items.firstIndex(where: { $0.id == id }) else { return }
                var items = state.value.items
                items[index].done.toggle()
                state.update(items, \.items)
            }
        }
    }

    /// Inserts an item at the top.
    public func addFirst(_ title: String) {
        commit("prepend item") { state in
            let item = Item(id: state.value.nextID, title: title, done: false, tags: [])
            state.update([item] + state.value.items, \.items)
            state.update(state.value.nextID + 1, \.nextID)
        }
    }

    /// Removes an item.
    public func remove(id: Int) {
        commit("remove item") { state in
            state.update(state.value.items.filter { $0.id != id }, \.items)
        }
    }

    /// Renames an item, editing it in the meantime.
    public func rename(id: Int, to title: String) {
        dispatch("rename") { context in
            context.commit("start editing") { $0.update(id, \.editing) }
            context.commit("rename item") { state in
                guard let index = state.value.items.firstIndex(where: { $0.id == id }) else { return }
                var items = state.value.items
                items[index].title = title
                state.update(items, \.items)
                state.update(nil, \.editing)
            }
        }
    }

    /// Shows some of the items.
    public func setFilter(_ filter: Filter) {
        commit("set filter") { $0.updateIfChanged(filter, \.filter) }
    }

    // The logger is declared after the actions so that their lines stay where the fixtures' call
    // sites (and a journal of format 1, compared with them) have them.

    /// Where the list's own messages go (a sync's progress and failures), as an app logs them.
    public let logger: Logger

    /// A list that logs to `logger`.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// A list whose messages are recorded into `journal` (``RecordingLogHandler``), beside its
    /// states: what the demo and the fixtures show.
    public convenience init(recordingLogsTo journal: any CycleLogging) {
        self.init(logger: Logger(label: "app.todo") { RecordingLogHandler(label: $0, recordingTo: journal) })
    }

    /// Sends the list to its server, logging as an app does around a request: here the server is
    /// slow, then answers 503 (the demo has no network). The token is a secret: recorded, it is
    /// redacted.
    public func sync(token: String) {
        dispatch("sync") { context in
            let count = context.currentState?.items.count ?? 0
            logger.info("syncing \(count) items", metadata: ["items": "\(count)", "token": "\(token)"])
            logger.warning("sync slow: no answer after 2 s", metadata: ["attempt": "1"])
            logger.error("sync failed: 503 Service Unavailable", metadata: ["status": "503", "retryIn": "30s"])
        }
    }
}
