import Foundation
@testable import Rewind
@testable import RewindViewer
import Testing

@Suite("Viewer frames")
struct ViewerFrameTests {
    @Test("frames at fixed sizes after key sequences match their golden text", arguments: [
        ("todo-first-80x24", "todo.rewind", 80, 24, [Key]()),
        ("todo-step-26-80x24", "todo.rewind", 80, 24, Array(repeating: Key.right, count: 25)),
        ("todo-jump-60-200x60", "todo.rewind", 200, 60, ViewerFixtures.typing(":60") + [.enter]),
        ("todo-pinned-100x30", "todo.rewind", 100, 30, ViewerFixtures.typing(":20") + [.enter, .character("p")] + ViewerFixtures.typing(":60") + [.enter]),
        ("todo-help-80x24", "todo.rewind", 80, 24, [.character("?")]),
        ("demo-filter-80x24", "demo.rewind", 80, 24, ViewerFixtures.typing("factivity") + [.enter]),
        ("damaged-80x24", "counter-flipped-byte.rewind", 80, 24, []),
    ])
    func golden(name: String, file: String, width: Int, height: Int, keys: [Key]) throws {
        let timeline = try ViewerFixtures.timeline(file)
        let model = ViewerFixtures.model(timeline, width: width, height: height, keys: keys)
        try ViewerFixtures.expectFrame(name, ViewerView.render(model, timeline: timeline))
    }

    @Test("stepping, first/last, jump, search, filter, pin, blame, panes, folding and quit")
    func keys() throws {
        let timeline = try ViewerFixtures.timeline("todo.rewind")
        var model = ViewerModel(width: 80, height: 24, colors: false)
        func press(_ keys: Key...) { for key in keys { model.handle(key, timeline: timeline) } }
        func type(_ text: String) { for key in ViewerFixtures.typing(text) { model.handle(key, timeline: timeline) } }
        func current() -> RecordedEvent { timeline.event(at: model.position)! }

        press(.right, .character("l"), .character("l"))
        #expect(current().sequence == 4)
        press(.left, .character("h"))
        #expect(current().sequence == 2)
        press(.character("G"))
        #expect(current().sequence == 67)
        press(.character("g"))
        #expect(current().sequence == 1)
        press(.down, .character("j"), .up)
        #expect(current().sequence == 2)
        press(.pageDown)
        #expect(model.position == 1 + (model.height - 3 - 2))

        // Jump.
        type(":47")
        #expect(model.prompt == .jump("47"))
        press(.enter)
        #expect(current().sequence == 47 && model.prompt == nil)
        type(":999")
        press(.enter)
        #expect(current().sequence == 47)
        #expect(model.message == "step 999 is not in the timeline")

        // Search: names, values and paths; n/N.
        press(.character("g"))
        type("/Sourdough")
        press(.enter)
        let firstHit = current().sequence
        #expect(current().value?.description.contains("Sourdough") == true)
        press(.character("n"))
        #expect(current().sequence > firstHit)
        press(.character("N"))
        #expect(current().sequence == firstHit)

        // Pin and unpin the diff base.
        press(.character("p"))
        #expect(model.pinned == firstHit)
        press(.character("p"))
        #expect(model.pinned == nil)

        // Blame: select items[1].done in the state pane, step back to the step that last changed it.
        press(.character("G"), .tab)
        #expect(model.focus == .state)
        let rows = StepView(model: model, timeline: timeline).rows
        model.stateSelection = try #require(rows.firstIndex { $0.path == (try! StatePath(parsing: "items[1].done")) })
        press(.character("b"))
        #expect(current().sequence == 46)
        press(.character("b"))
        #expect(current().sequence == 29)
        press(.character("B"))
        #expect(current().sequence == 46)

        // Fold a node with Enter.
        let selectedPath = StepView(model: model, timeline: timeline).rows[0].path
        model.stateSelection = 0
        press(.enter)
        #expect(model.collapsed.contains(selectedPath))
        #expect(StepView(model: model, timeline: timeline).rows.count == 1)
        press(.enter)
        #expect(!model.collapsed.contains(selectedPath))

        // Filter by kind and source; empty clears.
        press(.tab, .tab)
        #expect(model.focus == .timeline)
        type("factivity TodoSample")
        press(.enter)
        #expect(timeline.count == 4)
        #expect((0..<timeline.count).allSatisfy { timeline.event(at: $0)?.kind == .activity })
        type("f")
        for _ in 0..<30 { press(.backspace) }
        press(.enter)
        #expect(timeline.count == 67)
        type("fnonsense")
        press(.enter)
        #expect(model.message == "'nonsense' is neither a kind nor a source")

        // Help, mouse wheel, quit.
        press(.character("?"))
        #expect(model.showingHelp)
        press(.escape)
        #expect(!model.showingHelp)
        let before = model.position
        press(.wheelDown)
        #expect(model.position == before + 3)
        press(.character("q"))
        #expect(model.quitting)
    }

