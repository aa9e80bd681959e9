import Foundation
@_spi(Tooling) import Rewind
import RewindOpenTelemetry
import Testing

@Suite("OpenTelemetry export of a recorded journal", .serialized)
struct JournalExportTests {
    /// Rewind's committed fixtures, in the repository this package lives in.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    @Test("every event of a journal arrives: dispatches and commits as spans at their recorded times, the rest as log records with their values")
    func exportsEveryEvent() async throws {
        let receiver = try LocalReceiver()
        defer { receiver.stop() }
        let journal = try JournalReader(path: Self.fixtures.appendingPathComponent("todo.rewind").path)
        let events = Array(journal.events())
        let delivery = try await OpenTelemetryExport.export(journal, configuration: .init(endpoint: receiver.endpoint, batchSize: 8))
        #expect(delivery.isComplete)

        let received = Received(try receiver.requests())
        let spanKinds: Set<Event.Category> = [.willDispatch, .willMutate]
        let spanEvents = events.filter { spanKinds.contains($0.kind) }
        let recordEvents = events.filter { ![.willDispatch, .willMutate, .didDispatch, .didMutate].contains($0.kind) }
        #expect(delivery.spansExported == spanEvents.count)
        #expect(delivery.logRecordsExported == recordEvents.count)

        // Each span is its opening event: its sequence number, name, and start at the recorded time.
        let spans = Dictionary(received.spans.map { (UInt64(Received.attributes($0["attributes"])["rewind.seq"] ?? "") ?? 0, $0) }) { first, _ in first }
        #expect(Set(spans.keys) == Set(spanEvents.map(\.sequence)))
        for event in spanEvents {
            let span = try #require(spans[event.sequence])
            #expect(span["name"] as? String == "\(event.kind == .willDispatch ? "dispatch" : "mutate") \(event.name)")
            #expect(span["startTimeUnixNano"] as? String == String(event.wallNanoseconds))
            #expect(Received.attributes(span["attributes"])["rewind.source"] == event.source.description)
        }
        // Each log record is its event, with the recorded value as JSON and the recorded time.
        let records = Dictionary(received.records.map { (UInt64(Received.attributes($0["attributes"])["rewind.seq"] ?? "") ?? 0, $0) }) { first, _ in first }
        #expect(Set(records.keys) == Set(recordEvents.map(\.sequence)))
        var walker = StateWalker()
        for event in events {
            let old = walker.value(before: event)
            let state = walker.advance(event)?.after
            guard let record = records[event.sequence] else { continue }
            let fields = Received.attributes(record["attributes"])
            #expect(fields["rewind.kind"] == event.kind.rawValue)
            #expect(fields["rewind.time_ns"] == String(event.wallNanoseconds))
            #expect(fields["rewind.path"] == event.path)
            #expect(fields["rewind.parent"] == event.parent.map { String($0) })
            let value = event.value ?? ([.created, .replace].contains(event.kind) ? state : nil)
            #expect(fields["rewind.value"] == value.map(JSONText.value))
            // What the event did, as the viewer's row says it, with a change's old value; an app's
            // own message is its text (its metadata is the value), at its own severity.
            if event.kind == .log {
                #expect(fields["rewind.summary"] == event.description)
                let severity = ["info": "SEVERITY_NUMBER_INFO", "warning": "SEVERITY_NUMBER_WARN", "error": "SEVERITY_NUMBER_ERROR"][event.name]
                #expect(record["severityNumber"] as? String == severity, "\(event.name): \(record)")
                #expect((record["body"] as? [String: Any])?["stringValue"] as? String == event.description)
            } else {
                #expect(fields["rewind.summary"] == (event.rowText(old: old).isEmpty ? nil : event.rowText(old: old)))
            }
            #expect(fields["rewind.old"] == (old.isKnown ? JSONText.value(old.held ?? .null) : nil))
        }
        // The list changes read as what changed in the list, as in the viewer and `rewind log`.
        let summaries = Set(received.records.compactMap { Received.attributes($0["attributes"])["rewind.summary"] })
        #expect(summaries.isSuperset(of: ["items[id: 2].done: false → true", #"items −[id: 2] "Eggs""#, "nextID: 1 → 2", "saved (itemCount: 4)"]))
    }

    @Test("a commit made after its dispatch ended is still that dispatch's child span; a payload sent under a secret name arrives redacted")
    func lateCommitAndSecrets() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-otlp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("late.rewind").path
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Cart"))
        let site = CallSite()
        channel.emit(.created(state: LoggedValue(["status": "open"])), callSite: site, parent: nil, to: journal)
        let checkout = channel.emit(.willDispatch(), name: "checkout", callSite: site, parent: nil, to: journal)
        channel.emit(.didDispatch(duration: .zero), name: "checkout", callSite: site, parent: checkout, to: journal)
        let login = channel.emit(.willDispatch(input: LoggedValue("otlp-secret-4242")), name: "setPassword", callSite: site, parent: nil, to: journal)
        channel.emit(.didDispatch(duration: .zero), name: "setPassword", callSite: site, parent: login, to: journal)
        channel.emit(.willMutate, name: "confirm", callSite: site, parent: checkout, to: journal)
        channel.emit(.didMutate(duration: .zero, state: LoggedValue(["status": "confirmed"])), name: "confirm", callSite: site, parent: checkout, to: journal)
        journal.close()

