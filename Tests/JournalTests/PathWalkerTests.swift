import Foundation
@testable import Rewind
import Testing

@Suite("Following one path")
struct PathWalkerTests {
    /// What blame prints: each step where the path's value changed, with the value before and after.
    static func blame(_ events: [RecordedEvent], _ path: StatePath, byWholeStates: Bool) -> [String] {
        var answers: [String] = []
        if byWholeStates {
            var walker = StateWalker()
            for event in events {
                guard let (before, after) = walker.advance(event) else { continue }
                let old = before?[path], new = after[path]
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
}
