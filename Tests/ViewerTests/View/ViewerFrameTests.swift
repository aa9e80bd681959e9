import Foundation
@_spi(Tooling) @testable import Rewind
@testable import RewindViewer
import Testing

@Suite("Viewer frames")
struct ViewerFrameTests {
    static func jump(_ step: Int) -> [Key] { ViewerFixtures.typing(":\(step)") + [.enter] }

    @Test("frames at fixed sizes after key sequences match their golden text", arguments: [
        // Rows that say what happened: change rows with path and old → new, dispatch rows with
        // their input, activity rows with their value; the state after the step.
        ("demo-change-80x24", "demo.rewind", 80, 24, jump(4)),
        ("demo-ricemill-120x40", "demo.rewind", 120, 40, jump(145)),
        ("demo-flask-200x60", "demo.rewind", 200, 60, jump(256)),
        // Folded dispatches: one row each; the diff is the dispatch's whole effect.
        ("demo-folded-120x40", "demo.rewind", 120, 40, [Key.character("z")] + jump(136)),
        // The detail pane, and search with highlighted matches and a hit count.
        ("demo-detail-120x40", "demo.rewind", 120, 40, jump(138) + [.character("d")]),
        ("demo-search-200x60", "demo.rewind", 200, 60, ViewerFixtures.typing("/Coffee") + [.enter]),
        ("todo-first-80x24", "todo.rewind", 80, 24, []),
        ("todo-pinned-100x30", "todo.rewind", 100, 30, jump(20) + [.character("p")] + jump(60)),
        ("todo-help-80x24", "todo.rewind", 80, 24, [.character("?")]),
        ("demo-filter-80x24", "demo.rewind", 80, 24, ViewerFixtures.typing("factivity") + [.enter]),
        ("damaged-80x24", "counter-flipped-byte.rewind", 80, 24, []),
        // Answers on the message line: the search's count (and, in `keys()`, blame's change).
        ("demo-search-80x24", "demo.rewind", 80, 24, ViewerFixtures.typing("/Coffee") + [.enter]),
        // A todo list changed through whole-list updates: each row says what changed in the list;
        // the overview strip marks the cursor (◆), bookmarks (●) and search hits (•).
        ("todo-lists-80x24", "todo.rewind", 80, 24, jump(11) + [.character("m")] + jump(50) + ViewerFixtures.typing("/Sourdough") + [.enter]),
        ("todo-lists-120x40", "todo.rewind", 120, 40, jump(25) + [.character("m")] + jump(46)),
        ("demo-overview-200x60", "demo.rewind", 200, 60, jump(30) + [.character("m")] + jump(200) + [.character("m")] + ViewerFixtures.typing("/Sourdough") + [.enter]),
        // A watched condition: its steps marked (•) in the rows and the strip, counted on the message line.
        ("todo-watch-80x24", "todo.rewind", 80, 24, ViewerFixtures.typing("wkind == change && changed(nextID)") + [.enter, .character("n"), .character("n")]),
    ])
    func golden(name: String, file: String, width: Int, height: Int, keys: [Key]) throws {
        let program = try ViewerFixtures.program(file, width: width, height: height, keys: keys)
        try ViewerFixtures.expectFrame(name, program.frame())
    }

