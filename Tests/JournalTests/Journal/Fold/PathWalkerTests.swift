import Foundation
@_spi(Tooling) @testable import Rewind
import Testing

@Suite("Following one path")
struct PathWalkerTests {
    /// What blame prints: each step where the path's value changed, with the value before and after.
    static func blame(_ events: [RecordedEvent], _ path: StatePath, byWholeStates: Bool) -> [String] {
        blame(events, FollowedPath(path), byWholeStates: byWholeStates)
    }

    static func blame(_ events: [RecordedEvent], _ path: FollowedPath, byWholeStates: Bool) -> [String] {
        var answers: [String] = []
        if byWholeStates {
            var walker = StateWalker()
            for event in events {
                guard let (before, after) = walker.advance(event) else { continue }
                let old = before.flatMap(path.value(in:)), new = path.value(in: after)
                if old != new { answers.append("#\(event.sequence) \(old?.description ?? "absent") → \(new?.description ?? "absent")") }
            }
        } else {
            var walker = PathWalker(path: path)
            for event in events {
                guard let (old, new) = walker.advance(event), old != new else { continue }
                answers.append("#\(event.sequence) \(old?.description ?? "absent") → \(new?.description ?? "absent")")
            }
        }
        return answers
    }

    @Test("the path walker finds exactly the steps rebuilding whole states finds: inserts and removals in lists, fields, two sources, keyframes and diffs")
    func agreesWithWholeStates() throws {
        let directory = TemporaryDirectory()
        let paths = ["items", "items[0]", "items[3].done", "items[7].title", "items[25].id", "selected", "title", "", "missing.field", "items[2].missing"]
        for seed in 1...6 as ClosedRange<UInt64> {
            let file = directory.file("board-\(seed).rewind")
            _ = try JournalRandomAccessTests.record(to: file, steps: 400, seed: seed)
            let events = try JournalReader(path: file).allEvents()
            for text in paths {
                let path = try StatePath(parsing: text)
                let expected = Self.blame(events, path, byWholeStates: true)
                #expect(Self.blame(events, path, byWholeStates: false) == expected, "seed \(seed), path '\(text)'")
                if text == "items[3].done" { #expect(!expected.isEmpty) }
            }
        }
    }

    @Test("followed by id, the walker finds exactly the steps whole states find for that element; by position, it never reports an index shift as a change")
    func followsElementsByID() throws {
        let directory = TemporaryDirectory()
        for seed in 1...4 as ClosedRange<UInt64> {
            let file = directory.file("board-\(seed).rewind")
            _ = try JournalRandomAccessTests.record(to: file, steps: 400, seed: seed)
            let events = try JournalReader(path: file).allEvents()
            for text in ["items[id: 3].done", "items[id: 7].title", "items[id: 12]"] {
                let path = try FollowedPath(parsing: text)
                let expected = Self.blame(events, path, byWholeStates: true)
                #expect(Self.blame(events, path, byWholeStates: false) == expected, "seed \(seed), path '\(text)'")
                if text == "items[id: 3].done" { #expect(!expected.isEmpty) }
            }
            // By position: a step whose element at the position has another id is a move, never a change.
            let path = try StatePath(parsing: "items[2].done")
            var whole = StateWalker(), walker = PathWalker(path: path)
            var moves = 0
            for event in events {
                let states = whole.advance(event)
                guard let (old, new) = walker.advance(event), old != new, let states else { continue }
                let idBefore = states.before?[try StatePath(parsing: "items[2].id")], idAfter = states.after[try StatePath(parsing: "items[2].id")]
                let moved = idBefore != nil && idAfter != nil && idBefore != idAfter
                #expect(walker.lastStepMovedElement == moved, "seed \(seed) step \(event.sequence)")
                if moved { moves += 1 }
            }
            #expect(moves > 0, "the random journal inserts and removes before position 2")
        }
    }

    @Test("the viewer's path syntax reads back as the same path")
    func followedPathSyntax() throws {
        let state = StateValue.object(["items": .array([
            .object(["id": .integer(3), "done": .bool(false)]), .object(["id": .string("a-1"), "done": .bool(true)]),
        ])])
        for position in 0..<2 {
            let selected = FollowedPath(try StatePath(parsing: "items[\(position)].done"), in: state)
            let parsed = try FollowedPath(parsing: selected.description)
            #expect(parsed == selected, "\(selected)")
            #expect(parsed.value(in: state) == state[try StatePath(parsing: "items[\(position)].done")])
        }
        #expect(try FollowedPath(parsing: "items[id: 3].done").description == "items[id: 3].done")
        #expect(try FollowedPath(parsing: "user.name") == FollowedPath(try StatePath(parsing: "user.name")))
        #expect(throws: StatePathSyntaxError.self) { try FollowedPath(parsing: "items[id: ].done") }
        #expect(throws: StatePathSyntaxError.self) { try FollowedPath(parsing: "items[id: 3") }
    }
}
