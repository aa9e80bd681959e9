import Cycler
import Foundation
import Rewind
import RewindOpenTelemetry
import Testing

@Suite("OpenTelemetry export", .serialized)
struct OpenTelemetryLoggerTests {
    final class Cart: CyclerType, Sendable {
        struct State: Codable { var items: [String] = []; var apiToken = "" }
        enum Activity { case checkedOut(count: Int) }

        let state: Storage<State> = .init(.init())

        func add(_ item: String) {
            dispatch("add") { context in
                context.commit("append") { $0.update($0.value.items + [item], \.items) }
            }
        }

        func signIn() {
            dispatch("sign in") { context in
                context.commit("token") { $0.update("s3cr3t", \.apiToken) }
            }
        }

        func checkOut() {
            let count = state.value.items.count
            dispatch("check out") { context in
                context.emit(.checkedOut(count: count))
            }
        }
    }

    @Test("dispatches become spans, commits child spans, changes span events and log records, activities log records — every field checked")
    func exportsToACollector() async throws {
        let receiver = try LocalReceiver()
        defer { receiver.stop() }
        let recording = UUID()
        let exporter = try OpenTelemetryLogger(configuration: .init(
            endpoint: receiver.endpoint, serviceName: "cart-tests", headers: [("x-api-key", "k-123")], recordingID: recording
        ))
        #expect(exporter.recordingID == recording)
        let cart = Cart()
        cart.set(logger: exporter)
        cart.add("tea")
        cart.signIn()
        cart.checkOut()
        let delivery = await exporter.shutdown()
        #expect(exporter.eventsDropped == 0)
        #expect(delivery.isComplete)

        let requests = try receiver.requests()
        #expect(Set(requests.map(\.signal)) == ["traces", "logs"])
        #expect(requests.allSatisfy { $0.headers["x-api-key"] == "k-123" && $0.headers["content-type"] == "application/x-protobuf" })
        let received = Received(requests)
        // Three dispatches and two commits; two changes and one activity (plus the unit's creation).
        #expect(received.spans.count == 5)
        #expect(delivery.spansExported == received.spans.count)
        #expect(delivery.logRecordsExported == received.records.count)
        #expect(received.records.filter { Received.body(of: $0)?.hasPrefix("change") == true }.count == 2)
        #expect(received.serviceNames == ["cart-tests"])
        // Every span, span event and log record names the recording, and each field has one type.
        for list in received.everyAttributeList {
            #expect(Received.attributes(list)["rewind.recording_id"] == recording.uuidString.lowercased())
            #expect(Received.types(list)["rewind.seq"] == "stringValue" && Received.types(list)["rewind.code.line"] == "stringValue")
        }
        let dispatch = try #require(received.span("dispatch add"))
        let commit = try #require(received.span("mutate append"))
        // The commit is a child of the dispatch, in its trace.
        #expect(commit["traceId"] as? String == dispatch["traceId"] as? String)
        #expect(commit["parentSpanId"] as? String == dispatch["spanId"] as? String)
        #expect(dispatch["parentSpanId"] == nil || (dispatch["parentSpanId"] as? String)?.isEmpty == true)
        let dispatchFields = Received.attributes(dispatch["attributes"])
        let source = try #require(dispatchFields["rewind.source"])
        #expect(source.hasSuffix("Cart#\(cart.eventSource.instanceID)"))
        #expect(dispatchFields["rewind.framework"] == "Cycler")
        #expect(dispatchFields["rewind.kind"] == "willDispatch")
        #expect(dispatchFields["rewind.code.file"]?.hasSuffix("OpenTelemetryLoggerTests.swift") == true)
        #expect(dispatchFields["rewind.code.line"] != nil)
        let dispatchSequence = try #require(dispatchFields["rewind.seq"])
        let commitFields = Received.attributes(commit["attributes"])
        #expect(commitFields["rewind.kind"] == "willMutate")
        #expect(commitFields["rewind.parent"] == dispatchSequence)
        #expect(Int(commitFields["rewind.duration_ns"] ?? "") != nil)
        // Span times are the events' own.
        #expect(UInt64(commit["startTimeUnixNano"] as? String ?? "") ?? 0 >= UInt64(dispatch["startTimeUnixNano"] as? String ?? "") ?? .max)

        // The change: a span event on the commit's span, and a log record.
        let events = commit["events"] as? [[String: Any]] ?? []
        let changeEvent = try #require(events.first { $0["name"] as? String == "change items" })
        let eventFields = Received.attributes(changeEvent["attributes"])
        #expect(eventFields["rewind.path"] == "items")
        #expect(eventFields["rewind.value"] == #"["tea"]"#)
        #expect(eventFields["rewind.parent"] == dispatchSequence)
        let changeRecord = try #require(received.record("change items"))
        let recordFields = Received.attributes(changeRecord["attributes"])
        #expect(recordFields["rewind.source"] == source)
        #expect(recordFields["rewind.path"] == "items")
        #expect(recordFields["rewind.value"] == #"["tea"]"#)
        #expect(recordFields["rewind.parent"] == dispatchSequence)
        #expect(recordFields["rewind.kind"] == "change")
        // Live, the old value is not at hand: the change reads as its new value.
        #expect(recordFields["rewind.summary"] == #"items = ["tea"]"#)
        #expect(recordFields["rewind.old"] == nil)

        // Redaction applies before export.
        let token = try #require(received.record("change apiToken"))
        #expect(Received.attributes(token["attributes"])["rewind.value"]?.contains("s3cr3t") == false)
        #expect(!(try receiver.requests()).description.contains("s3cr3t"))

        // The activity is a log record with its value.
        let activity = try #require(received.record("activity"))
        let activityFields = Received.attributes(activity["attributes"])
        #expect(activityFields["rewind.value"] == #"{"checkedOut":{"count":1}}"#)
        #expect(activityFields["rewind.summary"] == "checkedOut (count: 1)")
        #expect(activityFields["rewind.parent"] == Received.attributes(received.span("dispatch check out")?["attributes"])["rewind.seq"])
        #expect(received.span("dispatch check out") != nil)
        #expect(received.span("dispatch sign in") != nil)
    }

