import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Testing

@Suite("Journal random access")
struct JournalRandomAccessTests {
    struct Item: Codable, Equatable { var id: Int; var title: String; var done: Bool }
    struct Board: Codable, Equatable { var items: [Item]; var selected: Int?; var title: String }

    final class BoardModel: CyclerType, Sendable {
        let state: Storage<Board> = .init(Board(items: (0..<20).map { Item(id: $0, title: "item \($0)", done: false) }, selected: nil, title: "board"))
    }

    /// The value with every object's fields sorted by key: for comparing states whose fields may
    /// stand in another order.
    static func sortingFields(_ value: StateValue) -> StateValue {
        switch value {
        case .object(let fields):
            var sorted = StateObjectFields()
            for key in fields.keys.sorted() { sorted[key] = sortingFields(fields[key]!) }
            return .object(sorted)
        case .array(let elements): return .array(elements.map(sortingFields))
        default: return value
        }
    }

    /// Damages the middle block of the journal at `path` (a byte of its compressed payload
    /// flipped), so that block no longer reads back.
    static func damageMiddleBlock(of path: String) throws {
        let reader = try JournalReader(path: path)
        let block = reader.blocks[reader.blocks.count / 2]
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[block.offset + JournalFormat.frameHeaderLength + 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Records a session with many kinds of state change, in several small blocks.
    static func record(to path: String, steps: Int, seed: UInt64, alsoTo memory: InMemoryLogger = InMemoryLogger()) throws -> (boards: [UInt64], other: UInt64) {
        var configuration = JournalConfiguration()
        configuration.blockSize = 2 * 1024
        configuration.keyframeInterval = 16
        let journal = try JournalLogger(path: path, configuration: configuration)
        let first = BoardModel(), second = BoardModel()
        first.set(logger: MultiplexLogger([journal, memory]))
        second.set(logger: MultiplexLogger([journal, memory]))
        var generator = SplitMix(seed: seed)
        for step in 0..<steps {
            let model = generator.next() % 3 == 0 ? second : first
            switch generator.next() % 5 {
            case 0:
                model.commit("toggle") { state in
                    guard !state.value.items.isEmpty else { return }
                    let index = Int(generator.next() % UInt64(state.value.items.count))
                    state.update(!state.value.items[index].done, \.items[index].done)
                }
            case 1:
                model.commit("insert") { state in
                    var items = state.value.items
                    items.insert(Item(id: 100 + step, title: "new \(step)", done: false), at: Int(generator.next() % UInt64(items.count + 1)))
                    state.update(items, \.items)
                }
            case 2:
                model.commit("remove") { state in
                    guard !state.value.items.isEmpty else { return }
                    var items = state.value.items
                    items.remove(at: Int(generator.next() % UInt64(items.count)))
                    state.update(items, \.items)
                }
            case 3 where step % 2 == 0:
                model.commit("select") { $0.update(Int(generator.next() % 10), \.selected) }
            case 3:
                model.commit("deselect") { $0.update(nil, \.selected) }
            default:
                model.commit("rename") { $0.update("board \(step)", \.title) }
            }
        }
        journal.close()
        return ([first.eventSource.instanceID, second.eventSource.instanceID], first.eventSource.instanceID)
    }

    @Test("the state at random steps, by random access, equals the state rebuilt from the first event")
    func randomAccessMatchesSequentialReplay() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("board.rewind")
        let memory = InMemoryLogger()
        let sources = try Self.record(to: path, steps: 600, seed: 7, alsoTo: memory).boards
        let reader = try JournalReader(path: path)
        #expect(reader.blocks.count > 10)
        #expect(reader.damage.isEmpty)

        // Rebuild every state by walking the whole journal from the first event. A change the walk
        // cannot apply (`selected` from nil: Codable left the field out) leaves the state as it was,
        // by the one rule of `StateFold`, for random access too.
        var walker = StateWalker()
        var expected: [(sequence: UInt64, source: UInt64, state: StateValue?, walked: Bool)] = []
        let events = reader.allEvents()
        for event in events {
            let moved = walker.advance(event) != nil
            let walked = moved || event.stateStep == nil
            expected.append((event.sequence, event.source.instanceID, walker.state(of: event.source.instanceID), walked))
        }
        #expect(expected.contains { !$0.walked })
        var generator = SplitMix(seed: 99)
        for _ in 0..<300 {
            let pick = expected[Int(generator.next() % UInt64(expected.count))]
            let source = sources[Int(generator.next() % 2)]
            guard let sequential = expected.last(where: { $0.source == source && $0.sequence <= pick.sequence }) else { continue }
            #expect(try reader.state(of: source, at: pick.sequence) == sequential.state)
            #expect(try reader.event(sequence: pick.sequence)?.sequence == pick.sequence)
        }
        // Every recorded state equals the live state at that step (the writer derives states between
        // keyframes from the changes; this checks it against the real thing).
        // After a change inside a commit the state already holds the change, though only the
        // commit's didMutate carries a state record.
        #expect(events.filter { $0.kind == .change && !$0.carriesState }.count > 100)
        let unapplied = Set(expected.filter { !$0.walked }.map(\.sequence))
        for event in memory.events {
            switch event.kind {
            case .didMutate(_, let live):
                #expect(try reader.state(of: event.source.instanceID, at: event.sequence) == live.tree())
            case .change(_, _, .some(let live)):
                // Every commit here makes one change: after it, the state is the commit's — unless
                // the change could not be applied (`selected` set to nil), when it is the state
                // before it. A field the change added (`selected` from nil) sits at the end of the
                // state until the commit's record puts it in its place: the same fields, in
                // another order.
                let expectedState = unapplied.contains(event.sequence)
                    ? try reader.state(of: event.source.instanceID, at: event.sequence - 1) : live.tree()
                let read = try reader.state(of: event.source.instanceID, at: event.sequence)
                #expect(read.map(Self.sortingFields) == expectedState.map(Self.sortingFields))
            default:
                continue
            }
        }
        // Every change's value reads back as it was made, whether the journal wrote it whole or as
        // a diff from the state before it (an insertion into the list: the item, not the list).
        let recordedValues = Dictionary(uniqueKeysWithValues: events.filter { $0.kind == .change }.map { ($0.sequence, $0.value) })
        var listChanges = 0
        for event in memory.events {
            guard case .change(let path, let value, _) = event.kind else { continue }
            #expect(recordedValues[event.sequence] == value.tree())
            if path.description == "items" { listChanges += 1 }
        }
        #expect(listChanges > 100)
        // And the final state decodes to the live type.
        let last = try #require(try reader.state(of: sources[0], at: reader.sequenceRange!.upperBound))
        _ = try StateCapture.decode(Board.self, from: last)
    }

    /// A journal at `path` with keyframes far apart (so that states are derived from changes), and
    /// an in-memory logger beside it that keeps the live events.
    static func derivingJournal(at path: String) throws -> (journal: JournalLogger, memory: InMemoryLogger, both: MultiplexLogger) {
        var configuration = JournalConfiguration()
        configuration.keyframeInterval = 1_000
        let journal = try JournalLogger(path: path, configuration: configuration)
        let memory = InMemoryLogger()
        return (journal, memory, MultiplexLogger([journal, memory]))
    }

    /// Checks that every commit's state, as the journal reads back, is the live state it ended with;
    /// returns how many commits it compared.
    @discardableResult
    static func expectCommitsRecordedExactly(_ memory: InMemoryLogger, in reader: JournalReader) throws -> Int {
        var compared = 0
        for event in memory.events {
            guard case .didMutate(_, let live) = event.kind else { continue }
            #expect(try reader.state(of: event.source.instanceID, at: event.sequence) == live.tree())
            compared += 1
        }
        return compared
    }

    @Test("commits mixing subscript and named changes record exactly the live state after each")
    func mixedChangesInOneCommit() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("mixed.rewind")
        let (journal, memory, both) = try Self.derivingJournal(at: path)
        let model = BoardModel()
        model.set(logger: both)
        var generator = SplitMix(seed: 3)
        for step in 0..<200 {
            model.commit("mixed") { state in
                for _ in 0..<Int(generator.next() % 4) {
                    let index = Int(generator.next() % UInt64(state.value.items.count))
                    switch generator.next() % 3 {
                    case 0: state.update(!state.value.items[index].done, \.items[index].done)
                    case 1: state.update("item \(step)", \.items[index].title)
                    default: state.update("board \(step)", \.title)
                    }
                }
            }
        }
        journal.close()
        #expect(try Self.expectCommitsRecordedExactly(memory, in: JournalReader(path: path)) == 200)
    }

