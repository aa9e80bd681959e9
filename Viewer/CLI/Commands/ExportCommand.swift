import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

struct ExportCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, json, perfetto
    }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the whole journal as JSON Lines or one JSON document, states included, as a Perfetto trace, or to an OpenTelemetry receiver.",
        discussion: """
            Examples:  rewind export Fixtures/todo.rewind --format jsonl | jq -c 'select(.state) | .state.items | length'
                       rewind export session.rewind --format perfetto -o session.pftrace   (open it in ui.perfetto.dev)
                       rewind export session.rewind --otlp http://localhost:4318 --service-name checkout-app
            --otlp sends dispatches and commits as spans, changes and activities as log records, over \
            OTLP/HTTP; it runs the rewind-otlp tool (built from Rewind's OpenTelemetry package), found \
            beside rewind or on PATH, and exits 2 when the receiver cannot be reached or refuses events.
            """
    )

    @OptionGroup var journal: JournalArgument
    var file: String { journal.file }
    @Option(help: "jsonl (one row per event: the table docs/EXPORT_SCHEMA.md describes, for jq, DuckDB and ClickHouse), json (one document) or perfetto (a binary trace for ui.perfetto.dev).") var format: Format?
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.", completion: .file()) var output: String?
    @Flag(help: "With --format perfetto: a counter track for each number inside a list element too (items[id: 3].quantity), up to 1,000 tracks.") var elementCounters = false
    @Option(help: ArgumentHelp("With --format jsonl|json: the whole state on every Nth row of a unit that moved it (1, the default: on each; 0: never). The changes are on every row; a state left out is null.", valueName: "N"))
    var states: Int = 1
    @OptionGroup(title: "OpenTelemetry") var openTelemetry: OpenTelemetryOptions

    /// `--otlp` and the options that go with it, passed on to rewind-otlp as they are.
    struct OpenTelemetryOptions: ParsableArguments {
        @Option(help: ArgumentHelp("Send the events to this OTLP/HTTP receiver instead (an OpenTelemetry Collector, Jaeger or Grafana Alloy: http://HOST:4318).", valueName: "url"))
        var otlp: String?
        @Option(help: "With --otlp: the service.name every span and log record carries.") var serviceName: String?
        @Option(name: .customLong("header"), help: ArgumentHelp("With --otlp: an HTTP header for every request, as 'Name: value' (repeatable).", valueName: "header"))
        var headers: [String] = []
        @Option(help: ArgumentHelp("With --otlp: cut attribute values longer than this many bytes (default 4096), ending them with a marker.", valueName: "bytes"))
        var attributeValueLimit: Int?

        /// The arguments rewind-otlp takes for these options.
        var arguments: [String] {
            (otlp.map { ["--otlp", $0] } ?? []) + (serviceName.map { ["--service-name", $0] } ?? []) + headers.flatMap { ["--header", $0] }
                + (attributeValueLimit.map { ["--attribute-value-limit", String($0)] } ?? [])
        }
    }

    func validate() throws {
        switch (format, openTelemetry.otlp) {
        case (nil, nil): throw ValidationError("say where to export: --format jsonl|json, or --otlp URL")
        case (.some, .some): throw ValidationError("--format and --otlp cannot be combined")
        case (nil, .some) where output != nil: throw ValidationError("--output and --otlp cannot be combined: --otlp sends to a receiver, not to a file")
        case (.some, nil) where openTelemetry.serviceName != nil || !openTelemetry.headers.isEmpty || openTelemetry.attributeValueLimit != nil:
            throw ValidationError("--service-name, --header and --attribute-value-limit go with --otlp")
        default: break
        }
        guard states >= 0 else { throw ValidationError("--states takes 0 (never) or N (every Nth row that moved a unit's state)") }
    }

    func run() throws {
        guard let format else {
            let tool = CompanionTool(
                name: "rewind-otlp",
                installHint: "build it with 'swift build -c release --package-path OpenTelemetry' in Rewind's checkout and put .build/release/rewind-otlp beside rewind or on PATH"
            )
            let status = try tool.run([file] + openTelemetry.arguments)
            if status != ExitStatus.success { throw ExitCode(status) }
            return
        }
        if let output { try JournalOpening.refuseToOverwrite(file, with: output) }
        if format == .perfetto, output == nil, isatty(STDOUT_FILENO) != 0 {
            throw CommandFailure("a Perfetto trace is binary: write it to a file with -o FILE.pftrace")
        }
        let reader = try JournalOpening.open(file)
        if format == .perfetto { return try exportPerfetto(reader) }
        let out = try output.map(Output.init(file:)) ?? Output()
        let rows = ExportRow(header: reader.header)
        if format == .json {
            // The document's fields, then its `events` array left open: the rows stream into it.
            out.line(JSONText.object { document in
                document.field("format_version", reader.header.formatVersion)
                document.field("writer", reader.header.writerVersion)
                document.field("recording_id", reader.header.recordingIDString)
                document.field("app_version", reader.header.appVersion)
            }.dropLast() + ",\"events\":[")
        }
        let progress = ReadProgress(reading: file)
        // In a JSON document every row but the first follows a comma.
        let prefix: StaticString = format == .json ? "," : ""
        var first = true
        let everyNth = states
        if everyNth <= 1 {
            // Every row or none carries its state: a row depends on its event and its source's
            // state alone, so blocks are written on every core.
            let buffers = ReusedBuffers()
            let walk = WalkedEvents(
                reader: reader, matching: EventFilter(), start: .empty, makePart: buffers.take,
                add: { record, old, step, bytes in
                    prefix.withUTF8Buffer { bytes.append(contentsOf: $0) }
                    rows.write(record, step: step, old: old, includingState: everyNth == 1, to: &bytes)
                }
            )
            walk.forEachPart(progress: progress.update) { bytes in
                if first, bytes.first == UInt8(ascii: ",") {
                    out.bytes(Array(bytes.dropFirst()))
                } else {
                    out.bytes(bytes)
                }
                first = false
                buffers.giveBack(&bytes)
            }
        } else {
            // Per unit, the rows that moved its state so far: every Nth carries it.
            var moves: [UInt64: Int] = [:]
            var walker = StateWalker()
            var row: [UInt8] = []
            for event in reader.events().reportingProgress(progress.update) {
                var old = ValueBefore.unknown
                let step = walker.advance(event, old: &old)
                var includesState = false
                if step != nil {
                    let count = moves[event.source.instanceID, default: 0]
                    moves[event.source.instanceID] = count + 1
                    includesState = count % everyNth == 0
                }
                row.removeAll(keepingCapacity: true)
                if !first { prefix.withUTF8Buffer { row.append(contentsOf: $0) } }
                rows.write(event, step: step, old: old, includingState: includesState, to: &row)
                out.bytes(row)
                first = false
            }
        }
        if format == .json { out.line("]}") }
        progress.finish()
        out.finish()
    }

    /// The journal as a Perfetto trace (``PerfettoTrace``), written as it is made.
    private func exportPerfetto(_ reader: JournalReader) throws {
        let out = try output.map(Output.init(file:)) ?? Output()
        var trace = PerfettoTrace(recordingName: URL(fileURLWithPath: file).lastPathComponent)
        trace.countsListElements = elementCounters
        let progress = ReadProgress(reading: file)
        // Each block is walked, and its steps' changes found, on a thread of its own; the trace
        // takes them in order (its names and tracks are numbered as they first appear), from the
        // records read in their blocks: no event made.
        let walk = WalkedEvents(
            reader: reader, matching: EventFilter(), start: .empty, makePart: { [(BlockRecords.Record, PerfettoTrace.Step)]() },
            add: { record, _, change, part in part.append((record, PerfettoTrace.step(change))) }
        )
        walk.forEachPart(progress: progress.update) { part in
            for (record, step) in part { trace.add(record, step: step) }
            out.bytes(trace.takeBytes())
        }
        progress.finish()
        out.finish()
        JournalOpening.warnAboutDamage(in: reader)
    }
}
