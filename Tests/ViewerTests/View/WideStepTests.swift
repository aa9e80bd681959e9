import Foundation
@_spi(Tooling) import Rewind
@testable import RewindViewer
import Testing

@Suite("A step that changes tens of thousands of keys")
struct WideStepTests {
    static func record(keys: Int, to path: String) throws {
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Settings"))
        channel.emit(.created(state: LoggedValue(["flags": [String: Int]()])), callSite: CallSite(), to: journal)
        var flags: [String: Int] = [:]
        for index in 0..<keys { flags["flag\(index)"] = index }
        channel.emit(.willMutate, name: "load", callSite: CallSite(), to: journal)
        channel.emit(.change(path: ChangedPath(name: "flags"), value: LoggedValue(flags), state: LoggedValue(["flags": flags])), name: "load", callSite: CallSite(), to: journal)
        channel.emit(.didMutate(duration: .zero, state: LoggedValue(["flags": flags])), name: "load", callSite: CallSite(), to: journal)
        flags["flag7"] = -1
        channel.emit(.willMutate, name: "set one", callSite: CallSite(), to: journal)
        channel.emit(.change(path: ChangedPath(name: "flags"), value: LoggedValue(flags), state: LoggedValue(["flags": flags])), name: "set one", callSite: CallSite(), to: journal)
        channel.emit(.didMutate(duration: .zero, state: LoggedValue(["flags": flags])), name: "set one", callSite: CallSite(), to: journal)
        journal.close()
    }

    @Test("the viewer steps onto, through and off a step that set 100,000 keys, and marks what it changed", .timeLimit(.minutes(10)))
    func viewerAnswers() throws {
        try ViewerFixtures.withJournalPath("wide.rewind") { path in
            try Self.record(keys: 100_000, to: path)
            let program = ViewerProgram(timeline: Timeline(reader: try JournalReader(path: path)), model: ViewerModel(width: 120, height: 40, colors: false))
            // created, willMutate, then the change that set every key.
            program.press(.character("j"), .character("j"))
            #expect(program.model.page.step?.event.kind == .change)
            var text = program.frame().plainText
            #expect(text.contains("flags: {100000}") && text.contains("(+99999 more)"), "\(text.prefix(600))")
            // The commit that changed one key: its change row, and the key selected in the state.
            program.press(.character("G"), .character("k"))
            #expect(program.model.page.step?.event.kind == .change)
            text = program.frame().plainText
            #expect(text.contains("flags.flag7: 7 → -1") && text.contains("flag7: -1"), "\(text.prefix(600))")
            program.press(.tab, .character("j"), .character("k"), .tab, .character("g"))
            #expect(program.model.page.step?.event.kind == .created)
        }
    }

    @Test("on a wide terminal the timeline takes the room: the state pane keeps about 64 columns, the rows show whole unit names and, wider still, their call sites", arguments: [160, 200, 240])
    func wideTerminal(width: Int) throws {
        let program = try ViewerFixtures.program("demo.rewind", width: width, height: 20)
        #expect(program.model.leftWidth > program.model.rightWidth && program.model.rightWidth <= 64 + (width - 128) / 4 + 1)
        let rows = program.frame().plainText.split(separator: "\n").dropFirst(2).prefix(8).map { $0.prefix(program.model.leftWidth) }
        #expect(rows.allSatisfy { $0.contains("CounterSample#1 ") }, "\(rows)")
        if width >= 200 {
            #expect(rows.allSatisfy { $0.contains(".swift:") }, "\(rows)")
        }
        // The narrow layout is as it was: half each.
        let narrow = try ViewerFixtures.program("demo.rewind", width: 100, height: 20)
        #expect(narrow.model.leftWidth == 50)
    }

    @Test("on a narrow terminal the state pane's title keeps the step number; the unit's name shortens instead")
    func titleKeepsTheStep() throws {
        let program = try ViewerFixtures.program("demo.rewind", width: 72, height: 20)
        for _ in 0..<60 {
            program.press(.character("l"))
            guard let step = program.model.page.step else { continue }
            let title = program.frame().plainText.split(separator: "\n")[1]
            #expect(title.contains("after #\(step.afterSequence)"), "\(title)")
        }
    }
}