    @Test("search skips blocks that cannot match and finds what a full scan finds")
    func searchAcrossBlocks() throws {
        let timeline = try ViewerFixtures.timeline("demo.rewind")
        #expect(timeline.reader.blocks.count > 3)
        for word in ["Sourdough", "reset", "didReachBigNumber", "nothing_like_this", "step: 3", "12"] {
            let matcher = EventFilter(text: word)
            let expected = (1..<timeline.count).first { position in
                let event = timeline.event(at: position)!
                return matcher.matches(event) || event.source.description.localizedCaseInsensitiveContains(word)
            }
            #expect(timeline.search(word, from: 0, forward: true) == expected, "\(word)")
            if let expected {
                #expect(timeline.search(word, from: timeline.count - 1, forward: false) != nil, "\(word) backwards")
                #expect(expected > 0)
            }
        }
        // Only plain words are judged from the string table.
        let reader = timeline.reader
        #expect(reader.blocks.indices.contains { !reader.block($0, mayContainWord: "Sourdough") })
        #expect(reader.blocks.indices.allSatisfy { reader.block($0, mayContainWord: "step: 3") })
    }

    @Test("follow mode shows events written after the viewer opened")
    func follow() throws {
        let directory = NSTemporaryDirectory() + "rewind-viewer-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/live.rewind"
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Live"))
        channel.emit(.created(state: CapturedValue(["count": 0])), callSite: CallSite(), to: journal)
        journal.flush()

        let timeline = Timeline(reader: try JournalReader(path: path))
        var model = ViewerModel(width: 80, height: 24, colors: false)
        model.handle(.character("F"), timeline: timeline)
        #expect(model.following)
        channel.emit(.replace(state: CapturedValue(["count": 1])), callSite: CallSite(), to: journal)
        journal.flush()
        model.tick(timeline: timeline)
        #expect(timeline.count == 2)
        #expect(model.position == 1)  // it was at the end, so it follows
        model.handle(.character("g"), timeline: timeline)
        channel.emit(.replace(state: CapturedValue(["count": 2])), callSite: CallSite(), to: journal)
        journal.flush()
        model.tick(timeline: timeline)
        #expect(timeline.count == 3)
        #expect(model.position == 0)  // not at the end: the view stays put
        journal.close()
    }

    @Test("only the cells that changed are written")
    func frameDiff() {
        var first = ScreenBuffer(width: 10, height: 3)
        first.write("hello", row: 1, column: 2)
        var second = first
        second.write("J", row: 1, column: 2)
        let full = first.changes(from: nil, colors: false)
        #expect(full.contains("\u{1B}[2J"))
        let delta = second.changes(from: first, colors: false)
        #expect(delta == "\u{1B}[2;3H\u{1B}[0mJ\u{1B}[0m")
        #expect(second.changes(from: second, colors: false) == "\u{1B}[0m")
    }

    @Test("no escape sequence from recorded data reaches the terminal")
    func controlCharacters() throws {
        let timeline = try ViewerFixtures.timeline("todo.rewind")
        let model = ViewerFixtures.model(timeline, width: 200, height: 60, keys: ViewerFixtures.typing(":60") + [.enter])
        let frame = ViewerView.render(model, timeline: timeline)
        #expect(frame.plainText.contains("Jam \\u{1B}[31m(red)"))
        for row in 0..<frame.height {
            for column in 0..<frame.width {
                #expect(!frame[row, column].character.unicodeScalars.contains { VisibleText.isControl($0) })
            }
        }
        // Colour only when allowed.
        #expect(!frame.changes(from: nil, colors: false).contains("\u{1B}[0;33m"))
    }

    @Test("keys decode from what terminals send")
    func keyDecoding() {
        #expect(KeyDecoder.decode(Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8)).keys == [.up, .down, .right, .left])
        #expect(KeyDecoder.decode(Array("\u{1B}OA\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~".utf8)).keys == [.up, .pageUp, .pageDown, .home, .end])
        #expect(KeyDecoder.decode(Array("\u{1B}[<64;10;5M\u{1B}[<65;10;5M".utf8)).keys == [.wheelUp, .wheelDown])
        #expect(KeyDecoder.decode([0x1B]).keys == [.escape])
        #expect(KeyDecoder.decode([0x1B, 0x5B], final: false).remainder == [0x1B, 0x5B])
        #expect(KeyDecoder.decode([0x03, 0x09, 0x0D, 0x7F, 0x71]).keys == [.interrupt, .tab, .enter, .backspace, .character("q")])
        #expect(KeyDecoder.decode(Array("é".utf8)).keys == [.character("é")])
    }
}
