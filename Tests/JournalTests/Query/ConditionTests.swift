import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

@Suite("Conditions over recorded state")
struct ConditionTests {
    static let fixtures = Repository.path("Fixtures")

    static func steps(_ condition: String, in file: String = "todo") throws -> [UInt64] {
        let reader = try JournalReader(path: fixtures + "/\(file).rewind")
        return reader.steps(where: try Condition(parsing: condition)).map(\.event.sequence)
    }

    @Test("each expression holds at exactly the steps it should, over the todo fixture", arguments: [
        // Key paths compared with values, && and ||, .count of a list and of a text.
        ("items.count >= 3 && filter == \"active\"", Array(42...59) as [UInt64]),
        ("title.count == 9", range(1...67, and: 71, 72)),
        ("nextID > 2.5", range(12...67, and: 71, 72)),
        ("nextID == 4 || nextID == 5", Array(19...54)),
        ("!(filter == \"all\")", range(42...59, and: 68, 69, 70)),
        // Elements by position and by id; a nested list's count.
        ("items[0].title == \"Coffee\"", range(29...67, and: 71, 72)),
        ("items[1].tags.count == 1 && items[1].done", range(46...67, and: 71, 72)),
        ("items[id: 3].title == \"Sourdough\"", range(37...67, and: 71, 72)),
        // changed(…) and old(…): what the step did.
        // At a commit's end (`mutated`), before is where the commit began.
        ("changed(items[id: 2].done)", [11, 13, 25, 26, 50, 51]),
        ("changed(items) || changed(nextID)", [1, 4, 5, 6, 11, 12, 13, 18, 19, 20, 25, 26, 29, 30, 31, 37, 39, 46, 47, 50, 51, 54, 55, 56, 64, 65]),
        ("filter != old(filter)", [1, 42, 43, 60, 61]),
        ("kind == mutated && changed(items) && changed(nextID)", [6, 13, 20, 31, 56]),
        ("kind == mutated && changed(items) && !changed(nextID)", [26, 39, 47, 51, 65]),
        ("kind == change && changed(items) && changed(nextID)", []),
        // The step's own kind (as rows say it, or as JSON names it), name and number.
        ("kind == dispatch && name == \"toggle\"", [23, 44, 62]),
        ("kind == willDispatch", [2, 9, 16, 23, 32, 44, 52, 62, 67]),
        ("seq > 60 && kind == mutated", [61, 65]),
        ("source == \"TodoSample#1\" && seq <= 2", [1, 2]),
        // A missing path is nil (68–70 are the sync's log messages: a logger has no state); comparing across types is false, not an error.
        ("nothing == nil && title != nil", range(1...67, and: 71, 72)),
        ("title > 3", []),
    ])
    func table(condition: String, expected: [UInt64]) throws {
        #expect(try Self.steps(condition) == expected, "\(condition)")
    }

