import ArgumentParser
import Foundation
import Rewind

struct ExportCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, json
    }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the whole journal as JSON Lines or one JSON document, states included.",
        discussion: "Example:  rewind export Fixtures/todo.rewind --format jsonl | jq -c 'select(.state) | .state.items | length'"
    )

    @Argument(help: "The journal (.rewind file).", completion: .file(extensions: ["rewind"])) var file: String
    @Option(help: "jsonl (one event per line) or json (one document).") var format: Format
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.", completion: .file()) var output: String?

    func run() throws {
        if let output { try JournalOpening.refuseToOverwrite(file, with: output) }
        let reader = try JournalOpening.open(file)
        let out: Output
        if let output {
            let descriptor = open(output, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw CommandFailure("cannot write \(VisibleText.escaped(output)): \(String(cString: strerror(errno)))") }
            out = Output(descriptor: descriptor)
        } else {
            out = Output()
        }
        var timeline = StateWalker()
        if format == .json {
            out.line("{\"format_version\":\(reader.header.formatVersion),\"writer\":\(JSONText.string(reader.header.writerVersion)),\"events\":[")
        }
        var first = true
        for event in reader.events() {
            let state = timeline.advance(event)?.after
            let object = EventText.json(event, state: state)
            if format == .json {
                out.line((first ? "" : ",") + object)
            } else {
                out.line(object)
            }
            first = false
        }
        if format == .json { out.line("]}") }
        out.flush()
        JournalOpening.warnAboutDamage(in: reader)
    }
}
