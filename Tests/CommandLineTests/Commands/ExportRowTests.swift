import Cycler
import Foundation
@_spi(Tooling) import Rewind
import TestSupport
import Testing

/// `rewind export --format jsonl` as the fleet table of docs/EXPORT_SCHEMA.md: what the SQL in
/// Examples/Fleet relies on, row by row.
@Suite("export rows: the fleet table")
struct ExportRowTests {
    struct Cart: Codable, Equatable {
        var total = 0
        var coupon: String?
    }

    final class CartModel: CyclerType, Sendable {
        let state: Storage<Cart> = .init(.init())
    }

    private func rows(_ path: String) throws -> [[String: Any]] {
        let result = try CommandRunner.run(["export", path, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.standardError)")
        return try result.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("every row names its recording and app version, has every column, and a change has its old and new values")
    func rowsOfARecording() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cart.rewind")
        var configuration = JournalConfiguration()
        configuration.appVersion = "1.2.0"
        let journal = try JournalLogger(path: path, configuration: configuration)
        let cart = CartModel()
        cart.set(logger: journal)
        cart.dispatch("add") { context in context.commit("add") { $0.update(450, \.total) } }
        cart.dispatch("coupon") { context in context.commit("coupon") { $0.update(-550, \.total) } }
        journal.close()

        let rows = try rows(path)
        let columns = ["schema_version", "recording_id", "app_version", "seq", "time", "time_ns", "monotonic_ns", "source", "source_id",
                       "framework", "type", "kind", "name", "description", "file", "function", "line", "parent", "duration_ns",
                       "path", "old", "new", "value", "dropped", "changes", "state", "level", "label", "message", "metadata"]
        let recordingID = journal.recordingID.uuidString.lowercased()
        for row in rows {
            #expect(Set(row.keys) == Set(columns))
            #expect(row["schema_version"] as? Int == 2)
            #expect(row["recording_id"] as? String == recordingID)
            #expect(row["app_version"] as? String == "1.2.0")
        }
        let changes = rows.filter { $0["kind"] as? String == "change" }
        #expect(changes.map { $0["path"] as? String } == ["total", "total"])
        #expect(changes.map { $0["old"] as? Int } == [0, 450])
        #expect(changes.map { $0["new"] as? Int } == [450, -550])
        #expect(changes.map { ($0["state"] as? [String: Any])?["total"] as? Int } == [450, -550])
        // The wall time as nanoseconds is the instant the ISO text names.
        for row in rows {
            let nanoseconds = try #require(row["time_ns"] as? Int)
            #expect(row["time"] as? String == EventTime.iso8601(wallNanoseconds: Int64(nanoseconds)))
        }
        // Rows that do not change a path have the change columns, as null.
        let dispatch = try #require(rows.first { $0["kind"] as? String == "didDispatch" })
        #expect(dispatch["path"] is NSNull && dispatch["old"] is NSNull && dispatch["new"] is NSNull && dispatch["state"] is NSNull)
        #expect(dispatch["duration_ns"] is Int)
        #expect(try CommandRunner.run(["info", path]).standardOutput.contains("Recording   \(recordingID), app version 1.2.0"))
    }

    @Test("a change to a path the state did not have has old null")
    func missingOld() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("coupon.rewind")
        let journal = try JournalLogger(path: path)
        let cart = CartModel()
        cart.set(logger: journal)
        cart.commit("coupon") { $0.update("TENOFF", \.coupon) }
        journal.close()
        let change = try #require(try rows(path).first { $0["kind"] as? String == "change" })
        #expect(change["path"] as? String == "coupon" && change["old"] is NSNull && change["new"] as? String == "TENOFF")
    }