    @Test("a mistake names its column and what was expected there", arguments: [
        ("count > && x", 9, "expected a value or a key path"),
        ("count = 3", 7, "write == to compare"),
        ("items[id: 3.done == true", 6, "no closing ]"),
        ("\"abc", 1, "no closing \""),
        ("kind == dispatched", 9, "unknown kind 'dispatched'"),
        ("(count > 1", 11, "expected ) to close the ( at column 1"),
        ("", 1, "expected a condition"),
        ("count > 1 extra", 11, "expected && or || or the end"),
        ("changed(3)", 9, "expected a key path inside changed"),
        ("count # 3", 7, "unexpected '#'"),
        ("items[x] == 1", 7, "expected an index"),
        ("count(items) > 1", 1, "count(…) counts the elements a path through [*] goes over"),
        ("items[*]done", 9, "expected . or [ after [*]"),
        ("count(items[*].done && old(items[*].done)) > 0", 1, "write old(count(…))"),
        ("old(count(changed(items[*].done))) > 0", 5, "changed(…) cannot be read inside old(…)"),
        ("count(items[*].done > 1", 24, "expected ) to close the count( at column 1"),
        ("count(groups[*].ok && count(groups[*].ok) > 1) > 0", 1, "a count(…) inside count(…) over the same list groups is not supported"),
        ("count(count(groups[*].members[*].ok) > 1) > 0", 1, "count(…) counts the elements a path through [*] goes over"),
    ])
    func errors(condition: String, column: Int, reason: String) {
        #expect(throws: ConditionSyntaxError.self) { try Condition(parsing: condition) }
        do {
            _ = try Condition(parsing: condition)
        } catch {
            #expect(error.column == column, "\(condition): \(error.description)")
            #expect(error.reason.contains(reason), "\(condition): \(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("[*] holds when some element holds it, and count(…) counts the elements it holds for, each read as one element: against the todo states read directly")
    func wildcardsAndCounts() throws {
        let reader = try JournalReader(path: Self.fixtures + "/todo.rewind")
        var states: [(sequence: UInt64, before: [StateObjectFields], after: [StateObjectFields])] = []
        var previous: [StateObjectFields] = []
        for event in reader.events() {
            guard case .object(let fields)? = try reader.state(of: event.source.instanceID, at: event.sequence),
                  case .array(let list)? = fields["items"] else { continue }
            let items = list.map { element -> StateObjectFields in if case .object(let item) = element { item } else { StateObjectFields() } }
            states.append((event.sequence, previous, items))
            previous = items
        }
        func tagCount(_ item: StateObjectFields) -> Int { if case .array(let tags)? = item["tags"] { tags.count } else { 0 } }
        let expectations: [(String, ([StateObjectFields], [StateObjectFields]) -> Bool)] = [
            ("items[*].done", { _, after in after.contains { $0["done"] == .bool(true) } }),
            ("items[*].done != true", { _, after in after.contains { $0["done"] != .bool(true) } }),
            ("items[*].title == \"Sourdough\"", { _, after in after.contains { $0["title"] == .string("Sourdough") } }),
            ("count(items[*].done) == 1", { _, after in after.count { $0["done"] == .bool(true) } == 1 }),
            // One element at a time: an item both done and tagged, not one done and another tagged.
            ("count(items[*].done && items[*].tags.count > 0) >= 1", { _, after in after.contains { $0["done"] == .bool(true) && tagCount($0) > 0 } }),
            ("count(items[*].tags.count == 0) == items.count", { _, after in after.allSatisfy { tagCount($0) == 0 } }),
            ("kind == change && count(items[*].done) > old(count(items[*].done))",
             { before, after in after.count { $0["done"] == .bool(true) } > before.count { $0["done"] == .bool(true) } }),
        ]
        for (text, holds) in expectations {
            let condition = try Condition(parsing: text)
            let found = reader.steps(where: condition).map(\.event.sequence)
            let kinds = Dictionary(uniqueKeysWithValues: reader.events().map { ($0.sequence, $0.kind) })
            let expected = states.filter { step in
                (!text.hasPrefix("kind == change") || kinds[step.sequence] == .change) && holds(step.before, step.after)
            }.map(\.sequence)
            #expect(!expected.isEmpty || text.contains("tags.count > 0"), "\(text) holds nowhere: the check proves nothing")
            #expect(found == expected, "\(text)")
        }
        // Over a list that has no elements, some element never holds.
        let empty = ConditionStep(event: try #require(try reader.event(sequence: 1)), before: nil, after: .object(["items": .array([])]))
        #expect(!(try Condition(parsing: "items[*].done != true").isTrue(at: empty)))
        #expect(try Condition(parsing: "count(items[*].done) == 0").isTrue(at: empty))
        // A count nested in another counts its own list: here the tags named "x", for each of which
        // some item is done.
        let both = ConditionStep(event: empty.event, before: nil, after: .object([
            // Three items, two tags "x": counting the items (the wrong list) would say 3.
            "items": .array([.object(["done": .bool(true)]), .object(["done": .bool(false)]), .object(["done": .bool(true)])]),
            "tags": .array([.string("x"), .string("y"), .string("x")]),
        ]))
        #expect(try Condition(parsing: "count(count(items[*].done) > 0 && tags[*] == \"x\") == 2").isTrue(at: both))
    }

    @Test("a condition nested deeper than the parser allows is a one-line error at the column it goes too deep, not a crash", arguments: [
        (String(repeating: "(", count: 10_000) + "count > 1" + String(repeating: ")", count: 10_000), ConditionParser.maximumNesting + 1),
        (String(repeating: "!", count: 50_000) + "done", ConditionParser.maximumNesting + 1),
        (String(repeating: "!(", count: 5_000) + "done" + String(repeating: ")", count: 5_000), ConditionParser.maximumNesting + 1),
    ])
    func tooDeep(condition: String, column: Int) throws {
        do {
            _ = try Condition(parsing: condition)
            Issue.record("a condition nested \(condition.count / 2) deep parsed")
        } catch {
            #expect(error.column == column && error.reason.contains("nests more than"), "\(error.reason) at \(error.column)")
            #expect(!error.description.contains("\n") && error.description.count < 200, "\(error.description.count) characters")
        }
        // As deep as allowed is still a condition.
        let deepest = String(repeating: "(", count: ConditionParser.maximumNesting) + "nextID == 4" + String(repeating: ")", count: ConditionParser.maximumNesting)
        #expect(try Self.steps(deepest) == Self.steps("nextID == 4"))
    }

    @Test("a run of 40,000 || terms (or && terms) is a condition like any other: it parses, answers and prints without running out of stack")
    func longRuns() throws {
        let or = (0..<40_000).map { "nextID == \($0 + 100)" }.joined(separator: " || ") + " || nextID == 4"
        let four = try Self.steps("nextID == 4")
        #expect(!four.isEmpty)
        #expect(try Self.steps(or) == four)
        let and = (0..<40_000).map { _ in "nextID > 3" }.joined(separator: " && ") + " && nextID < 5"
        #expect(try Self.steps(and) == four)
    }

    @Test("random conditions: the steps a query finds are those a scan of every state rebuilt from scratch finds", arguments: 1...6 as ClosedRange<UInt64>)
    func againstBruteForce(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let directory = TemporaryDirectory()
        let file = directory.file("board-\(seed).rewind")
        _ = try JournalRandomAccessTests.record(to: file, steps: 200, seed: seed)
        for (path, leaves) in [(file, Self.boardLeaves), (Self.fixtures + "/todo.rewind", Self.todoLeaves)] {
            let reader = try JournalReader(path: path)
            // Brute force: each step's state before and after, rebuilt by the reader on its own.
            // At a commit's end, before is the state just before its beginning.
            var began: [UInt64: [UInt64]] = [:]
            let steps = try reader.events().map { event in
                let source = event.source.instanceID
                var from = event.sequence
                if event.kind == .willMutate { began[source, default: []].append(event.sequence) }
                if event.kind == .didMutate, let start = began[source]?.popLast() { from = start }
                let before = from > 1 ? try reader.state(of: source, at: from - 1) : nil
                return ConditionStep(event: event, before: before, after: try reader.state(of: source, at: event.sequence))
            }
            for _ in 0..<40 {
                let text = Self.randomCondition(leaves, &random, depth: 2)
                let condition = try Condition(parsing: text)
                let found = reader.steps(where: condition).map(\.event.sequence)
                #expect(found == steps.filter(condition.isTrue).map(\.event.sequence), "\(text)")
            }
        }
    }

    static let todoLeaves = ["nextID > 3", "items.count == 4", "filter == \"active\"", "changed(items)", "changed(nextID)",
                             "items[id: 1].done", "editing == nil", "kind == change", "old(nextID) == 3", "items[0].id != 4",
                             "items[*].done", "count(items[*].done) == 1", "old(count(items[*].tags.count > 0)) >= 1", "kind == mutated"]
    static let boardLeaves = ["selected > 5", "selected == nil", "changed(selected)", "changed(items)", "items.count >= 2",
                              "kind == change", "kind == mutated", "title != old(title)", "items[0].done", "seq > 100", "items[id: 103].done",
                              "items[*].done", "count(items[*].done) > 1"]

    static func randomCondition(_ leaves: [String], _ random: inout SplitMix, depth: Int) -> String {
        guard depth > 0, random.next() % 3 != 0 else { return leaves[Int(random.next() % UInt64(leaves.count))] }
        let left = randomCondition(leaves, &random, depth: depth - 1), right = randomCondition(leaves, &random, depth: depth - 1)
        switch random.next() % 3 {
        case 0: return "(\(left)) && (\(right))"
        case 1: return "(\(left)) || (\(right))"
        default: return "!(\(left))"
        }
    }
}

/// The steps of `steps` and `more`, in order (a condition's answer over the todo fixture).
private func range(_ steps: ClosedRange<UInt64>, and more: UInt64...) -> [UInt64] {
    Array(steps) + more
}