    @Test("a change step shows the state with the change, its path and value, and never 'no change'")
    func changeStep() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 160, height: 30, keys: Self.jump(4))
        let text = program.frame().plainText
        #expect(text.contains("#4") && text.contains("count: 0 → 1"))
        #expect(text.contains("State of CounterSample#1 after #4"))
        #expect(text.contains("count: 1"))
        #expect(text.contains("+   count: 1"))
        #expect(!text.contains("no change"))
        // Ricemill: the change row names its property and value; the dispatch row its input.
        program.press(contentsOf: Self.jump(150))
        #expect(program.frame().plainText.contains("isIncrementEnabled: false → true"))
        program.press(contentsOf: Self.jump(148))
        #expect(program.frame().plainText.contains("dispatch  isOn true"))
    }

    @Test("folding: a dispatch row hides what it caused, its diff is its whole effect, stepping moves by rows")
    func folding() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 120, height: 40)
        func sequence() -> UInt64? { program.model.page.step?.event.sequence }
        // Folding everything from inside a dispatch puts the cursor on the dispatch's row.
        program.press(contentsOf: Self.jump(4))
        program.press(.character("z"))
        #expect(program.model.folding.foldsAll)
        #expect(sequence() == 2)
        program.press(.character("g"))
        #expect(sequence() == 1)
        program.press(.right)
        #expect(sequence() == 2)
        program.press(.right)
        #expect(sequence() == 7)  // past the whole first increment
        program.press(.left)
        #expect(sequence() == 2)
        let step = try #require(program.model.page.step)
        #expect(step.afterSequence == 6)
        #expect(step.diffLines.contains { $0.marker == .added && $0.text.contains("count: 1") })
        // Enter unfolds one dispatch; its effects are rows again.
        program.press(.enter)
        program.press(.right)
        #expect(sequence() == 3)
        // A jump into a folded dispatch shows its step.
        program.press(contentsOf: Self.jump(9))
        #expect(sequence() == 9)
        #expect(program.frame().plainText.contains("#9"))
    }

    @Test("stepping, jump, search with hit count and wrap, filters that include and exclude, pin, blame, panes, quit")
    func keys() throws {
        let program = try ViewerFixtures.program("todo.rewind")
        func current() -> UInt64? { program.model.page.step?.event.sequence }

        program.press(.right, .character("l"), .character("l"))
        #expect(current() == 4)
        program.press(.left, .character("h"))
        #expect(current() == 2)
        program.press(.character("G"))
        #expect(current() == 72)
        program.press(.character("g"))
        #expect(current() == 1)
        program.press(.pageDown)
        #expect(program.model.position == program.model.timelineRows - 1)

        program.press(contentsOf: Self.jump(47))
        #expect(current() == 47)
        program.press(contentsOf: Self.jump(999))
        #expect(current() == 47)
        #expect(program.model.message == "step 999 is not in the timeline")

        // Search: a count of hits, n/N, wrapping with a message, regular expressions.
        program.press(.character("g"))
        program.press(contentsOf: ViewerFixtures.typing("/Sourdough") + [.enter])
        let firstHit = try #require(current())
        #expect(program.model.hits?.isComplete == true)
        let total = try #require(program.model.hits?.total)
        #expect(total > 1)
        #expect(program.model.hits?.label(at: program.model.position) == "1/\(total)")
        program.press(.character("N"))
        #expect(program.model.message == "search wrapped around the end")
        program.press(.character("n"))
        #expect(current() == firstHit)
        program.press(contentsOf: ViewerFixtures.typing("/~nextID = [0-9]+") + [.enter])
        #expect(program.model.page.step?.event.path == "nextID")
        program.press(contentsOf: ViewerFixtures.typing("/~(") + [.enter])
        #expect(program.model.message?.hasPrefix("not a regular expression") == true)

        // Pin and unpin the diff base.
        program.press(.character("p"))
        #expect(program.model.pinned == current())
        program.press(.character("p"))
        #expect(program.model.pinned == nil)

        // Blame: select items[1].done; it follows the item by id and says old → new.
        program.press(.character("G"), .tab)
        let rows = StateRows.rows(program.model.page.step?.after, collapsed: [], changed: [])
        program.model_setStateSelection(try #require(rows.firstIndex { $0.path == (try! StatePath(parsing: "items[1].done")) }))
        program.press(.character("b"))
        #expect(current() == 46)
        #expect(program.model.blame?.path.description == "items[id: 1].done")
        #expect(program.model.blame?.old == .bool(false) && program.model.blame?.new == .bool(true))
        // At 80 columns the answer has the message line to itself, whole.
        #expect(program.frame().plainText.split(separator: "\n").last?.contains("items[id: 1].done: false → true") == true)
        // Followed by id, the item (Milk) is not the one at index 1 before step 29 prepended Coffee.
        program.press(.character("b"))
        #expect(current() == 4)
        #expect(program.model.blame?.old == nil && program.model.blame?.new == .bool(false))
        program.press(.character("B"))
        #expect(current() == 46)

        // Collapse and expand the whole state; fold one node.
        program.press(.character("-"))
        #expect(StateRows.rows(program.model.page.step?.after, collapsed: program.model.collapsed, changed: []).count == 1 + 4)
        program.press(.character("+"))
        #expect(program.model.collapsed.isEmpty)

        // Filters: include kinds and sources, exclude kinds, by key path; errors in one line.
        program.press(.tab, .tab)
        #expect(program.model.focus == .timeline)
        program.press(contentsOf: ViewerFixtures.typing("factivity TodoSample") + [.enter])
        #expect(program.timeline.count == 4)
        program.press(contentsOf: ViewerFixtures.typing("f") + Array(repeating: .backspace, count: 30) + ViewerFixtures.typing("!change !willMutate !didMutate") + [.enter])
        #expect((0..<program.timeline.count).allSatisfy { ![.change, .willMutate, .didMutate].contains(program.timeline.event(at: $0)!.kind) })
        // A filter keeps the step on screen when it shows it.
        program.press(contentsOf: Self.jump(44))
        program.press(contentsOf: ViewerFixtures.typing("f") + Array(repeating: .backspace, count: 40) + ViewerFixtures.typing("willDispatch") + [.enter])
        #expect(current() == 44)
        program.press(contentsOf: ViewerFixtures.typing("f") + Array(repeating: .backspace, count: 40) + ViewerFixtures.typing("path:nextID") + [.enter])
        #expect(program.timeline.count > 0)
        // As blame lists them: the creation that set it first, then each change.
        #expect(program.timeline.event(at: 0)?.kind == .created)
        #expect((1..<program.timeline.count).allSatisfy { program.timeline.event(at: $0)!.path == "nextID" })
        program.press(contentsOf: ViewerFixtures.typing("f") + Array(repeating: .backspace, count: 40) + [.enter])
        #expect(program.timeline.count == 72)
        program.press(contentsOf: ViewerFixtures.typing("fnonsense") + [.enter])
        #expect(program.model.message == "'nonsense' is neither a kind, a source, path:KEYPATH nor level>=LEVEL")

        // Unknown keys hint; help; mouse wheel; quit.
        program.press(.character("x"))
        #expect(program.model.message == "'x' does nothing here: press ? for the keys")
        program.press(.character("?"))
        #expect(program.model.showingHelp)
        program.press(.escape)
        #expect(!program.model.showingHelp)
        let before = program.model.position
        program.press(.wheelDown)
        #expect(program.model.position == before + 3)
        program.press(.character("q"))
        #expect(program.model.quitting)
    }

    @Test("after the terminal grows, a state that fits is shown from its first line")
    func stateFromTheTopAfterResize() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 80, height: 24, keys: Self.jump(124))
        #expect(program.model.stateTop > 0)  // the todo list does not fit 24 lines: scrolled to the change
        program.send(.resize(width: 200, height: 60))
        program.press(contentsOf: Self.jump(150))
        #expect(program.model.stateTop == 0)
        #expect(program.frame().plainText.split(separator: "\n")[2].contains("▾ state"))
    }

    @Test("bookmarks: m marks steps, ' and ` jump between them round the ends, the detail pane lists them")
    func bookmarks() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 120, height: 40)
        func current() -> UInt64? { program.model.page.step?.event.sequence }
        program.press(.character("'"))
        #expect(program.model.message == "no bookmarks yet: m marks the step shown")
        for step in [40, 10, 25] {
            program.press(contentsOf: Self.jump(step))
            program.press(.character("m"))
        }
        #expect(program.model.bookmarks == [10, 25, 40])
        program.press(.character("'"))
        #expect(current() == 40)
        program.press(.character("'"))
        #expect(current() == 10)  // round the end
        program.press(.character("`"))
        #expect(current() == 40)
        program.press(.character("d"))
        #expect(program.frame().plainText.contains("bookmarks #10 #25 [#40]"))
        program.press(.character("m"))
        #expect(program.model.bookmarks == [10, 25])
    }

    @Test("a change that writes the value already there is marked unchanged, not shown as old → new")
    func sameValueChange() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 200, height: 50, keys: Self.jump(158))
        let text = program.frame().plainText
        #expect(text.contains("isDecrementEnabled = false (unchanged)"))
        #expect(text.contains("isDecrementEnabled: false → true"))
    }

    @Test("mouse: a click selects the timeline row or state row under it; the wheel scrolls the pane under the pointer")
    func mouse() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 120, height: 40, keys: Self.jump(20))
        let rows = program.model.page.rows
        let cursorLine = try #require(rows.firstIndex { $0.position == program.model.position })
        let target = rows[cursorLine + 3]
        program.press(.click(column: 5, row: 2 + cursorLine + 3))
        #expect(program.model.position == target.position)
        #expect(program.model.focus == .timeline)
        // A click on the third state row selects it, and the state pane has the focus.
        program.press(.click(column: 80, row: 4))
        #expect(program.model.focus == .state)
        #expect(program.model.stateSelection == program.model.stateTop + 2)
        // The wheel over the timeline scrolls the timeline, whichever pane had the focus.
        let before = program.model.position
        program.press(.wheel(up: false, column: 5, row: 10))
        #expect(program.model.focus == .timeline)
        #expect(program.model.position == before + 3)
    }

    @Test("y copies the selected value and Y its path, as shown (escaped), through OSC 52")
    func copyWithOSC52() throws {
        let program = try ViewerFixtures.program("todo.rewind", width: 120, height: 40, keys: Self.jump(46))
        program.press(.tab)
        let rows = StateRows.rows(program.model.page.step?.after, collapsed: [], changed: [])
        program.model_setStateSelection(try #require(rows.firstIndex { $0.path == (try! StatePath(parsing: "items[1].done")) }))
        program.press(.character("y"), .character("Y"))
        #expect(program.copied == ["true", "items[id: 1].done"])
        #expect(program.model.message?.hasPrefix("copied the path") == true)
        // A container is copied as its lines.
        program.model_setStateSelection(try #require(rows.firstIndex { $0.path == (try! StatePath(parsing: "items[1]")) }))
        program.press(.character("y"))
        #expect(program.copied.last?.contains("\n") == true)
        #expect(program.copied.last?.contains("done: true") == true)
        // The sequence carries the text as base64: nothing in it reaches the terminal as a sequence.
        #expect(Clipboard.osc52("a\u{1B}[31mb") == "\u{1B}]52;c;" + Data("a\u{1B}[31mb".utf8).base64EncodedString() + "\u{07}")
    }

    @Test("lane names cut to a narrow column stay apart: shared words become initials, the words that differ stay")
    func laneNamesStayApart() throws {
        let names = ["GitHubSearchAPIStream#4", "GitHubSearchViewStream#5", "CounterSample#1", "TodoSample#2"]
        let short = LaneNames.shortened(names, to: 8)
        #expect(short == ["GHSAPIS…", "GHSView…", "Counter…", "TodoSam…"])
        #expect(Set(short).count == names.count)
        #expect(LaneNames.words(of: "GitHubSearchAPIStream#4") == ["Git", "Hub", "Search", "API", "Stream", "#4"])
        // Names that fit are left alone.
        #expect(LaneNames.shortened(names, to: 30) == names)
        // In the viewer at 80 columns, the two streams' rows are told apart.
        let program = try ViewerFixtures.program("demo.rewind", width: 80, height: 24, keys: Self.jump(229))
        let text = program.frame().plainText
        #expect(text.contains("GHSAPIS…") && text.contains("GHSView…"))
    }

    @Test("a diff against a pinned step of another unit says that it compares this unit's state at that step")
    func pinAcrossUnits() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 200, height: 50, keys: Self.jump(104) + [.character("p")] + Self.jump(150))
        #expect(program.model.pinnedSource?.typeName == "TodoSample")
        #expect(program.model.page.step?.event.source.typeName == "RicemillCounterSample")
        #expect(program.frame().plainText.contains("Diff: this unit at pinned #104 (a step of TodoSample#2) → after #150"))
        // The same unit: the plain title.
        program.press(contentsOf: Self.jump(110))
        #expect(program.frame().plainText.contains("Diff: pinned #104 → after #110"))
    }

    @Test("a jump to a step the filter hides says so, rather than that the step does not exist")
    func jumpToAHiddenStep() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 120, height: 40, keys: ViewerFixtures.typing("factivity") + [.enter])
        #expect(program.model.page.step?.event.kind == .activity)
        program.press(contentsOf: Self.jump(25))
        #expect(program.model.message?.hasPrefix("step 25 is hidden by the filter") == true)
        program.press(contentsOf: Self.jump(9_999))
        #expect(program.model.message == "step 9999 is not in the timeline")
    }

    @Test("the filter takes the kinds as rows say them (dispatch, finished, mutated) and as JSON names them")
    func filterTakesTheScreensWords() throws {
        for typed in ["fdispatch", "fwillDispatch", "fDispatch"] {
            let program = try ViewerFixtures.program("demo.rewind", width: 120, height: 40, keys: ViewerFixtures.typing(typed) + [.enter])
            #expect(program.model.message == nil, "\(typed)")
            #expect(program.model.page.step?.event.kind == .willDispatch, "\(typed)")
            #expect(program.model.page.eventCount > 0 && program.model.page.eventCount < 100, "\(typed)")
        }
        let both = try ViewerFixtures.program("demo.rewind", width: 120, height: 40, keys: ViewerFixtures.typing("ffinished,mutated") + [.enter])
        #expect(both.model.page.step.map { [.didDispatch, .didMutate].contains($0.event.kind) } == true)
    }

    @Test("search finds a dispatch row typed as the screen shows it: its name, then its input; ^ and $ anchor to a field")
    func searchMatchesTheRowText() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 120, height: 40)
        for (typed, name) in [("isOn true", "isOn"), ("setEnabled false", "setEnabled"), ("didReachBigNumber 12", ""), ("~^increment$", "increment")] {
            program.press(.character("g"))
            program.press(contentsOf: ViewerFixtures.typing("/" + typed) + [.enter])
            let event = try #require(program.model.page.step?.event, "\(typed)")
            #expect(event.name == name, "\(typed)")
            if !typed.hasPrefix("~") { #expect((event.name + " " + event.rowText()).trimmingCharacters(in: .whitespaces) == typed) }
        }
    }

    @Test("f path: shows the steps blame lists, by blame's rule: an element by id wherever it moves, a position without the steps that only moved another element there")
    func pathFilterAgreesWithBlame() throws {
        let program = try ViewerFixtures.program("todo.rewind", width: 120, height: 40)
        func shown(_ filter: String) -> [UInt64] {
            program.press(contentsOf: ViewerFixtures.typing("f") + Array(repeating: .backspace, count: 60) + ViewerFixtures.typing(filter) + [.enter])
            return (0..<program.timeline.count).compactMap { program.timeline.event(at: $0)?.sequence }
        }
        // As `rewind blame Fixtures/todo.rewind 'items[1].done'` and `'items[id: 2].done'` list them.
        #expect(shown("path:items[1].done") == [11, 25, 46])
        #expect(shown("path:items[id: 2].done") == [11, 25, 50])
        #expect(shown("change path:items[id: 2].done") == [11, 25, 50])
        #expect(shown("mutated path:items[id: 2].done") == [])
        // For paths that follow no position, the steps whose value differs before and after, from whole states.
        let events = Array(try JournalReader(path: ViewerFixtures.root + "/Fixtures/todo.rewind").events())
        for text in ["items", "items[id: 3].title", "nextID", "editing", "filter"] {
            let path = try FollowedPath(parsing: text)
            var walker = StateWalker()
            let expected = events.compactMap { event -> UInt64? in
                guard let (before, after) = walker.advance(event), path.value(in: before ?? .null) != path.value(in: after) else { return nil }
                return event.sequence
            }
            #expect(!expected.isEmpty)
            #expect(shown("path:" + text) == expected, "\(text)")
        }
    }

    @Test("the overview strip: a click on a cell goes to its first step; { and } go slice by slice from end to end")
    func overviewJumps() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 120, height: 40)
        let strip = program.model.overviewColumns
        #expect(strip.count >= 60)
        func current() -> UInt64? { program.model.page.step?.event.sequence }
        program.press(.click(column: strip.upperBound - 1, row: 0))
        let last = try #require(current())
        #expect(last > 255)
        program.press(.click(column: strip.lowerBound, row: 0))
        #expect(current() == 1)
        program.press(.click(column: strip.lowerBound + strip.count / 2, row: 0))
        let middle = try #require(current())
        #expect((150...176).contains(middle), "the middle of 326 steps")
        // The cursor's cell is the one clicked.
        let marks = program.model.page.overview.marks(cells: strip.count, cursor: middle, hits: [], bookmarks: [])
        #expect(marks.firstIndex(of: .cursor) == strip.count / 2)
        // } from the first step reaches the end slice by slice, always forward; { comes back.
        program.press(.character("g"))
        var visited: [UInt64] = [1]
        while true {
            program.press(.character("}"))
            guard let step = current(), step != visited.last else { break }
            visited.append(step)
        }
        #expect(visited == visited.sorted() && Set(visited).count == visited.count)
        #expect(visited.count >= strip.count - 2)
        #expect(program.model.message == "at the recording's last slice")
        program.press(.character("{"))
        #expect(current()! < visited.last!)
        // Under a filter, a cell's first shown step.
        program.press(contentsOf: ViewerFixtures.typing("factivity") + [.enter])
        program.press(.click(column: strip.lowerBound + strip.count / 2, row: 0))
        #expect(program.model.page.step?.event.kind == .activity)
        #expect(current()! >= middle)
    }

    @Test("w watches a condition: its steps are marked in the rows and the strip, n/N go between them, the message line counts them")
    func watchACondition() throws {
        let program = try ViewerFixtures.program("todo.rewind", width: 100, height: 30)
        func current() -> UInt64? { program.model.page.step?.event.sequence }
        program.press(contentsOf: ViewerFixtures.typing("wkind == mutated && changed(items[id: 2].done)") + [.enter])
        let watch = try #require(program.model.watch)
        #expect(watch.isComplete && watch.total == 3 && watch.sequences == [13, 26, 51])
        program.press(.character("n"))
        #expect(current() == 13)
        program.press(.character("n"))
        #expect(current() == 26)
        var frame = program.frame().plainText
        #expect(frame.contains("watch kind == mutated && changed(items[id: 2].done) 2/3"))
        // The other matches on screen are marked where the cursor's ▶ goes.
        #expect(frame.split(separator: "\n").contains { $0.hasPrefix("•#13 ") })
        let strip = program.model.overviewColumns
        let marks = program.model.page.overview.marks(cells: strip.count, cursor: 26, hits: [watch.sequences], bookmarks: [])
        #expect(marks.filter { $0 == .hit }.count == 2)
        program.press(.character("n"))
        #expect(current() == 51)
        program.press(.character("n"))
        #expect(current() == 13 && program.model.message == "watch wrapped around the end")
        program.press(.character("N"))
        #expect(current() == 51)
        // A search asked later takes n/N back; a watch asked again takes them again.
        program.press(contentsOf: ViewerFixtures.typing("/Coffee") + [.enter])
        #expect(program.model.find == .search)
        let found = try #require(current())
        program.press(.character("n"))
        #expect(current() != found && !(watch.sequences.contains(current()!)))
        #expect(try SearchQuery("Coffee").matches(program.model.page.step!.event))
        // A malformed condition says where; an empty one stops watching.
        program.press(contentsOf: ViewerFixtures.typing("w") + Array(repeating: .backspace, count: 60) + ViewerFixtures.typing("count >") + [.enter])
        #expect(program.model.message?.contains("column 8") == true)
        program.press(contentsOf: ViewerFixtures.typing("w") + Array(repeating: .backspace, count: 60) + [.enter])
        #expect(program.model.watch == nil && program.model.message == "stopped watching")
        frame = program.frame().plainText
        #expect(!frame.contains("•#"))
    }

    @Test("search finds a change typed as its row shows the move: a scalar's old → new, a list's element by id")
    func searchMatchesTheMove() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 120, height: 40)
        let cases = [("nextID: 1 → 2", "nextID: 1 → 2"), ("items[id: 2].done: false → true", "items[id: 2].done: false → true"),
                     ("title: \"Bread\" → \"Sourdough\"", "items[id: 3].title: \"Bread\" → \"Sourdough\""), ("editing: nil → 3", "editing: nil → 3")]
        for (typed, row) in cases {
            program.press(.character("g"))
            program.press(contentsOf: ViewerFixtures.typing("/" + typed) + [.enter])
            let step = try #require(program.model.page.step, "\(typed)")
            #expect(step.event.kind == .change, "\(typed)")
            #expect(step.event.rowText(old: step.row.oldValue) == row, "\(typed)")
        }
        // A move that never happened is not found, though each value was written at some point.
        program.press(.character("g"))
        program.press(contentsOf: ViewerFixtures.typing("/nextID: 1 → 3") + [.enter])
        #expect(program.model.page.step?.event.sequence == 1)
        #expect(program.frame().plainText.contains("no match for \"nextID: 1 → 3\""))
    }

    @Test("search matches are marked in the rows and the detail pane")
    func searchHighlight() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 200, height: 60, keys: ViewerFixtures.typing("/Coffee") + [.enter, .character("d")])
        let frame = program.frame()
        func marked(row: Int, columns: Range<Int>) -> String {
            String(columns.filter { [ViewerView.match, ViewerView.matchOnCursor].contains(frame[row, $0].style) }.map { frame[row, $0].character })
        }
        let cursorRow = try #require((0..<frame.height).first { frame[$0, 0].character == "▶" })
        #expect(marked(row: cursorRow, columns: 0..<program.model.leftWidth) == "Coffee")
        let detailMarks = (0..<frame.height).map { marked(row: $0, columns: program.model.leftWidth..<frame.width) }.filter { !$0.isEmpty }
        #expect(detailMarks.contains("Coffee"))
    }

    @Test("search skips blocks that cannot match and finds what a full scan finds, both ways")
    func searchAcrossBlocks() throws {
        let timeline = try ViewerFixtures.timeline("demo.rewind")
        #expect(timeline.reader.blocks.count > 3)
        for text in ["Sourdough", "reset", "didReachBigNumber", "nothing_like_this", "step: 3", "12", "~count = 1[0-9]",
                     "~\\x53ourdough", "~\\u0053ourdough", "~\\0123ourdough", "~Sour\\x64ough"] {
            let query = try SearchQuery(text)
            let matching = (0..<timeline.count).filter { query.matches(timeline.event(at: $0)!) }
            func search(from position: Int, forward: Bool) -> Int? {
                var job = Timeline.SearchJob(query, from: position, forward: forward, folding: Folding())
                while true { if let result = job.step(timeline, budget: 7) { return result } }
            }
            #expect(search(from: 0, forward: true) == matching.first { $0 > 0 } ?? matching.first, "\(text)")
            #expect(search(from: timeline.count - 1, forward: false) == matching.last { $0 < timeline.count - 1 } ?? matching.last, "\(text) backwards")
        }
        // Without a filter, only plain words are judged from the string table.
        let reader = timeline.reader
        #expect(reader.blocks.indices.contains { !reader.block($0, mayContainWord: "Sourdough") })
        #expect(reader.blocks.indices.allSatisfy { reader.block($0, mayContainWord: "step: 3") })
        // The searches gave the blocks they read search filters, which now rule blocks out.
        #expect(reader.blocks.indices.contains { reader.searchFilter(ofBlock: $0, mayContain: "Sourdough") == false })
        // Regular expressions are judged by the literal run every match must contain.
        #expect(try SearchQuery("~Sour.*dough").requiredText == "dough")
        #expect(try SearchQuery("~done = tru?e").requiredText == "done = tr")
        #expect(try SearchQuery("~count = 1\\d+").requiredText == "count = 1")
        #expect(try SearchQuery("~(milk|bread)").requiredText == nil)
        #expect(try SearchQuery("~ab*c").requiredText == nil)
        // Code escapes stand for one character each; their digits are not text to look for.
        #expect(try SearchQuery("~\\x4Dilk").requiredText == "Milk")
        #expect(try SearchQuery("~\\u004Dilk").requiredText == "Milk")
        #expect(try SearchQuery("~\\U0000004Dilk").requiredText == "Milk")
        #expect(try SearchQuery("~\\0115ilk").requiredText == "Milk")
        #expect(try SearchQuery("~\\QMilk\\E").requiredText == nil)
        #expect(try SearchQuery("~\\cMilk").requiredText == nil)
    }

    @Test("wide characters take two cells and emoji their real width, in rows, state and frames")
    func wideCharacters() throws {
        try ViewerFixtures.withJournalPath("wide.rewind") { path in
            var configuration = JournalConfiguration()
            configuration.deterministic = true
            let journal = try JournalLogger(path: path, configuration: configuration)
            let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Menu"))
            channel.emit(.created(state: LoggedValue(["dish": "ramen"])), callSite: CallSite(), to: journal)
            channel.emit(.change(path: ChangedPath(name: "dish"), value: LoggedValue("ラーメン 🍜"), state: LoggedValue(["dish": "ラーメン 🍜"])), callSite: CallSite(), to: journal)
            channel.emit(.activity(LoggedValue("注文しました 👍🏽 done")), callSite: CallSite(), to: journal)
            journal.close()
            let program = ViewerProgram(timeline: Timeline(reader: try JournalReader(path: path)), model: ViewerModel(width: 80, height: 24, colors: false, title: "wide.rewind"))
            program.press(.right)
            try ViewerFixtures.expectFrame("wide-80x24", program.frame())
            #expect(CellWidth.of("ラーメン") == 8)
            #expect(CellWidth.of("🍜") == 2 && CellWidth.of("👍🏽") == 2 && CellWidth.of("e\u{301}") == 1)
            #expect(CellWidth.fitted("ラーメン", to: 5) == "ラー…")
            // ASCII's widths, told without the scalar's properties, are what its properties say.
            for value in UInt8(0)..<0x80 {
                let scalar = Unicode.Scalar(value)
                #expect(CellWidth.of(scalar) == CellWidth.byProperties(scalar), "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test("a commit its dispatch caused after the dispatch finished names its cause: ← #N checkout")
    func lateEffectNamesItsCause() throws {
        try ViewerFixtures.withJournalPath("late.rewind") { path in
            var configuration = JournalConfiguration()
            configuration.deterministic = true
            let journal = try JournalLogger(path: path, configuration: configuration)
            let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Cart"))
            let site = CallSite()
            channel.emit(.created(state: LoggedValue(["status": "open"])), callSite: site, parent: nil, to: journal)
            let checkout = channel.emit(.willDispatch(), name: "checkout", callSite: site, parent: nil, to: journal)
            channel.emit(.didDispatch(duration: .zero), name: "checkout", callSite: site, parent: checkout, to: journal)
            let add = channel.emit(.willDispatch(), name: "add", callSite: site, parent: nil, to: journal)
            channel.emit(.didDispatch(duration: .zero), name: "add", callSite: site, parent: add, to: journal)
            channel.emit(.willMutate, name: "confirm", callSite: site, parent: checkout, to: journal)
            channel.emit(.didMutate(duration: .zero, state: LoggedValue(["status": "confirmed"])), name: "confirm", callSite: site, parent: checkout, to: journal)
            journal.close()
            let reader = try JournalReader(path: path)
            // A deterministic journal numbers its steps from 1: the dispatch's step as recorded.
            let checkoutStep = try #require(reader.events().first { $0.kind == .willDispatch && $0.name == "checkout" }).sequence
            let program = ViewerProgram(timeline: Timeline(reader: reader), model: ViewerModel(width: 100, height: 24, colors: false))
            let frame = program.frame()
            let rows = frame.plainText.split(separator: "\n").map(String.init)
            let confirmRows = rows.filter { $0.contains("confirm") }
            #expect(confirmRows.count == 2, "\(rows.joined(separator: "\n"))")
            #expect(confirmRows.allSatisfy { $0.contains("← #\(checkoutStep) checkout") }, "\(confirmRows)")
            #expect(!rows.contains { $0.contains("add") && $0.contains("←") }, "an effect inside its dispatch needs no marker")
        }
    }

    @Test("follow mode shows events written after the viewer opened")
    func follow() throws {
        try ViewerFixtures.withJournalPath("live.rewind") { path in
            let journal = try JournalLogger(path: path)
            let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Live"))
            channel.emit(.created(state: LoggedValue(["count": 0])), callSite: CallSite(), to: journal)
            try journal.flush()

            let program = ViewerProgram(timeline: Timeline(reader: try JournalReader(path: path)), model: ViewerModel(width: 80, height: 24, colors: false))
            program.press(.character("F"))
            #expect(program.model.following)
            channel.emit(.replace(state: LoggedValue(["count": 1])), callSite: CallSite(), to: journal)
            try journal.flush()
            program.send(.tick)
            #expect(program.timeline.count == 2)
            #expect(program.model.position == 1)  // it was at the end, so it follows
            program.press(.character("g"))
            channel.emit(.replace(state: LoggedValue(["count": 2])), callSite: CallSite(), to: journal)
            try journal.flush()
            program.send(.tick)
            #expect(program.timeline.count == 3)
            #expect(program.model.position == 0)  // not at the end: the view stays put
            // F again (stop, start): following moves to the newest event at once.
            program.press(.character("F"), .character("F"))
            #expect(program.model.following)
            #expect(program.model.position == 2)
            journal.close()
            program.send(.tick)
            #expect(!program.model.following)
            #expect(program.model.message == "the writer closed the journal: following stopped")
        }
    }

    @Test("only the cells that changed are written; a wide character is written whole")
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
        var wide = first
        #expect(wide.write("語", row: 1, column: 3) == 5)
        #expect(wide.changes(from: first, colors: false) == "\u{1B}[2;4H\u{1B}[0m語\u{1B}[0m")
        #expect(wide.plainText.split(separator: "\n", omittingEmptySubsequences: false)[1] == "  h語lo")
    }

    @Test("no escape sequence from recorded data reaches the terminal")
    func controlCharacters() throws {
        let program = try ViewerFixtures.program("todo.rewind", width: 200, height: 60, keys: Self.jump(60) + [.character("d")])
        let frame = program.frame()
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
        #expect(KeyDecoder.decode(Array("\u{1B}[<64;10;5M\u{1B}[<65;10;5M".utf8)).keys == [.wheel(up: true, column: 9, row: 4), .wheel(up: false, column: 9, row: 4)])
        // A left click is a press (`M`); its release (`m`) is no key.
        #expect(KeyDecoder.decode(Array("\u{1B}[<0;5;4M\u{1B}[<0;5;4m".utf8)).keys == [.click(column: 4, row: 3)])
        #expect(KeyDecoder.decode([0x1B]).keys == [.escape])
        #expect(KeyDecoder.decode([0x1B, 0x5B], final: false).remainder == [0x1B, 0x5B])
        #expect(KeyDecoder.decode([0x03, 0x09, 0x0D, 0x7F, 0x71]).keys == [.interrupt, .tab, .enter, .backspace, .character("q")])
        #expect(KeyDecoder.decode(Array("é".utf8)).keys == [.character("é")])
    }
}

extension ViewerProgram {
    func press(contentsOf keys: [Key]) {
        for key in keys { press(key) }
    }

    /// Selects a row of the state pane as ↑/↓ would.
    func model_setStateSelection(_ index: Int) {
        press(.pageUp, .pageUp, .pageUp, .pageUp)
        for _ in 0..<index { press(.down) }
    }
}