    @Test("with the collector down the app is not held up: logging returns, events beyond the queue are dropped and counted, shutdown ends")
    func collectorDown() async throws {
        let port = try LocalReceiver.unusedPort()
        let exporter = try OpenTelemetryLogger(configuration: .init(
            endpoint: "http://127.0.0.1:\(port)", exportTimeout: .milliseconds(500), batchSize: 16, queueCapacity: 64
        ))
        let cart = Cart()
        cart.set(logger: exporter)
        // 2,000 dispatches of 5 events each: far more than the queue and swift-otel's batches hold
        // while every export is refused.
        for index in 0..<2_000 { cart.add("item \(index)") }
        let delivery = await exporter.shutdown()
        #expect(exporter.eventsDropped > 0)
        #expect(!delivery.isComplete)
        #expect(delivery.spansExported == 0 && delivery.logRecordsExported == 0)
        #expect(delivery.spansNotDelivered + delivery.logRecordsNotDelivered > 0)
        #expect(delivery.lastFailure != nil)
        // Nothing is queued once it has shut down: later events are dropped and counted.
        let before = exporter.eventsDropped
        cart.add("late")
        #expect(exporter.eventsDropped == before + 5)
    }

    @Test("a collector that answers 503 at first gets everything once it recovers: swift-otel retries with backoff")
    func retriesWhenTheCollectorIsBusy() async throws {
        let receiver = try LocalReceiver(failFirst: 1)
        defer { receiver.stop() }
        let exporter = try OpenTelemetryLogger(configuration: .init(endpoint: receiver.endpoint))
        let cart = Cart()
        cart.set(logger: exporter)
        cart.add("tea")
        let delivery = await exporter.shutdown()
        #expect(delivery.isComplete)
        let received = Received(try receiver.requests())
        #expect(received.span("dispatch add") != nil)
        #expect(received.record("change items") != nil)
    }
}
