import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Synchronization
import Testing
import TestSupport

/// What Rewind writes, Rewind reads: the writer keeps every block within the bounds every reader
/// holds it to (docs/JOURNAL_FORMAT.md, "The decoded-size bound"), and refuses at record time
/// what no block can hold.
@Suite("Record size limits")
struct RecordSizeLimitTests {
    /// A unit whose state is one long list of numbers and a name.
    final class Ledger: CyclerType, Sendable {
        struct State: Codable, Equatable { var entries: [Int] = []; var name = "ledger"; var notes: [String] = [] }
        let state: Storage<State> = .init(State())
    }

    /// Records a ledger whose list grows to each size, is replaced by another list of that size
    /// (a million entries replaced by a million others), and is changed in place, around other
    /// commits; returns the journal's refusals.
    /// A journal at `path` whose refusals are kept, and a ledger logging to it.
    static func journal(at path: String) throws -> (journal: JournalLogger, ledger: Ledger, refusals: Locked<[JournalLogger.Refusal]>) {
        let refusals = Locked<[JournalLogger.Refusal]>([])
        var configuration = JournalConfiguration()
        configuration.onRefusal = { refusal in refusals.withLock { $0.append(refusal) } }
        let journal = try JournalLogger(path: path, configuration: configuration)
        let ledger = Ledger()
        ledger.set(logger: journal)
        return (journal, ledger, refusals)
    }

    static func record(sizes: [Int], to path: String) throws -> [JournalLogger.Refusal] {
        let (journal, ledger, refusals) = try journal(at: path)
        for size in sizes {
            ledger.commit("grow to \(size)") { $0.update(Array(0..<size), \.entries) }
            ledger.commit("rename") { $0.update("ledger of \(size)", \.name) }
            ledger.commit("replace \(size)") { $0.update(Array((0..<size).reversed()), \.entries) }
            if size > 0 { ledger.commit("touch \(size)") { $0.update(-1, \.entries[size / 2]) } }
        }
        journal.close()
        #expect(journal.statistics.eventsRefused == refusals.withLock { $0.count })
        return refusals.withLock { $0 }
    }

    @Test("states of growing size up to the documented limit are written and every one reads back", .timeLimit(.minutes(10)))
    func growingStatesReadBack() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("ledger.rewind")
        // Up to two million and one entries: the list the issue saw lost, past the old read bound.
        let sizes = [0, 1, 10, 1_000, 100_000, 1_000_000, 2_000_001]
        #expect(try Self.record(sizes: sizes, to: path).isEmpty)
        let reader = try JournalReader(path: path)
        #expect(reader.damage.isEmpty, "\(reader.damage)")
        #expect(try reader.verify().isClean)
        let ledger = try #require(reader.sources.first { $0.source.typeName.hasSuffix("Ledger") })
        let commits = reader.events().filter { $0.kind == .didMutate && $0.source.instanceID == ledger.source.instanceID }
        #expect(commits.count == sizes.count * 4 - 1, "every commit is there")
        for size in sizes {
            let replaced = try #require(commits.first { $0.name == "replace \(size)" })
            let state = try #require(try reader.state(of: ledger.source.instanceID, at: replaced.sequence))
            let entries = try #require(state[try StatePath(parsing: "entries")])
            #expect(entries == .array((0..<size).reversed().map { StateValue.integer(Int64($0)) }), "replace \(size)")
            #expect(state[try StatePath(parsing: "name")] == .string("ledger of \(size)"))
            if size > 0 {
                let touched = try #require(commits.first { $0.name == "touch \(size)" })
                let after = try #require(try reader.state(of: ledger.source.instanceID, at: touched.sequence))
                #expect(after[try StatePath(parsing: "entries[\(size / 2)]")] == .integer(-1))
            }
        }
    }

    @Test("a state larger than a block can hold is refused at record time, reported, and the journal around it reads back")
    func oversizedStateIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("notes.rewind")
        let (journal, ledger, refusals) = try Self.journal(at: path)
        ledger.commit("small") { $0.update(["a note"], \.notes) }
        // Forty distinct notes of a mebibyte each: 40 MiB in one state, more than one record may take.
        let huge = (0..<40).map { index in String(repeating: Character(UnicodeScalar(UInt8(65 + index % 26))), count: 1 << 20) + "\(index)" }
        ledger.commit("huge") { $0.update(huge, \.notes) }
        ledger.commit("rename") { $0.update("after", \.name) }
        ledger.commit("shrink") { $0.update(["back to small"], \.notes) }
        journal.close()

        let refused = refusals.withLock { $0 }
        #expect(refused.count >= 1 && journal.statistics.eventsRefused == refused.count)
        #expect(refused.allSatisfy { $0.bytes > JournalFormat.maximumRecordBytes }, "\(refused)")
        #expect(refused.first?.description.contains("was not recorded") == true, "\(refused.first?.description ?? "")")
        let reader = try JournalReader(path: path)
        #expect(reader.damage.isEmpty, "\(reader.damage)")
        // Every summary after the refusal starts from a state readers had, not the refused one.
        let verification = try reader.verify(holdingSummaries: true)
        #expect(verification.isClean && verification.untrueSummaries.isEmpty, "\(verification)")
        let events = Array(reader.events())
        // The refused events are shown as dropped, where they were.
        #expect(events.filter { $0.kind == .dropped }.count == refused.count)
        let source = try #require(reader.sources.first?.source.instanceID)
        // The states before and after the refusal are the ones the unit had.
        let small = try #require(events.first { $0.kind == .didMutate && $0.name == "small" })
        #expect(try reader.state(of: source, at: small.sequence)?[try StatePath(parsing: "notes")] == .array([.string("a note")]))
        let shrink = try #require(events.first { $0.kind == .didMutate && $0.name == "shrink" })
        let last = try #require(try reader.state(of: source, at: shrink.sequence))
        #expect(last[try StatePath(parsing: "notes")] == .array([.string("back to small")]))
        #expect(last[try StatePath(parsing: "name")] == .string("after"))
    }

    @Test("a record over the item bound is taken back out of its block whole; one within it is kept and decodes")
    func blockTakesBackARecord() throws {
        var builder = BlockBuilder()
        let source = EventSource(framework: .cycler, typeName: "Ledger")
        func record(_ sequence: UInt64, state: StateValue) -> WireRecord {
            var record = WireRecord(dropped: DroppedRange(count: 0, sequences: 0...0), time: EventTime(wallNanoseconds: 0, monotonicNanoseconds: 0))
            record.sequence = sequence
            record.kind = .replace
            record.name = "replace"
            record.body = .none
            record.state = .keyframe(state)
            return record
        }
        let first = builder.append(record(1, state: .object(["name": .string("small")])), source: source, sourceID: 1)
        #expect(first == nil)
        let before = builder.payload()
        let tooMany = StateValue.array(Array(repeating: .integer(1), count: JournalFormat.maximumRecordItems))
        let refused = builder.append(record(2, state: tooMany), source: source, sourceID: 2)
        #expect((refused?.items ?? 0) > JournalFormat.maximumRecordItems)
        let after = builder.payload()
        #expect(after == before && builder.eventCount == 1 && builder.sources.count == 1)
        let fits = StateValue.array(Array(repeating: .integer(1), count: JournalFormat.maximumRecordItems - 10))
        let kept = builder.append(record(3, state: fits), source: source, sourceID: 1)
        #expect(kept == nil)
        let decoded = try BlockDecoding.events(in: builder.payload())
        #expect(decoded.events.map(\.sequence) == [1, 3])
    }
}
