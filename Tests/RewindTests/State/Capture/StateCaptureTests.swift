import Foundation
import Testing
@_spi(Tooling) @testable import Rewind

@Suite("State capture")
struct StateCaptureTests {
    enum Filter: String, Codable { case all, active, done }
    enum Command: Codable, Equatable { case add(title: String, priority: Int), remove(Int), clear }
    struct Item: Codable, Equatable, Hashable { var id: Int; var title: String; var done: Bool }
    struct Screen: Codable, Equatable {
        var items: [Item]
        var filter: Filter
        var lastCommand: Command?
        var selected: Int?
        var tags: Set<String>
        var created: Date
        var homepage: URL
        var owner: UUID
        var grid: [[Int]]
        var byPriority: [Int: [String]]
        var byKey: [Item: Bool]
        var ratio: Double
        var big: UInt64
    }

    static func sampleScreen() -> Screen {
        Screen(
            items: [Item(id: 1, title: "milk", done: false), Item(id: 2, title: "eggs", done: true)],
            filter: .active, lastCommand: .add(title: "eggs", priority: 2), selected: nil,
            tags: ["home", "errand", "weekly"], created: Date(timeIntervalSince1970: 1_763_000_000.25),
            homepage: URL(string: "https://example.org/todo?x=1")!, owner: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            grid: [[1, 2], [], [3]], byPriority: [10: ["b"], 2: ["a"]],
            byKey: [Item(id: 9, title: "z", done: false): true, Item(id: 3, title: "a", done: true): false],
            ratio: 0.5, big: UInt64.max
        )
    }

    @Test("an Encodable state becomes an ordered object in declaration order")
    func encodableStructure() throws {
        let tree = StateCapture.capture(Self.sampleScreen())
        guard case .object(let fields) = tree else { Issue.record("not an object: \(tree)"); return }
        #expect(Array(fields.keys) == ["items", "filter", "lastCommand", "tags", "created", "homepage", "owner", "grid", "byPriority", "byKey", "ratio", "big"])
        #expect(tree[try StatePath(parsing: "items[1].title")] == .string("eggs"))
        #expect(tree[try StatePath(parsing: "filter")] == .string("active"))
        #expect(tree[try StatePath(parsing: "lastCommand.add.priority")] == .integer(2))
        #expect(tree[try StatePath(parsing: "created")] == .string("2025-11-13T02:13:20.250000Z"))
        #expect(tree[try StatePath(parsing: "homepage")] == .string("https://example.org/todo?x=1"))
        #expect(tree[try StatePath(parsing: "owner")] == .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(tree[try StatePath(parsing: "grid")] == .array([.array([.integer(1), .integer(2)]), .array([]), .array([.integer(3)])]))
        #expect(tree[try StatePath(parsing: "big")] == .unsignedInteger(UInt64.max))
    }

    @Test("sets and dictionaries come out in the same order in every process")
    func stableOrder() throws {
        let tree = StateCapture.capture(Self.sampleScreen())
        #expect(tree[try StatePath(parsing: "tags")] == .array([.string("errand"), .string("home"), .string("weekly")]))
        guard case .object(let byPriority) = tree[try StatePath(parsing: "byPriority")] else { Issue.record("byPriority"); return }
        #expect(Array(byPriority.keys) == ["2", "10"])
        // Non-string keys: Codable's flat key/value list, sorted by key.
        guard case .array(let pairs) = tree[try StatePath(parsing: "byKey")] else { Issue.record("byKey"); return }
        #expect(pairs.count == 4)
        #expect(pairs[0][.key("id")] == .integer(3))
        #expect(pairs[1] == .bool(false))
    }

    @Test("a captured Decodable state decodes back to an equal value")
    func decodableRoundTrip() throws {
        let screen = Self.sampleScreen()
        let restored = try StateCapture.decode(Screen.self, from: StateCapture.capture(screen))
        #expect(restored == screen)

        var other = screen
        other.lastCommand = .remove(4)
        other.selected = 0
        #expect(try StateCapture.decode(Screen.self, from: StateCapture.capture(other)) == other)
        other.lastCommand = .clear
        #expect(try StateCapture.decode(Screen.self, from: StateCapture.capture(other)) == other)
    }

