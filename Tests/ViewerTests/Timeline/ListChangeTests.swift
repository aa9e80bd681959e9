import Foundation
@_spi(Tooling) import Rewind
import RewindViewer
import Testing

@Suite("A list of 800 items replaced whole on every commit")
struct ListChangeTests {
    struct Item: Codable, Sendable {
        var id: Int
        var name: String
        var quantity: Int
    }

    struct Cart: Codable, Sendable {
        var items: [Item]
        var total: Int
    }

    /// A cart whose app writes `state.items = newList` on each commit (so each change's path is
    /// `items`), one item's quantity at a time, and a total beside it.
    static func record(to path: String) throws {
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Cart"))
        var items = (1...800).map { Item(id: $0, name: "item \($0)", quantity: 1) }
        func state() -> LoggedValue { LoggedValue(Cart(items: items, total: items.reduce(0) { $0 + $1.quantity })) }
        channel.emit(.created(state: state()), callSite: CallSite(), to: journal)
        for (index, delta) in [(1, -5), (400, 2), (1, -1), (799, 3)] {
            items[index].quantity += delta
            channel.emit(.willMutate, name: "adjust", callSite: CallSite(), to: journal)
            channel.emit(.change(path: ChangedPath(name: "items"), value: LoggedValue(items), state: state()), name: "adjust", callSite: CallSite(), to: journal)
            channel.emit(.change(path: ChangedPath(name: "total"), value: LoggedValue(items.reduce(0) { $0 + $1.quantity }), state: state()), name: "adjust", callSite: CallSite(), to: journal)
            channel.emit(.didMutate(duration: .zero, state: state()), name: "adjust", callSite: CallSite(), to: journal)
        }
        journal.close()
    }

    @Test("filtered by an item's path, each row says what changed in the item, as the unfiltered row does, not the whole list")
    func filteredRowsSayTheChange() throws {
        try ViewerFixtures.withJournalPath("cart.rewind") { path in
            try Self.record(to: path)
            let program = ViewerProgram(timeline: Timeline(reader: try JournalReader(path: path)), model: ViewerModel(width: 120, height: 30, colors: false))
            // Unfiltered: created, willMutate, then the change of items.
            program.press(.character("j"), .character("j"))
            let unfiltered = program.frame().plainText
            #expect(unfiltered.contains("items[id: 2].quantity: 1 → -4"), "\(unfiltered)")
            program.press(contentsOf: ViewerFixtures.typing("fpath:items[id: 2].quantity") + [.enter])
            let frame = program.frame().plainText
            let rows = frame.split(separator: "\n").filter { $0.contains(" change ") && $0.contains("#") && !$0.contains("step ") }
            #expect(rows.count == 2, "\(frame)")
            #expect(rows.first?.contains("items[id: 2].quantity: 1 → -4") == true, "\(rows)")
            #expect(rows.last?.contains("items[id: 2].quantity: -4 → -5") == true, "\(rows)")
            #expect(!rows.contains { $0.contains("items = [") }, "\(rows)")
        }
    }

    @Test("the detail pane of a list's change shows what changed in it, with the rest folded, not both 800-item lists")
    func detailShowsTheDiff() throws {
        try ViewerFixtures.withJournalPath("cart.rewind") { path in
            try Self.record(to: path)
            let program = ViewerProgram(timeline: Timeline(reader: try JournalReader(path: path)), model: ViewerModel(width: 120, height: 60, colors: false))
            program.press(.character("j"), .character("j"), .character("d"))
            let step = try #require(program.model.page.step)
            let detail = DetailLinesProbe.lines(program)
            #expect(detail.contains { $0.contains("changed") }, "\(detail)")
            #expect(detail.contains { $0.contains("- ") && $0.contains("quantity: 1") } && detail.contains { $0.contains("+ ") && $0.contains("quantity: -4") }, "\(detail)")
            #expect(detail.contains { $0.contains("… 799 unchanged") }, "\(detail)")
            #expect(detail.count < 40, "\(detail.count) lines for one item's change")
            #expect(step.event.kind == .change)
        }
    }
}

/// The detail pane's text, from a frame: the lines below the state pane once `d` shows it.
enum DetailLinesProbe {
    static func lines(_ program: ViewerProgram) -> [String] {
        let text = program.frame().plainText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = text.firstIndex(where: { $0.contains("kind      change") }) else { return [] }
        return Array(text[start...])
    }
}