    @Test("commits that set scalars in place, then a list, a whole state or a nested commit after them, record exactly the live state after each")
    func inPlaceChangesGiveTheStateBack() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("in-place.rewind")
        let (journal, memory, both) = try Self.derivingJournal(at: path)
        let model = BoardModel()
        model.set(logger: both)
        var generator = SplitMix(seed: 11)
        for step in 0..<400 {
            model.commit("step") { state in
                let count = state.value.items.count
                // First a scalar change (set in place on the writer), then whatever comes next.
                state.update(step % 2 == 0, \.items[step % count].done)
                switch generator.next() % 6 {
                case 0: state.update(state.value.items + [Item(id: count, title: "new \(step)", done: false)], \.items)
                case 1: state.update { $0.title = "replaced \(step)" }
                case 2: model.commit("nested") { $0.update("nested \(step)", \.title) }
                case 3: state.update(Int(generator.next() % 5), \.selected)
                case 4: state.update(state.value.items[0].title, \.items[0].title)  // the value it has
                default: break
                }
            }
        }
        journal.close()
        // Every outer commit, and the nested ones among them.
        #expect(try Self.expectCommitsRecordedExactly(memory, in: JournalReader(path: path)) > 400)
    }

    @Test("a change through a subscript key path is recorded with its index, though Linux prints it as […]")
    func subscriptIndexIsRecorded() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("indices.rewind")
        let journal = try JournalLogger(path: path)
        let model = BoardModel()
        model.set(logger: journal)
        model.commit("toggle") { $0.update(true, \.items[7].done) }
        model.commit("two") { state in
            state.update("renamed", \.items[3].title)
            state.update(true, \.items[12].done)
        }
        model.commit("element") { $0.update(Item(id: 99, title: "new", done: true), \.items[0]) }
        // Writing the value an element already has changes nothing, yet the index is still found.
        model.commit("same") { $0.update(false, \.items[5].done) }
        model.commit("same title") { $0.update("item 9", \.items[9].title) }
        journal.close()
        let changes = try JournalReader(path: path).allEvents().filter { $0.kind == .change }.compactMap(\.path)
        #expect(changes == ["items[7].done", "items[3].title", "items[12].done", "items[0]", "items[5].done", "items[9].title"])
    }

    struct Shelves: Codable, Equatable {
        struct Shelf: Codable, Equatable { var name: String; var rows: [[Int]] }
        var shelves: [Shelf]
        var pinned: Shelf?
    }

    final class ShelvesModel: CyclerType, Sendable {
        let state: Storage<Shelves> = .init(Shelves(
            shelves: (0..<4).map { Shelves.Shelf(name: "shelf \($0)", rows: [[1, 2, 3], [4, 5, 6]]) },
            pinned: Shelves.Shelf(name: "pinned", rows: [[7, 8]])
        ))
    }

    @Test("nested subscripts and subscripts behind an optional are resolved, and the states stay exact")
    func nestedSubscriptsAreResolved() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shelves.rewind")
        let (journal, memory, both) = try Self.derivingJournal(at: path)
        let model = ShelvesModel()
        model.set(logger: both)
        model.commit("nested") { $0.update(99, \.shelves[2].rows[1][0]) }
        model.commit("name") { $0.update("renamed", \.shelves[3].name) }
        model.commit("optional") { $0.update(70, \.pinned!.rows[0][1]) }
        model.commit("two in one") { state in
            state.update(11, \.shelves[0].rows[0][2])
            state.update("first", \.shelves[1].name)
        }
        // A write of the value already there, nested, and of a whole element.
        model.commit("same nested") { $0.update(5, \.shelves[1].rows[1][1]) }
        model.commit("same shelf") { $0.update(Shelves.Shelf(name: "renamed", rows: [[1, 2, 3], [4, 5, 6]]), \.shelves[3]) }
        journal.close()
        let reader = try JournalReader(path: path)
        let changes = reader.allEvents().filter { $0.kind == .change }.compactMap(\.path)
        #expect(changes == ["shelves[2].rows[1][0]", "shelves[3].name", "pinned.rows[0][1]", "shelves[0].rows[0][2]", "shelves[1].name", "shelves[1].rows[1][1]", "shelves[3]"])
        #expect(try Self.expectCommitsRecordedExactly(memory, in: reader) == 6)
    }

    final class Note: Codable, @unchecked Sendable {
        // Unchecked: the test mutates it on one thread, before the journal closes.
        var text: String
        init(_ text: String) { self.text = text }
    }

    struct Notes: Codable { var notes: [Note] }

    final class NotesModel: CyclerType, Sendable {
        let state: Storage<Notes> = .init(Notes(notes: [Note("a"), Note("b")]))
    }

    @Test("a list of objects is captured whole: an object edited in place is recorded as it is")
    func objectsInAListAreCapturedWhole() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("notes.rewind")
        let journal = try JournalLogger(path: path)
        let model = NotesModel()
        model.set(logger: journal)
        model.commit("append") { $0.update($0.value.notes + [Note("c")], \.notes) }
        try journal.flush()
        model.state.value.notes[0].text = "edited in place"
        model.commit("append") { $0.update($0.value.notes + [Note("d")], \.notes) }
        journal.close()
        let last = try #require(JournalReader(path: path).allEvents().last { $0.kind == .change })
        #expect(last.value == StateCapture.capture(["edited in place", "b", "c", "d"].map(Note.init)))
    }

    @Test("filters pick events by source, kind, text and range without reading everything")
    func filters() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("board.rewind")
        let sources = try Self.record(to: path, steps: 200, seed: 3).boards
        let reader = try JournalReader(path: path)
        let all = reader.allEvents()
        let renames = Array(reader.events(matching: EventFilter(sourceIDs: [sources[1]], kinds: [.willMutate], text: "RENAME")))
        #expect(renames == all.filter { $0.source.instanceID == sources[1] && $0.kind == .willMutate && $0.name == "rename" })
        #expect(!renames.isEmpty)
        let range = all[50].sequence...all[80].sequence
        #expect(Array(reader.events(matching: EventFilter(sequences: range))).map(\.sequence) == all.filter { range.contains($0.sequence) }.map(\.sequence))
        let summary = reader.sources
        #expect(summary.count == 2)
        #expect(summary.reduce(0) { $0 + $1.eventCount } == all.count)
        #expect(reader.eventCount == all.count)
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
