import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

/// A walk over a whole journal (`verify`, `recover`, opening a file without its index) reads each
/// block as an outline, building only the values a state needs; a state rebuild reads one source's
/// values. A block must read the same whichever reader reads it: accepted by all or refused by
/// all, and agreeing on what it holds — or `verify` would call a block sound that `log` refuses.
/// (`log` and `export` read a block's records in place: ``BlockRecords``.)
@Suite("A block reads the same to every reader")
struct BlockOutlineTests {
    static let fixtures = ["counter", "todo", "demo", "flask", "ricemill", "unio"].map { name in
        Repository.fixture(name)
    }

    /// Every events block's payload (uncompressed, so that changes reach the record reader rather
    /// than stopping at the checksum).
    static func payloads(of path: String) throws -> [[UInt8]] {
        let reader = try JournalReader(path: path)
        return try reader.blocks.map { block in try reader.payload(at: block.offset, frame: block.frame).get() }
    }

    /// Reads `payload` as a full decode, as an outline and as each source's state rebuild, and
    /// checks they agree.
    static func expectAgreement(_ payload: [UInt8], _ what: @autoclosure () -> String) {
        let full = try? BlockDecoding.events(in: payload)
        let outline = try? BlockDecoding.outline(of: payload, foldingStates: true)
        let inPlace = try? BlockDecoding.records(in: payload)
        #expect((full == nil) == (outline == nil), "\(what()): full decode \(full == nil ? "refuses" : "accepts"), outline \(outline == nil ? "refuses" : "accepts")")
        #expect((full == nil) == (inPlace == nil), "\(what()): full decode \(full == nil ? "refuses" : "accepts"), records read in place do not")
        guard let full, let outline else { return }
        // The records, read in place, are the events: each field, its state step, and what the
        // block holds of each source.
        if let inPlace {
            #expect(inPlace.events == full.events, "\(what()): the records read as other events")
            // Each field read in place, as the writers of lines read it, is the event's.
            for (index, event) in full.events.enumerated() where index < inPlace.count {
                let record = inPlace[index]
                let fields: [(String, Bool)] = [
                    ("sequence", record.sequence == event.sequence), ("time", record.wallNanoseconds == event.wallNanoseconds),
                    ("kind", record.kind == event.kind), ("source", record.source == event.source && record.sourceID == event.source.instanceID),
                    ("name", record.name == event.name), ("description", record.description == event.description), ("file", record.file == event.file),
                    ("line", record.line == event.line), ("call site", record.callSite == event.callSite), ("path", record.path == event.path),
                    ("value", record.value == event.value), ("duration", record.duration == event.duration), ("dropped", record.dropped == event.dropped),
                    ("state", record.stateRecord == event.stateRecord), ("row", record.rowText(valueLimit: 30) == event.rowText(valueLimit: 30))
                ]
                for (field, agrees) in fields where !agrees {
                    Issue.record("\(what()): record \(index)'s \(field) differs from its event's")
                }
            }
            #expect((0..<inPlace.count).map { inPlace[$0].stateStep } == full.events.map(\.stateStep), "\(what())")
            #expect(inPlace.spans == full.spans, "\(what())")
            #expect(inPlace.sources == full.sources, "\(what())")
        }
        #expect(outline.eventCount == full.events.count, "\(what())")
        #expect(outline.sources == full.sources, "\(what())")
        var summaries: [UInt64: JournalBlock.SourceSpan] = [:]
        for event in full.events {
            summaries[event.source.instanceID, default: .init(eventCount: 0, firstSequence: event.sequence, lastSequence: event.sequence)].add(event.sequence)
        }
        #expect(outline.summaries == summaries, "\(what())")
        // The block's states folded where it was decoded, joined up as verify joins them (from no
        // state before the block), are what folding the full decode's records in order gives,
        // with the same records failing in the same order.
        let records = full.events.compactMap { event in event.stateRecord.map { (event.source.instanceID, event.sequence, $0) } }
        var expected: [UInt64: StateFold] = [:]
        var expectedFailures: [UInt64] = []
        for (instance, sequence, record) in records where !expected[instance, default: StateFold()].applyNoting(record).moved {
            expectedFailures.append(sequence)
        }
        guard let folded = outline.states else {
            Issue.record("\(what()): no states folded")
            return
        }
        var joined: [UInt64: StateFold] = [:]
        var failures = folded.failures.map { ($0.position, $0.sequence) }
        for leading in folded.leading where !joined[outline.sources[leading.sourceIndex].instanceID, default: StateFold()].applyNoting(leading.record).moved {
            failures.append((leading.position, leading.sequence))
        }
        for (instance, fold) in folded.ends { joined[instance] = fold }
        #expect(folded.count == records.count, "\(what())")
        #expect(joined == expected, "\(what())")
        #expect(failures.sorted { $0.0 < $1.0 }.map(\.1) == expectedFailures, "\(what())")
        for source in Set(full.sources.map(\.instanceID)) {
            let steps = try? BlockDecoding.stateSteps(in: payload, source: source, through: .max)
            #expect(steps != nil, "\(what()): the state rebuild of source \(source) refuses a block the others accept")
            let expected = full.events.filter { $0.source.instanceID == source }.compactMap(\.stateStep)
            #expect(steps == expected, "\(what()): source \(source)'s state steps differ")
        }
    }

