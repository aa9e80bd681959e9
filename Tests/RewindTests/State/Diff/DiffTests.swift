import OrderedCollections
import Testing
@_spi(Tooling) @testable import Rewind

@Suite("Structural diff")
struct DiffTests {
    @Test("inserting at the front of an array is one change")
    func frontInsertion() throws {
        let old = StateValue.array((1...20).map { .integer($0) })
        let new = StateValue.array([.integer(0)] + (1...20).map { .integer($0) })
        let changes = StateDiff(from: old, to: new)
        #expect(changes.changes == [StateChange(path: [.index(0)], operation: .added(.integer(0)))])
        #expect(try old.applying(changes) == new)
    }

    @Test("an edited element is a change inside it, found after an insertion before it")
    func editAfterInsertion() throws {
        func item(_ id: Int, _ done: Bool) -> StateValue { .object(["id": .integer(Int64(id)), "done": .bool(done)]) }
        let old = StateValue.object(["items": .array([item(1, false), item(2, false)])])
        let new = StateValue.object(["items": .array([item(0, false), item(1, false), item(2, true)])])
        let changes = StateDiff(from: old, to: new)
        #expect(changes.changes.map(\.path.description) == ["items[0]", "items[2].done"])
        #expect(changes.changes[1].operation == .changed(from: .bool(false), to: .bool(true)))
        #expect(try old.applying(changes) == new)
    }

    @Test("long arrays of identified items: an append, a removal and an edit are one change each, found without a table as large as both arrays")
    func longIdentifiedArrays() throws {
        func item(_ id: Int, _ done: Bool = false) -> StateValue { .object(["id": .integer(Int64(id)), "done": .bool(done)]) }
        let items = (0..<5_000).map { item($0) }
        let appended = StateDiff(from: .array(items), to: .array(items + [item(5_000)]))
        #expect(appended.changes.map(\.path.description) == ["[5000]"])
        var removed = items
        removed.remove(at: 2_500)
        #expect(StateDiff(from: .array(items), to: .array(removed)).changes.map(\.path.description) == ["[2500]"])
        var edited = items
        edited[4_321] = item(4_321, true)
        #expect(StateDiff(from: .array(items), to: .array(edited)).changes.map(\.path.description) == ["[4321].done"])
        var plain = (0..<5_000).map { StateValue.integer(Int64($0)) }
        let before = plain
        plain.insert(.integer(-1), at: 1_000)
        #expect(StateDiff(from: .array(before), to: .array(plain)).changes.count == 1)
    }

