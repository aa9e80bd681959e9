@testable import RewindViewer
import Testing

@Suite("Overview strip")
struct OverviewTests {
    /// Blocks of 100 events, one step each, 1 ms apart, with a burst: block 2 holds 100 events
    /// in 1 ms where the others take 100 ms.
    static let spans: [Overview.Span] = (0..<5).map { block in
        let first = UInt64(block * 100 + 1)
        let start = Int64([0, 100, 200, 201, 301][block]) * 1_000_000
        let length: Int64 = block == 2 ? 1_000_000 : 99_000_000
        return Overview.Span(firstSequence: first, lastSequence: first + 99, firstWall: start, lastWall: start + length, eventCount: 100)
    }

    @Test("cells are slices of time: every event is counted once, and a burst is the busiest cell")
    func densityByTime() {
        let overview = Overview(spans: Self.spans, damaged: [])
        let counts = overview.eventCounts(cells: 40)
        #expect(abs(counts.reduce(0, +) - 500) < 0.001)
        let busiest = counts.indices.max { counts[$0] < counts[$1] }!
        #expect(busiest == overview.cell(ofSequence: 250, cells: 40))
        let marks = overview.marks(cells: 40, cursor: nil, hits: [], bookmarks: [])
        #expect(marks[busiest] == .density(8))
        #expect(marks.allSatisfy { $0 != .density(0) })
        #expect(marks.map(Overview.glyph).joined().contains("█"))
    }

    @Test("a place and its first step agree: the step found for a cell falls in that cell")
    func placesAndSteps() throws {
        let overview = Overview(spans: Self.spans, damaged: [])
        #expect(overview.sequence(atFraction: 0) == 1)
        #expect(overview.sequence(atFraction: 1) == 500)
        for cell in 0..<40 {
            let sequence = try #require(overview.sequence(atFraction: Double(cell) / 40))
            #expect(overview.cell(ofSequence: sequence, cells: 40) >= cell, "cell \(cell)")
            #expect(overview.cell(ofSequence: sequence, cells: 40) <= cell + 1, "cell \(cell)")
        }
    }

    @Test("the cursor outranks damage, damage a bookmark, a bookmark a hit; damage covers its whole range")
    func marksByRank() {
        let overview = Overview(spans: Self.spans, damaged: [301...400])
        let cells = 40
        let cell = { overview.cell(ofSequence: $0, cells: cells) }
        let marks = overview.marks(cells: cells, cursor: 50, hits: [[50, 120, 130, 450]], bookmarks: [120, 330])
        #expect(marks[cell(50)] == .cursor)
        #expect(marks[cell(120)] == .bookmark)
        #expect(marks[cell(450)] == .hit)
        #expect(marks[cell(330)] == .damage)
        #expect((cell(301)...cell(400)).allSatisfy { marks[$0] == .damage })
        #expect(Set(marks.map(Overview.glyph)).isSuperset(of: ["◆", "●", "•", "✗"]))
    }

    @Test("a long sorted list of hits marks exactly the cells its hits fall in, looked up a few times per cell")
    func manyHits() {
        let overview = Overview(spans: Self.spans, damaged: [])
        for stride in [1, 7, 97] {
            let hits = Array(Swift.stride(from: UInt64(1), through: 500, by: stride))
            let marks = overview.marks(cells: 33, cursor: nil, hits: [hits, [3, 499]], bookmarks: [])
            let expected = Set((hits + [3, 499]).map { overview.cell(ofSequence: $0, cells: 33) })
            #expect(Set(marks.indices.filter { marks[$0] == .hit }) == expected, "stride \(stride)")
        }
    }

    @Test("every event at one instant: cells are slices of steps")
    func oneInstant() {
        let spans = Self.spans.map { Overview.Span(firstSequence: $0.firstSequence, lastSequence: $0.lastSequence, firstWall: 7, lastWall: 7, eventCount: 100) }
        let overview = Overview(spans: spans, damaged: [])
        #expect(overview.cell(ofSequence: 1, cells: 10) == 0)
        #expect(overview.cell(ofSequence: 250, cells: 10) == 4)
        #expect(overview.cell(ofSequence: 500, cells: 10) == 9)
        #expect(overview.sequence(atFraction: 0.5) == 251)
        #expect(Overview.empty.marks(cells: 10, cursor: nil, hits: [], bookmarks: []) == Array(repeating: .density(0), count: 10))
    }
}

/// A terminal that hands the viewer scripted reads of keys, each read as one `keys` call.
private final class ScriptedTerminal: ViewerTerminal {
    var reads: [[Key]]
    var written = ""
    init(reads: [[Key]]) { self.reads = reads }
    func keys(timeout milliseconds: Int32) -> [Key]? { reads.isEmpty ? nil : reads.removeFirst() }
    func write(_ text: String) { written += text }
    func takeResize() -> (width: Int, height: Int)? { nil }
    var terminationRequested: Bool { false }
}

@Suite("Keys that arrive together")
struct KeysInOneReadTests {
    @Test("every key of one read acts, in order, on what the key before it left (fast typing, key repeat, a paste)")
    func everyKeyActs() throws {
        for keys in [ViewerFixtures.typing("lllll"), ViewerFixtures.typing("jjjjjjk"), ViewerFixtures.typing("lllll") + [.character("G")] + ViewerFixtures.typing("hh")] {
            let oneByOne = try ViewerFixtures.program("demo.rewind", keys: keys)
            let together = try ViewerFixtures.program("demo.rewind")
            together.run(on: ScriptedTerminal(reads: [keys, [.character("q")]]))
            #expect(together.model.page.step?.event.sequence == oneByOne.model.page.step?.event.sequence, "\(keys)")
            #expect(together.model.page.step?.event.sequence != 1)
        }
    }
}

@Suite("Prompt editing")
struct PromptEditingTests {
    @Test("Ctrl-W deletes the word before the cursor and Ctrl-U the whole line, as in a shell")
    func deleteWordAndLine() throws {
        #expect(KeyDecoder.decode([0x15, 0x17]).keys == [.clearLine, .deleteWord])
        let program = try ViewerFixtures.program("todo.rewind", keys: [.character("/")] + ViewerFixtures.typing("toggle done  "))
        program.press(.deleteWord)
        #expect(program.frame().plainText.contains("/toggle"), "\(program.frame().plainText.suffix(200))")
        #expect(!program.frame().plainText.contains("/toggle done"))
        program.press(.clearLine)
        for key in ViewerFixtures.typing("add") { program.press(key) }
        #expect(program.frame().plainText.contains("/add"))
        #expect(!program.frame().plainText.contains("/toggleadd"))
    }
}