    @Test("a run of dropped events is a row of its own, with how many and which steps, as log --json says it")
    func droppedRun() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("drops.rewind")
        var configuration = JournalConfiguration()
        configuration.queueCapacity = 1
        configuration.overflow = .drop
        let journal = try JournalLogger(path: path, configuration: configuration)
        let cart = CartModel()
        cart.set(logger: journal)
        for value in 1...20_000 { cart.commit { $0.update(value, \.total) } }
        journal.close()
        let markers = try JournalReader(path: path).allEvents().compactMap(\.dropped)
        try #require(!markers.isEmpty)
        let expected: [[Int]] = markers.map { [Int($0.count), Int($0.sequences.lowerBound), Int($0.sequences.upperBound)] }
        func dropped(_ rows: [[String: Any]]) -> [[Int]] {
            rows.compactMap { $0["dropped"] as? [String: Int] }.map { [$0["count"] ?? -1, $0["from"] ?? -1, $0["to"] ?? -1] }
        }
        #expect(dropped(try rows(path)) == expected)
        let logged = try CommandRunner.run(["log", path, "--json", "--kind", "dropped"])
        #expect(dropped(try logged.standardOutput.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }) == expected)
    }

    @Test("rows written from a block's records are the rows written from events, byte for byte, on every fixture and a many-block, many-unit journal")
    func recordsAndEventsWriteTheSameRows() throws {
        // `--states 0` and `--states 1` write every block's rows from its records on every core;
        // `--states N` (N > 1) writes them one event at a time. With N past the journal's length,
        // only each unit's first row that moved its state carries the state: everything else
        // must be the same bytes.
        let directory = TemporaryDirectory()
        let generated = directory.file("carts.rewind")
        try LogSearchTests.record(to: generated, blockSize: 4 * 1024)
        let fixtures = [
            "counter", "todo", "demo", "flask", "ricemill", "unio", "todo-format-1", "todo-torn-tail", "counter-flipped-byte",
            "demo-truncated-index"
        ]
        let files = fixtures.map { "Fixtures/\($0).rewind" } + [generated]
        for file in files {
            let records = try CommandRunner.run(["export", file, "--format", "jsonl", "--states", "0"])
            let events = try CommandRunner.run(["export", file, "--format", "jsonl", "--states", "1000000000"])
            let everyState = try CommandRunner.run(["export", file, "--format", "jsonl"])
            #expect(records.status == events.status && records.standardError == events.standardError, "\(file)")
            let recordRows = records.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            let eventRows = events.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            let stateRows = everyState.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            try #require(recordRows.count == eventRows.count && recordRows.count == stateRows.count, "\(file)")
            #expect(recordRows.count > 10, "\(file)")
            var differingUnits: [Substring] = []
            for (index, (record, event)) in zip(recordRows, eventRows).enumerated() where record != event {
                let unit = try #require(record.range(of: #""source_id":"#)).upperBound
                differingUnits.append(record[unit...].prefix { $0.isNumber })
                // The one difference allowed: the state, on a unit's first move — and there it is
                // the state `--states 1` writes from the records. The log columns follow it.
                let statePrefix = #","state":"#
                let recordHead = try #require(record.range(of: statePrefix, options: .backwards)).lowerBound
                let eventHead = try #require(event.range(of: statePrefix, options: .backwards)).lowerBound
                #expect(record[..<recordHead] == event[..<eventHead], "\(file) row \(index)")
                let logColumns = #","level":"#
                #expect(record[recordHead...].hasPrefix(#","state":null,"level":"#), "\(file) row \(index)")
                let recordTail = try #require(record.range(of: logColumns, options: .backwards)).lowerBound
                #expect(event.hasSuffix(record[recordTail...]), "\(file) row \(index)")
                #expect(stateRows[index] == event, "\(file) row \(index)")
            }
            #expect(Set(differingUnits).count == differingUnits.count, "\(file): only a unit's first move carries its state")

            // One JSON document holds the same rows, each after a comma but the first, whether
            // written from records (`--states 0`) or from events (`--states 2`).
            for states in ["0", "2"] {
                let rows = try CommandRunner.run(["export", file, "--format", "jsonl", "--states", states]).standardOutput
                let document = try CommandRunner.run(["export", file, "--format", "json", "--states", states]).standardOutput
                var lines = document.split(separator: "\n")
                try #require(lines.count >= 2, "\(file)")
                #expect(lines.removeFirst().hasSuffix(#","events":["#), "\(file)")
                #expect(lines.removeLast() == "]}", "\(file)")
                let unprefixed = lines.enumerated().map { index, line in index == 0 ? line : line.dropFirst() }
                #expect(lines.dropFirst().allSatisfy { $0.first == "," }, "\(file)")
                #expect(unprefixed.map(String.init) == rows.split(separator: "\n").map(String.init), "\(file) --states \(states)")
            }
        }
    }
}