    @Test("fields added, removed and changed, by path")
    func objectChanges() throws {
        let old = StateValue.object(["name": .string("a"), "age": .integer(3), "nick": .null])
        let new = StateValue.object(["name": .string("b"), "email": .string("x@y"), "age": .integer(3)])
        let changes = StateDiff(from: old, to: new)
        #expect(changes.changes == [
            StateChange(path: [.key("nick")], operation: .removed(.null)),
            StateChange(path: [.key("name")], operation: .changed(from: .string("a"), to: .string("b"))),
            StateChange(path: [.key("email")], operation: .added(.string("x@y")), fieldPosition: 1),
        ])
        #expect(try old.applying(changes) == new)
        #expect(StateDiff(from: new, to: new).isEmpty)
    }

    @Test("a diff applied to the wrong tree is an error, not a crash")
    func misapplied() {
        let changes = StateDiff(from: .object(["a": .array([.integer(1)])]), to: .object(["a": .array([])]))
        #expect(throws: DiffApplicationError.self) { try StateValue.object(["a": .integer(1)]).applying(changes) }
        #expect(throws: DiffApplicationError.self) { try StateValue.object([:]).applying(changes) }
    }

    @Test("a.applying(diff(a, b)) == b for thousands of random trees")
    func applyReproducesTheNewTree() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        for round in 0..<3_000 {
            let old = RandomTrees.tree(depth: 4, using: &generator)
            // Half the time a related tree (what state changes look like), half an unrelated one.
            let new = round.isMultiple(of: 2)
                ? RandomTrees.mutated(old, using: &generator)
                : RandomTrees.tree(depth: 4, using: &generator)
            let changes = StateDiff(from: old, to: new)
            let rebuilt = try old.applying(changes)
            #expect(rebuilt == new, "round \(round): \(old) -> \(new) via \(changes.changes)")
            if rebuilt != new { return }
            #expect(changes.isEmpty == (old == new))
        }
    }

    @Test("applying a diff is linear: 200,000 insertions into a 200,000-element array", .timeLimit(.minutes(10)))
    func applyingManyInsertionsIsLinear() throws {
        // One insertion between each pair of elements: applied one at a time, each shifted the rest
        // of the array (4 × 10^10 moves, minutes); applied in one pass it is milliseconds.
        let count = 200_000
        let old = StateValue.array((0..<count).map { .integer(Int64($0)) })
        let changes = (0..<count).map { StateChange(path: StatePath([.index(2 * $0)]), operation: .added(.string("new"))) }
        let new = try old.applying(StateDiff(changes: changes))
        guard case .array(let elements) = new else { Issue.record("not an array"); return }
        #expect(elements.count == 2 * count)
        #expect(elements[0] == .string("new") && elements[1] == .integer(0) && elements[2 * count - 1] == .integer(Int64(count - 1)))
    }

    @Test("many fields added between existing ones keep their positions, in one pass", .timeLimit(.minutes(10)))
    func applyingManyFieldAdditions() throws {
        var oldFields = StateObjectFields()
        var newFields = StateObjectFields()
        for index in 0..<50_000 {
            newFields["added\(index)"] = .integer(Int64(index))
            oldFields["kept\(index)"] = .bool(true)
            newFields["kept\(index)"] = .bool(index % 2 == 0)
        }
        let old = StateValue.object(oldFields), new = StateValue.object(newFields)
        #expect(try old.applying(StateDiff(from: old, to: new)) == new)
    }

    @Test("a change further back in an array than one already made is refused, not paid for")
    func outOfOrderArrayChanges() throws {
        let old = StateValue.array([.integer(0), .integer(1), .integer(2)])
        let backwards = StateDiff(changes: [
            StateChange(path: StatePath([.index(3)]), operation: .added(.integer(3))),
            StateChange(path: StatePath([.index(0)]), operation: .added(.integer(-1))),
        ])
        #expect(throws: DiffApplicationError.self) { try old.applying(backwards) }
        // Touching the latest position again is the order diff makes (a removal, then an insertion there).
        let replaceLast = StateDiff(changes: [
            StateChange(path: StatePath([.index(2)]), operation: .removed(.null)),
            StateChange(path: StatePath([.index(2)]), operation: .added(.integer(9))),
        ])
        #expect(try old.applying(replaceLast) == .array([.integer(0), .integer(1), .integer(9)]))
    }

    @Test("rendering shows only what changed, inside its parents, with folded context")
    func rendering() {
        func item(_ title: String, _ done: Bool) -> StateValue { .object(["title": .string(title), "done": .bool(done)]) }
        let old = StateValue.object(["title": .string("Groceries"), "items": .array([item("milk", false), item("eggs", false), item("tea", false)])])
        let new = StateValue.object(["title": .string("Groceries"), "items": .array([item("milk", false), item("eggs", true), item("tea", false), item("jam", false)])])
        #expect(DiffRenderer().render(from: old, to: new) == """
              {
                items: [
                  [1]: {
            -       done: false
            +       done: true
                    … 1 unchanged
                  }
            +     [3]: {title: "jam", done: false}
                  … 2 unchanged
                ]
                … 1 unchanged
              }
            """)
        #expect(DiffRenderer().render(from: .integer(1), to: .integer(1)).isEmpty)
        #expect(DiffRenderer().render(from: .integer(1), to: .string("x\u{1B}[2J")) == "- 1\n+ \"x\\u{1B}[2J\"")
    }
}

/// A deterministic random number generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum RandomTrees {
    static let keys = ["a", "b", "c", "d", "e", "f"]

    static func leaf(using generator: inout SeededGenerator) -> StateValue {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: .null
        case 1: .bool(Bool.random(using: &generator))
        case 2: .integer(Int64.random(in: -3...3, using: &generator))
        case 3: .floatingPoint(Double(Int.random(in: 0...4, using: &generator)) / 2)
        case 4: .string(["x", "y", "z"].randomElement(using: &generator)!)
        default: .opaque(OpaqueValue(typeName: "T", text: "s"))
        }
    }

    static func tree(depth: Int, using generator: inout SeededGenerator) -> StateValue {
        guard depth > 0 else { return leaf(using: &generator) }
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return leaf(using: &generator)
        case 1:
            return .array((0..<Int.random(in: 0...5, using: &generator)).map { _ in tree(depth: depth - 1, using: &generator) })
        default:
            var fields = StateObjectFields()
            for key in keys.shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator)) {
                fields[key] = tree(depth: depth - 1, using: &generator)
            }
            return .object(fields)
        }
    }

    /// A copy with a few random edits: changed leaves, inserted and removed elements and fields.
    static func mutated(_ value: StateValue, using generator: inout SeededGenerator) -> StateValue {
        switch value {
        case .array(var elements):
            for _ in 0..<Int.random(in: 0...2, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: elements.insert(tree(depth: 2, using: &generator), at: Int.random(in: 0...elements.count, using: &generator))
                case 1 where !elements.isEmpty: elements.remove(at: Int.random(in: 0..<elements.count, using: &generator))
                default: break
                }
            }
            return .array(elements.map { Bool.random(using: &generator) ? mutated($0, using: &generator) : $0 })
        case .object(var fields):
            if Int.random(in: 0..<4, using: &generator) == 0, let key = keys.randomElement(using: &generator) {
                if fields[key] == nil {
                    fields.updateValue(tree(depth: 2, using: &generator), forKey: key, insertingAt: Int.random(in: 0...fields.count, using: &generator))
                } else {
                    fields.removeValue(forKey: key)
                }
            }
            if Int.random(in: 0..<10, using: &generator) == 0 { fields.reverse() }
            for key in fields.keys where Bool.random(using: &generator) {
                fields[key] = mutated(fields[key]!, using: &generator)
            }
            return .object(fields)
        default:
            return Int.random(in: 0..<3, using: &generator) == 0 ? leaf(using: &generator) : value
        }
    }
}

@Suite("Resolving subscripts from the states around a change")
struct SubscriptResolutionTests {
    func board(_ done: [Bool], tags: [String: String] = [:]) -> StateValue {
        .object([
            "items": .array(done.enumerated().map { .object(["id": .integer(Int64($0.offset)), "done": .bool($0.element)]) }),
            "tags": .object(StateObjectFields(uniqueKeysWithValues: tags.map { ($0.key, .string($0.value)) }.sorted { $0.0 < $1.0 })),
        ])
    }

    @Test("the one element or field that differs names the subscript; nested subscripts resolve in turn")
    func resolves() {
        let before = board([false, false, false], tags: ["a": "x", "b": "y"])
        #expect(SubscriptResolution.resolve("items[…].done", before: before, after: board([false, true, false], tags: ["a": "x", "b": "y"]))?.description == "items[1].done")
        #expect(SubscriptResolution.resolve("tags[…]", before: before, after: board([false, false, false], tags: ["a": "x", "b": "z"]))?.description == "tags.b")
        let nestedBefore = StateValue.array([.array([.integer(1), .integer(2)]), .array([.integer(3), .integer(4)])])
        let nestedAfter = StateValue.array([.array([.integer(1), .integer(2)]), .array([.integer(3), .integer(5)])])
        #expect(SubscriptResolution.resolve("[…][…]", before: nestedBefore, after: nestedAfter)?.description == "[1][1]")
    }

    @Test("nothing or several differing, a size change, or no subscript at all: not resolved")
    func ambiguous() {
        let before = board([false, false, false])
        #expect(SubscriptResolution.resolve("items[…].done", before: before, after: before) == nil)
        #expect(SubscriptResolution.resolve("items[…].done", before: before, after: board([true, true, false])) == nil)
        #expect(SubscriptResolution.resolve("items[…].done", before: before, after: board([false, false])) == nil)
        #expect(SubscriptResolution.resolve("items", before: before, after: board([true, false, false])) == nil)
        #expect(SubscriptResolution.resolve("….done", before: before, after: board([true, false, false])) == nil)
    }
}