        let receiver = try LocalReceiver()
        defer { receiver.stop() }
        let delivery = try await OpenTelemetryExport.export(try JournalReader(path: path), configuration: .init(endpoint: receiver.endpoint, batchSize: 8))
        #expect(delivery.isComplete)
        let requests = try receiver.requests()
        let received = Received(requests)
        func span(_ name: String) -> [String: Any]? { received.spans.first { $0["name"] as? String == name } }
        let dispatch = try #require(span("dispatch checkout")), confirm = try #require(span("mutate confirm"))
        #expect(confirm["traceId"] as? String == dispatch["traceId"] as? String)
        #expect(confirm["parentSpanId"] as? String == dispatch["spanId"] as? String)
        #expect(!"\(requests)".contains("otlp-secret-4242"))
    }

    @Test("every span, span event and log record names the journal's recording, and gives each field one type on every signal")
    func recordingIDAndTypes() async throws {
        let receiver = try LocalReceiver()
        defer { receiver.stop() }
        let journal = try JournalReader(path: Self.fixtures.appendingPathComponent("todo.rewind").path)
        // The configuration's identifier is for live loggers: an export carries the journal's own.
        let delivery = try await OpenTelemetryExport.export(journal, configuration: .init(endpoint: receiver.endpoint, recordingID: UUID()))
        #expect(delivery.isComplete)
        let received = Received(try receiver.requests())
        let lists = received.everyAttributeList
        #expect(lists.count > received.spans.count + received.records.count)
        for list in lists {
            #expect(Received.attributes(list)["rewind.recording_id"] == journal.header.recordingIDString)
            let types = Received.types(list)
            for key in ["rewind.seq", "rewind.code.line", "rewind.parent", "rewind.recording_id"] where types[key] != nil {
                #expect(types[key] == "stringValue", "\(key)")
            }
        }
    }

    @Test("a value longer than the attribute limit is cut to fit it, with a marker saying how long it was")
    func attributeValueLimit() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-otlp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("large.rewind").path
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Notes"))
        let note = String(repeating: "é", count: 6_000)
        channel.emit(.created(state: LoggedValue(["note": ""])), callSite: CallSite(), parent: nil, to: journal)
        channel.emit(.activity(LoggedValue(note)), name: "typed", callSite: CallSite(), parent: nil, to: journal)
        journal.close()

        for limit in [4_096, 100] {
            let receiver = try LocalReceiver()
            defer { receiver.stop() }
            var configuration = OpenTelemetryConfiguration(endpoint: receiver.endpoint)
            if limit != 4_096 { configuration.attributeValueLimit = limit }
            let delivery = try await OpenTelemetryExport.export(try JournalReader(path: path), configuration: configuration)
            #expect(delivery.isComplete)
            let record = try #require(Received(try receiver.requests()).records.first { Received.attributes($0["attributes"])["rewind.kind"] == "activity" })
            let value = try #require(Received.attributes(record["attributes"])["rewind.value"])
            let whole = JSONText.value(.string(note)).utf8.count
            #expect(value.utf8.count <= limit && value.utf8.count > limit - 4)
            #expect(value.hasSuffix("…[cut: \(whole) bytes]"))
            #expect(value.hasPrefix("\"éé"))
        }
    }

    @Test("rewind-otlp: sends a journal and says so; a bad address, a missing journal and an unreachable receiver each exit 2 with one line")
    func commandLine() async throws {
        let receiver = try LocalReceiver()
        defer { receiver.stop() }
        let journal = Self.fixtures.appendingPathComponent("todo.rewind").path
        let sent = try Tool.run(["rewind-otlp", journal, "--otlp", receiver.endpoint, "--service-name", "ci", "--header", "x-team: mobile"])
        #expect(sent.status == 0)
        #expect(sent.standardError.hasPrefix("sent 72 events to \(receiver.endpoint): "))
        let requests = try receiver.requests()
        #expect(requests.allSatisfy { $0.headers["x-team"] == "mobile" })
        #expect(Received(requests).serviceNames == ["ci"])

        let badAddress = try Tool.run(["rewind-otlp", journal, "--otlp", "localhost:4318"])
        #expect(badAddress.status == 2)
        #expect(badAddress.standardError.hasPrefix("rewind-otlp: --otlp needs an http:// or https:// address"))
        let missing = try Tool.run(["rewind-otlp", "/nonexistent/session.rewind", "--otlp", receiver.endpoint])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("rewind-otlp: ") && missing.standardError.split(separator: "\n").count == 1)

        let port = try LocalReceiver.unusedPort()
        let down = try Tool.run(["rewind-otlp", journal, "--otlp", "http://127.0.0.1:\(port)"])
        #expect(down.status == 2)
        #expect(down.standardError.hasPrefix("rewind-otlp: http://127.0.0.1:\(port) did not take "))
        #expect(down.standardError.split(separator: "\n").count == 1)
    }
}