    @Test("decoding names the path that no longer fits")
    func decodingErrorsNamePaths() throws {
        struct Renamed: Decodable { var items: [RenamedItem] }
        struct RenamedItem: Decodable { var id: Int; var name: String }
        do {
            _ = try StateCapture.decode(Renamed.self, from: StateCapture.capture(Self.sampleScreen()))
            Issue.record("decoding should fail")
        } catch let DecodingError.keyNotFound(key, context) {
            #expect(key.stringValue == "name")
            #expect(context.codingPath.map(\.stringValue) == ["items", "0"])
        }
    }

    @Test("optionals, enums and tuples without Codable are read through Mirror")
    func mirrorCapture() {
        enum Phase { case idle, loading(progress: Double, label: String), failed(String) }
        struct Plain { var name: String; var phase: Phase; var nickname: String?; var pair: (Int, flag: Bool); var other: Phase }
        let tree = StateCapture.capture(Plain(name: "n", phase: .loading(progress: 0.5, label: "x"), nickname: nil, pair: (1, flag: true), other: .failed("boom")))
        #expect(tree == .object([
            "name": .string("n"),
            "phase": .object(["loading": .object(["progress": .floatingPoint(0.5), "label": .string("x")])]),
            "nickname": .null,
            "pair": .object(["0": .integer(1), "flag": .bool(true)]),
            "other": .object(["failed": .object(["_0": .string("boom")])]),
        ]))
        #expect(StateCapture.capture(Phase.idle) == .string("idle"))
    }

    @Test("classes are captured with inherited fields, and reference cycles are cut and marked")
    func classesAndCycles() {
        class Base { var id = 7 }
        final class Node: Base { var name: String; var next: Node?; init(_ name: String) { self.name = name } }
        let first = Node("a"), second = Node("b")
        first.next = second
        second.next = first
        let tree = StateCapture.capture(first)
        #expect(tree[.key("id")] == .integer(7))
        #expect(tree[StatePath([.key("next"), .key("name")])] == .string("b"))
        guard case .opaque(let cut) = tree[StatePath([.key("next"), .key("next")])] else { Issue.record("no cycle marker: \(tree)"); return }
        #expect(cut.text == OpaqueValue.cycleText)
        #expect(cut.typeName == "Node")
        // The same object twice side by side is not a cycle.
        struct Pair { var left: Node; var right: Node }
        let shared = Node("s")
        #expect(StateCapture.capture(Pair(left: shared, right: shared))[StatePath([.key("right"), .key("name")])] == .string("s"))
    }

    @Test("Encodable classes with cycles do not recurse forever")
    func encodableCycle() {
        final class Link: Encodable { var value = 1; var next: Link? }
        let link = Link()
        link.next = link
        let tree = StateCapture.capture(link)
        guard case .opaque(let cut) = tree[.key("next")] else { Issue.record("no cycle marker: \(tree)"); return }
        #expect(cut.text == OpaqueValue.cycleText)
    }

    @Test("values that cannot be looked into become opaque leaves that keep their type name")
    func opaqueLeaves() {
        struct Holder { var action: () -> Void }
        let tree = StateCapture.capture(Holder(action: {}))
        guard case .opaque(let leaf) = tree[.key("action")] else { Issue.record("expected opaque: \(tree)"); return }
        #expect(leaf.typeName == "() -> ()")
    }

    @Test("very deep values are cut at the depth limit")
    func depthLimit() {
        indirect enum Chain { case end, link(Chain) }
        var chain = Chain.end
        for _ in 0..<200 { chain = .link(chain) }
        var tree = StateCapture.capture(chain, options: CaptureOptions(maximumDepth: 10))
        var depth = 0
        while case .object(let fields) = tree, let next = fields.values.first {
            tree = next[.key("_0")] ?? next
            depth += 1
        }
        #expect(depth <= 10)
        guard case .opaque(let leaf) = tree else { Issue.record("expected a cut: \(tree)"); return }
        #expect(leaf.text == "<too deep>")
    }

    @Test("dates keep microsecond precision through a round trip")
    func dates() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123456)
        let text = TimestampText.format(date)
        #expect(text == "2023-11-14T22:13:20.123456Z")
        let parsed = try #require(TimestampText.parse(text))
        #expect(abs(parsed.timeIntervalSince(date)) < 0.000_001)
        #expect(TimestampText.parse("2023-11-14T22:13:20Z") == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(TimestampText.parse("yesterday") == nil)
    }
}
