import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind
import RewindOpenTelemetry

/// `rewind-otlp FILE --otlp URL`: ships a recorded journal to an OpenTelemetry receiver.
/// `rewind export FILE --otlp URL` runs this tool (found beside `rewind` or on `PATH`), so that the
/// `rewind` tool itself never links swift-otel and its networking stack.
struct OTLPExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewind-otlp",
        abstract: "Send a journal's events to an OpenTelemetry receiver over OTLP/HTTP.",
        discussion: """
            Dispatches and commits become spans, changes span events and log records, activities log \
            records. Exit codes: 0 everything was delivered; 2 bad usage, an unreadable journal, or a \
            receiver that could not be reached or refused part of the export.
            Example:  rewind-otlp session.rewind --otlp http://localhost:4318 --service-name checkout-app
            """,
        version: RewindVersion.current
    )

    @Argument(help: "The journal (.rewind file).", completion: .file(extensions: ["rewind"])) var file: String
    @Option(help: ArgumentHelp("The receiver's OTLP/HTTP base address (/v1/traces and /v1/logs are appended).", valueName: "url"))
    var otlp: String
    @Option(help: "The service.name every span and log record carries.") var serviceName = "rewind"
    @Option(name: .customLong("header"), help: ArgumentHelp("An HTTP header for every request, as 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []
    @Option(help: ArgumentHelp("Cut attribute values longer than this many bytes, ending them with a marker (at least 64).", valueName: "bytes"))
    var attributeValueLimit = 4_096

    func validate() throws {
        guard let address = URL(string: otlp), ["http", "https"].contains(address.scheme ?? ""), address.host != nil else {
            throw ValidationError("--otlp needs an http:// or https:// address, such as http://localhost:4318")
        }
        guard attributeValueLimit >= 64 else { throw ValidationError("--attribute-value-limit must be at least 64 (bytes)") }
        for header in headers where !header.contains(":") {
            throw ValidationError("--header '\(VisibleText.escaped(header))' needs the form 'Name: value'")
        }
    }

    func run() async throws {
        let journal: JournalReader
        do {
            journal = try JournalReader(path: file)
        } catch {
            throw Failure(error.description)
        }
        let pairs = headers.map { header in
            let parts = header.split(separator: ":", maxSplits: 1)
            return (String(parts[0]).trimmingCharacters(in: .whitespaces), String(parts.count > 1 ? parts[1] : "").trimmingCharacters(in: .whitespaces))
        }
        // A journal is read as fast as the receiver takes it: send often, in full batches.
        let configuration = OpenTelemetryConfiguration(
            endpoint: otlp, serviceName: serviceName, headers: pairs, batchSize: 2_048, flushInterval: .milliseconds(10),
            attributeValueLimit: attributeValueLimit
        )
        let total = journal.eventCount
        let showsProgress = isatty(STDERR_FILENO) == 1
        let delivery = try await OpenTelemetryExport.export(journal, configuration: configuration) { done in
            if showsProgress { Self.report("\rexporting: \(done) of \(total) events", newline: false) }
        }
        if showsProgress && total >= 10_000 { Self.report("\r\u{1B}[K", newline: false) }
        if !journal.damage.isEmpty {
            Self.report("warning: \(VisibleText.escaped(file)) is damaged (\(journal.damage.count) regions, \(journal.lostEventCount) events lost); exported what survived")
        }
        guard delivery.isComplete else {
            // swift-otel reports a receiver that never answers (nothing listening, too) as a timeout.
            let reason = delivery.lastFailure.map { $0.contains("TimeoutError") ? "no answer within \(configuration.exportTimeout)" : VisibleText.escaped($0) } ?? "no answer"
            throw Failure("\(VisibleText.escaped(otlp)) did not take \(delivery.spansNotDelivered) spans and \(delivery.logRecordsNotDelivered) log records (\(delivery.failedExports) failed requests; last: \(reason))")
        }
        Self.report("sent \(total) events to \(VisibleText.escaped(otlp)): \(delivery.spansExported) spans, \(delivery.logRecordsExported) log records")
    }

    static func report(_ text: String, newline: Bool = true) {
        FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
    }

    /// A failure reported as one line on standard error, with exit code 2.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Runs the command with Rewind's exit codes: bad usage and failures exit 2 with one line on
/// standard error.
@main
enum Main {
    static func main() async {
        do {
            var command = try OTLPExportCommand.parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let failure as OTLPExportCommand.Failure {
            OTLPExportCommand.report("rewind-otlp: \(failure.description)")
            exit(2)
        } catch {
            let status = OTLPExportCommand.exitCode(for: error)
            if status == .success { OTLPExportCommand.exit(withError: error) }
            OTLPExportCommand.report("rewind-otlp: \(OTLPExportCommand.message(for: error)) (see 'rewind-otlp --help')")
            exit(2)
        }
    }
}
