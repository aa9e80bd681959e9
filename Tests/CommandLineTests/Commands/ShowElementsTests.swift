import Foundation
@_spi(Tooling) import Rewind
import Testing
import TestSupport

/// `show --json --elements`: a state too large for one answer (MCP's are at most 256 KiB) read in
/// parts, one element or field a line (issue 63).
@Suite("show --json --elements")
struct ShowElementsTests {
    struct Inbox: Codable {
        var title = "inbox"
        var messages: [String]
    }

    @Test("a 400 KiB state is written one field, or one element of a key path, a line; each line reads as JSON and the elements come back whole")
    func largeStateInParts() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("inbox.rewind")
        let journal = try JournalLogger(path: path)
        let inbox = Inbox(messages: (0..<4_000).map { "message \($0) " + String(repeating: "x", count: 90) })
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Inbox", label: nil))
        channel.emit(.created(state: LoggedValue(inbox)), callSite: CallSite(), to: journal)
        journal.close()
        // Steps are numbered across the process: the one step is whatever number it was given.
        let step = String(try #require(try JournalReader(path: path).sequenceRange?.lowerBound))

        let whole = try CommandRunner.run(["show", path, "--at", step, "--json"])
        #expect(whole.status == 0 && whole.standardOutput.utf8.count > 400_000, "\(whole.standardError)")
        #expect(whole.standardOutput.split(separator: "\n").count == 1)

        let fields = try CommandRunner.run(["show", path, "--at", step, "--json", "--elements"])
        let fieldLines = fields.standardOutput.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(fields.status == 0 && fieldLines.map { $0?["key"] as? String } == ["title", "messages"], "\(fields.standardError)")

        let elements = try CommandRunner.run(["show", path, "--at", step, "messages", "--json", "--elements"])
        let lines = elements.standardOutput.split(separator: "\n")
        #expect(elements.status == 0 && lines.count == 4_000 && lines.allSatisfy { $0.utf8.count < 200 })
        let read = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(read.map { $0["index"] as? Int } == Array(0..<4_000))
        #expect(read.compactMap { $0["value"] as? String } == inbox.messages)

        let schema = try JSONSchemaCheck(file: JSONOutputTests.schemas + "show-element.schema.json")
        for line in lines.prefix(3) + fields.standardOutput.split(separator: "\n") {
            #expect(schema.problems(try JSONValue.parse(String(line))).isEmpty)
        }

        let scalar = try CommandRunner.run(["show", path, "--at", step, "title", "--json", "--elements"])
        #expect(scalar.standardOutput == "{\"value\":\"inbox\"}\n", "\(scalar.transcript)")
        let withoutJSON = try CommandRunner.run(["show", path, "--at", step, "--elements"])
        #expect(withoutJSON.status == 2 && withoutJSON.standardError.contains("add --json"), "\(withoutJSON.transcript)")
    }
}
