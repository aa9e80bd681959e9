import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Testing

@Suite("Journal round trip")
struct JournalRoundTripTests {
    struct Item: Codable, Equatable { var title: String; var done: Bool }
    struct TodoState: Codable, Equatable { var items: [Item] = []; var filter = "all"; var owner: String? }

    final class Todos: CyclerType, Sendable {
        enum Activity: Codable { case saved(Int) }
        let state: Storage<TodoState> = .init(.init())
        func add(_ title: String) {
            dispatch("add", "append an item") { context in
                context.commit("append") { state in
                    state.update(state.value.items + [Item(title: title, done: false)], \.items)
                }
                context.emit(.saved(context.currentState?.items.count ?? 0))
            }
        }
    }

    @Test("every event kind survives the round trip through a file, with all its fields")
    func everyKindRoundTrips() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("kinds.rewind")
        let journal = try JournalLogger(path: path)
        let memory = InMemoryLogger()
        do {
            let todos = Todos()
            todos.set(logger: MultiplexLogger([journal, memory]))
            todos.add("tea")
            todos.commit("rename") { $0.replace(TodoState(items: [Item(title: "jam", done: true)], filter: "done", owner: "ada")) }
            // A storage on its own: changes outside any commit carry the state themselves.
            let storage = MutableStorage(TodoState())
            storage.set(logger: MultiplexLogger([journal, memory]))
            storage.update("none", \.filter)
            // A dispatch carrying its input (a replayable action, an input value, a mixer payload).
            let channel = EventChannel(source: todos.eventSource)
            channel.emit(.willDispatch(input: LoggedValue(Item(title: "tea", done: true))), name: "toggle", callSite: .unknown, to: MultiplexLogger([journal, memory]))
        }
        journal.close()

        let reader = try JournalReader(path: path)
        let recorded = reader.allEvents()
        let live = memory.events
        #expect(recorded.count == live.count)
        #expect(Set(recorded.map(\.kind)) == [.created, .willDispatch, .willMutate, .change, .didMutate, .activity, .didDispatch, .replace, .released])
        for (read, original) in zip(recorded, live) {
            #expect(read.sequence == original.sequence)
            #expect(read.kind == original.kind.category)
            #expect(read.name == original.name)
            if case .created(let state?) = original.kind {
                // A unit's first record carries its state type's schema, for a replay on a later build.
                #expect(read.description == TypeSchema(of: state.value).recordedText)
            } else {
                #expect(read.description == original.description)
            }
            #expect(read.parent == original.parent)
            #expect(read.file == original.callSite.file.description)
            #expect(read.function == original.callSite.function.description)
            #expect(read.line == original.callSite.line)
            #expect(read.wallNanoseconds == original.time.wallNanoseconds)
            #expect(read.monotonicNanoseconds == original.time.monotonicNanoseconds)
            #expect(read.source.instanceID == original.source.instanceID)
            #expect(read.source.typeName == original.source.typeName)
            #expect(read.source.framework == original.source.framework.rawValue)
            switch original.kind {
            case .didDispatch(let duration), .didMutate(let duration, _):
                #expect(read.duration == duration)
            case .change(let path, let value, _):
                #expect(read.path == path.description)
                #expect(read.value == value.tree())
            case .activity(let value):
                #expect(read.value == value.tree())
            case .willDispatch(let input):
                #expect(read.value == input?.tree())
            default:
                break
            }
            if let state = original.kind.state, original.kind.category != .change || read.carriesState {
                #expect(try reader.state(of: read.source.instanceID, at: read.sequence) == state.tree())
            }
        }
        #expect(reader.damage.isEmpty)
        #expect(reader.hasIndex)
        #expect(reader.header.writerVersion == RewindVersion.current)
    }
}
