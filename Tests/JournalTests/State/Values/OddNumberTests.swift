import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

/// NaN, ±0 and ±infinity have one meaning in conditions, block summaries, verification and JSON
/// (README, "Odd numbers have one meaning everywhere").
@Suite("NaN, ±0 and infinities")
struct OddNumberTests {
    final class Gauge: CyclerType, Sendable {
        struct State: Codable, Equatable { var ratio = 5.0; var label = "gauge" }
        let state: Storage<State> = .init(State())
    }

    /// The ratios a gauge takes, in small blocks: some blocks hold only 5, some 5 and NaN, some
    /// only NaN, signed zeros and infinities.
    static let ratios: [Double] = [5, 5, 5, 5, .nan, 5, .nan, .nan, 5, 5, 5, 5, -0.0, 0.0, -0.0, .infinity, -.infinity, 5, 5, 5]

    static func record(to path: String) throws -> UInt64 {
        var configuration = JournalConfiguration()
        configuration.blockSize = 200
        let journal = try JournalLogger(path: path, configuration: configuration)
        let gauge = Gauge()
        gauge.set(logger: journal)
        for (index, ratio) in ratios.enumerated() {
            gauge.commit("set \(index)") { $0.update(ratio, \.ratio) }
        }
        journal.close()
        return gauge.eventSource.instanceID
    }

    /// The commits where `text` holds, read with block summaries and without them (every event
    /// judged in order).
    static func answers(_ text: String, in reader: JournalReader) throws -> (summarised: [String], plain: [String]) {
        let condition = try Condition(parsing: text)
        let summarised = reader.steps(where: condition).filter { $0.event.kind == .didMutate }.map(\.event.name)
        var scan = ConditionScan(condition)
        let plain = reader.events().compactMap { scan.step($0) }.filter { $0.event.kind == .didMutate }.map(\.event.name)
        return (summarised, plain)
    }

    @Test("a query answers the same with block summaries as without them, NaN steps included")
    func summariesAgreeWithThePlainRead() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("gauge.rewind")
        _ = try Self.record(to: path)
        let reader = try JournalReader(path: path)
        #expect(reader.blocks.count > 4 && reader.blocks.indices.contains { reader.summary(ofBlock: $0) != nil })
        let names = { (ratios: (Double) -> Bool) in Self.ratios.indices.filter { ratios(Self.ratios[$0]) }.map { "set \($0)" } }
        let expected: [(String, [String])] = [
            ("ratio != 5", names { $0 != 5 }),
            ("ratio == nan", names(\.isNaN)),
            ("ratio != nan", names { !$0.isNaN }),
            ("ratio < 5", names { $0 < 5 }),
            ("ratio >= 5", names { $0 >= 5 }),
            ("ratio == 0", names { $0 == 0 }),
            ("ratio == inf", names { $0 == .infinity }),
            ("ratio < -1000000", names { $0 == -.infinity }),
        ]
        for (condition, steps) in expected {
            let (summarised, plain) = try Self.answers(condition, in: reader)
            #expect(summarised == plain, "\(condition)")
            #expect(plain == steps, "\(condition)")
        }
    }

    @Test("verify --deep calls a genuine recording with NaN clean; -0.0 reads back as -0.0")
    func genuineRecordingIsClean() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("gauge.rewind")
        let source = try Self.record(to: path)
        let reader = try JournalReader(path: path)
        let verification = try reader.verify(holdingSummaries: true)
        #expect(verification.isClean, "\(verification)")
        #expect(reader.untrueSummaries().isEmpty)
        let commits = reader.events().filter { $0.kind == .didMutate }
        #expect(commits.count == Self.ratios.count, "every commit is recorded, NaN to NaN and 0.0 to -0.0 included")
        for (commit, ratio) in zip(commits, Self.ratios) {
            guard case .floatingPoint(let recorded)? = try reader.state(of: source, at: commit.sequence)?[try StatePath(parsing: "ratio")] else {
                Issue.record("no ratio at \(commit.name)")
                continue
            }
            #expect(recorded.bitPattern == ratio.bitPattern || (recorded.isNaN && ratio.isNaN), "\(commit.name): \(recorded) for \(ratio)")
        }
    }

    @Test("JSON writes NaN and the infinities as protobuf's strings and keeps -0.0")
    func json() {
        #expect(JSONText.value(.array([.floatingPoint(.nan), .floatingPoint(.infinity), .floatingPoint(-.infinity), .floatingPoint(-0.0)]))
            == #"["NaN","Infinity","-Infinity",-0.0]"#)
    }

    @Test("a recorded tree equals itself when it holds NaN, and tells -0.0 from 0.0; a condition compares by value")
    func equality() throws {
        #expect(StateValue.floatingPoint(.nan) == .floatingPoint(-.nan))
        #expect(Set([StateValue.floatingPoint(.nan), .floatingPoint(.nan)]).count == 1)
        #expect(StateValue.floatingPoint(-0.0) != .floatingPoint(0.0))
        #expect(StateDiff(from: .object(["r": .floatingPoint(0.0)]), to: .object(["r": .floatingPoint(-0.0)])).changedPaths.map(\.description) == ["r"])
        #expect(StateDiff(from: .object(["r": .floatingPoint(.nan)]), to: .object(["r": .floatingPoint(.nan)])).isEmpty)
        #expect(Condition.compare(.floatingPoint(-0.0), .equal, .integer(0)))
        #expect(!Condition.compare(.floatingPoint(.nan), .less, .floatingPoint(.infinity)))
    }

    @Test("a state whose fields are named like an opaque leaf's never exports as one")
    func opaqueLookalike() {
        let lookalike = StateValue.object(["$opaque": .string("Secret<String>"), "summary": .string("<redacted>")])
        let leaf = StateValue.opaque(OpaqueValue(typeName: "Secret<String>", text: "<redacted>"))
        #expect(JSONText.value(lookalike) != JSONText.value(leaf))
        #expect(JSONText.value(lookalike) == #"{"$$opaque":"Secret<String>","summary":"<redacted>"}"#)
        #expect(JSONText.value(leaf) == #"{"$opaque":"Secret<String>","summary":"<redacted>"}"#)
    }
}
