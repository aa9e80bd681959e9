import Foundation
@_spi(Tooling) import Rewind
import RewindViewer
import Synchronization
import Testing
import TestSupport

@Suite("The viewer on a flight recorder's dump")
struct DumpOpeningTests {
    @Test("a dump opens at the step its trigger fired at, with why it was made in the title")
    func opensAtTheTrigger() throws {
        let directory = TemporaryDirectory()
        let made = DispatchSemaphore(value: 0)
        let dumps = Mutex<[String]>([])
        var configuration = FlightRecorder.Configuration()
        configuration.maximumBytes = 128 << 10
        configuration.conditions = [try Condition(parsing: "count == 40")]
        configuration.onDump = { path in
            dumps.withLock { $0.append(path) }
            made.signal()
        }
        let recorder = try FlightRecorder(path: directory.file("live.rewind-ring"), configuration: configuration)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Live"))
        channel.emit(.created(state: LoggedValue(["count": 0])), callSite: CallSite(), to: recorder)
        for count in 1...100 {
            channel.emit(.replace(state: LoggedValue(["count": count])), callSite: CallSite(), to: recorder)
        }
        try recorder.sync()
        #expect(made.wait(timeout: .now() + .seconds(600)) == .success, "the condition made a dump")
        recorder.close()
        let path = try #require(dumps.withLock { $0.first })
        let reader = try JournalReader(path: path)
        let why = try #require(reader.header.dump)

        let program = ViewerProgram(reader: reader, title: "live.rewind", width: 160, height: 24, colors: false)
        let title = String(program.frame().plainText.split(separator: "\n")[0])
        #expect(title.contains(#" rewind  live.rewind  dump: condition: "count == 40 on Live#"#), "\(title)")
        #expect(program.model.page.step?.event.sequence == why.step)
        // At 80 columns the title is cut; the message line says it in full until a key.
        let narrow = ViewerProgram(reader: reader, title: "live.rewind", width: 80, height: 24, colors: false)
        let lastLine = String(narrow.frame().plainText.split(separator: "\n", omittingEmptySubsequences: false)[23])
        #expect(lastLine.contains(#"dump: condition: "count == 40 on Live#"#) && lastLine.contains("trigger's step"), "\(lastLine)")
        narrow.send(.key(.character("j")))
        #expect(narrow.model.message == nil)
        #expect(try reader.state(of: program.model.page.step!.event.source.instanceID, at: why.step!)?[.key("count")] == .integer(40))
    }
}