    @Test("the fixtures' blocks, whole")
    func wholeBlocks() throws {
        for path in Self.fixtures {
            for (index, payload) in try Self.payloads(of: path).enumerated() {
                Self.expectAgreement(payload, "\(path) block \(index)")
                #expect((try? BlockDecoding.outline(of: payload, foldingStates: true)) != nil, "\(path) block \(index) reads")
            }
        }
    }

    @Test("every byte of every block changed, and every block cut short")
    func everyChange() throws {
        for path in Self.fixtures {
            for (index, payload) in try Self.payloads(of: path).enumerated() {
                for offset in payload.indices {
                    // A low bit (a count or reference one off), a high bit (a varint that goes on),
                    // and a byte no tag or kind has.
                    for change in [{ (byte: UInt8) in byte ^ 0x01 }, { $0 ^ 0x80 }, { _ in 0xFF }] {
                        var changed = payload
                        changed[offset] = change(payload[offset])
                        Self.expectAgreement(changed, "\(path) block \(index), byte \(offset) changed")
                    }
                }
                for length in 0..<payload.count {
                    Self.expectAgreement(Array(payload.prefix(length)), "\(path) block \(index) cut at \(length)")
                }
            }
        }
    }
}

/// `verify` folds each block's states where the block was decoded and joins the blocks up in
/// order. A writer starts each source's states in a block with a keyframe; a crafted block may
/// start with diffs, which apply onto the state the block before left.
@Suite("Blocks folded apart and joined up")
struct FoldedBlocksTests {
    static func counter(_ from: Int64, _ to: Int64) -> StateRecord {
        .diff(StateDiff(changes: [StateChange(path: StatePath([.key("count")]), operation: .changed(from: .integer(from), to: .integer(to)))]))
    }

    @Test("a block's diffs before its keyframe apply to the block before's state, and what does not apply is reported in order")
    func continuedStates() throws {
        let directory = TemporaryDirectory()
        var journal = CraftedJournal()
        journal.commit(.keyframe(.object(["count": .integer(1)])))
        journal.commit(Self.counter(1, 2))
        journal.startBlock()
        // Continues the state of the block before: step 3 applies, step 4 does not (no field
        // `missing`), so step 5 has no state to apply to, until the keyframe at step 6.
        journal.commit(Self.counter(2, 3))
        journal.commit(.diff(StateDiff(changes: [StateChange(path: StatePath([.key("missing")]), operation: .removed(.null))])))
        journal.commit(Self.counter(3, 4))
        journal.commit(.keyframe(.object(["count": .integer(10)])))
        journal.commit(.diff(StateDiff(changes: [StateChange(path: StatePath([.key("gone")]), operation: .removed(.null))])))
        journal.startBlock()
        journal.commit(Self.counter(10, 11))
        let path = try journal.write(in: directory, named: "continued.rewind")

        let outlines = try BlockOutlineTests.payloads(of: path).map { try BlockDecoding.outline(of: $0, foldingStates: true) }
        #expect(outlines.map { $0.states?.leading.count } == [0, 3, 1])
        let report = try JournalReader(path: path).verify()
        #expect(report.damage.isEmpty, "every block reads back")
        let expected = [
            "step #4 (Crafted#1): its state diff does not apply to the state before it",
            "step #5 (Crafted#1): its state diff has no state before it to apply to",
            "step #7 (Crafted#1): its state diff does not apply to the state before it",
            "step #8 (Crafted#1): its state diff has no state before it to apply to"
        ]
        #expect(report.unbuildableStates.map(\.description) == expected)
        // Every step's state as a reader rebuilds it agrees: the first block's state carried on.
        let reader = try JournalReader(path: path)
        #expect(try reader.state(of: 1, at: 3) == .object(["count": .integer(3)]))
    }
}
