import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

/// `rewind log` and `export` walk and write a journal's blocks on every core (``WalkedEvents``):
/// each block's events after a source's first keyframe on the block's own thread, the ones before
/// it in file order. Whatever the journal, every event must reach its writer with exactly the
/// state a walk in file order gives it, in file order.
@Suite("Blocks walked on every core read as one walk in file order")
struct WalkedEventsTests {
    /// What a writer is handed for one event, and what it reads of it: the record read in its
    /// block must read as the event a walk in order reads, its row text too, and its value before
    /// — read where the change is made — as ``ValueBefore``'s rule gives it from the state before.
    struct Step: Equatable, CustomStringConvertible {
        var event: RecordedEvent
        var change: [StateValue?]?
        var old: ValueBefore
        var row: String

        var description: String {
            "#\(event.sequence) \(row) old \(old) change \(change.map { "\($0)" } ?? "none")"
        }
    }

    /// The steps as one thread walking the events in file order sees them: `log`'s walk joins each
    /// source at its first event read with its state as the journal has it just before
    /// (`.rebuilt`), `export`'s starts each from none (`.empty`).
    static func walkedInOrder(_ path: String, _ filter: EventFilter, start: WalkedEvents<[Step]>.Start) throws -> (steps: [Step], damage: [JournalDamage]) {
        let reader = try JournalReader(path: path)
        var walker = StateWalker()
        var joined: Set<UInt64> = []
        var steps: [Step] = []
        for event in reader.events(matching: filter) {
            let source = event.source.instanceID
            if start == .rebuilt, joined.insert(source).inserted {
                walker.resume(source, from: (try? reader.stateFold(of: source, before: event.sequence)) ?? StateFold())
            }
            let before = walker.state(of: source)
            let change = walker.advance(event)
            let old = ValueBefore(of: event, in: before)
            steps.append(
                Step(event: event, change: change.map { [$0.before, $0.after] }, old: old, row: event.rowText(valueLimit: 40, old: old))
            )
        }
        return (steps, reader.damage)
    }

    /// The same steps through ``WalkedEvents``, and the blocks its progress was told of.
    static func walkedOnEveryCore(
        _ path: String, _ filter: EventFilter, start: WalkedEvents<[Step]>.Start
    ) throws -> (steps: [Step], damage: [JournalDamage], progress: [Int]) {
        let reader = try JournalReader(path: path)
        let walk = WalkedEvents<[Step]>(
            reader: reader, matching: filter, start: start, makePart: { [] },
            add: { record, old, change, part in
                part.append(
                    Step(
                        event: record.event, change: change.map { [$0.before, $0.after] }, old: old,
                        row: record.rowText(valueLimit: 40, old: old)
                    )
                )
            }
        )
        var steps: [Step] = []
        var progress: [Int] = []
        walk.forEachPart(progress: { block, _ in progress.append(block) }, { steps += $0 })
        return (steps, reader.damage, progress)
    }

    /// Checks both walks agree on `path`, whole and through a filter of one source and one from
    /// the middle step on; returns how many steps it compared.
    @discardableResult
    static func expectAgreement(_ path: String) throws -> Int {
        let reader = try JournalReader(path: path)
        let last = reader.blocks.last?.lastSequence ?? 0
        var filters = [EventFilter(), EventFilter(sequences: (last / 2)...UInt64.max)]
        if let source = reader.sources.last?.source.instanceID { filters.append(EventFilter(sourceIDs: [source])) }
        var compared = 0
        for filter in filters {
            let expected = try walkedInOrder(path, filter, start: .rebuilt)
            let walked = try walkedOnEveryCore(path, filter, start: .rebuilt)
            #expect(walked.steps.count == expected.steps.count, "\(path)")
            for (walkedStep, expectedStep) in zip(walked.steps, expected.steps) where walkedStep != expectedStep {
                Issue.record("\(path): \(walkedStep) where a walk in order gives \(expectedStep)")
                break
            }
            #expect(walked.damage == expected.damage, "\(path)")
            #expect(walked.progress == walked.progress.sorted(), "progress is told in file order")
            compared += expected.steps.count
        }
        // The whole journal as `export` walks it: every unit from no state.
        let expected = try walkedInOrder(path, EventFilter(), start: .empty)
        let walked = try walkedOnEveryCore(path, EventFilter(), start: .empty)
        #expect(walked.steps == expected.steps, "\(path): export's walk")
        #expect(walked.damage == expected.damage, "\(path): export's walk")
        return compared + expected.steps.count
    }

    @Test("every fixture", arguments: StateFoldAgreementTests.fixtures)
    func fixture(name: String) throws {
        #expect(try Self.expectAgreement(Repository.fixture(name)) > 0)
    }

    @Test("random journals of many small blocks and two units", arguments: 1...4 as ClosedRange<UInt64>)
    func random(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let file = directory.file("board-\(seed).rewind")
        _ = try JournalRandomAccessTests.record(to: file, steps: 400, seed: seed)
        #expect(try JournalReader(path: file).blocks.count > 4, "the walk crosses blocks")
        #expect(try Self.expectAgreement(file) > 0)
    }

    @Test(
        "a walk for a text passes over the blocks that cannot hold it; each step it reads has its unit's state as the journal has it just before",
        arguments: 1...3 as ClosedRange<UInt64>
    )
    func passingBlocksOver(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let file = directory.file("board-\(seed).rewind")
        _ = try JournalRandomAccessTests.record(to: file, steps: 400, seed: seed)
        let reader = try JournalReader(path: file)
        var passedOver = 0
        for text in ["deselect", "board 3", "board 12"] {
            var filter = EventFilter()
            filter.blockText = text
            var expected: [Step] = []
            for block in reader.blocks {
                guard case .success(let records) = reader.decodeRecords(at: block.offset, frame: block.frame) else { continue }
                guard NGramFilter(records: records).mayContain(text) else {
                    passedOver += 1
                    continue
                }
                for event in records.events {
                    let source = event.source.instanceID
                    var walker = StateWalker()
                    walker.resume(source, from: try reader.stateFold(of: source, before: event.sequence))
                    let before = walker.state(of: source)
                    let change = walker.advance(event)
                    let old = ValueBefore(of: event, in: before)
                    let row = event.rowText(valueLimit: 40, old: old)
                    expected.append(Step(event: event, change: change.map { [$0.before, $0.after] }, old: old, row: row))
                }
            }
            let walked = try Self.walkedOnEveryCore(file, filter, start: .rebuilt)
            #expect(!expected.isEmpty && walked.steps.count == expected.count, "\(text)")
            for (walkedStep, expectedStep) in zip(walked.steps, expected) where walkedStep != expectedStep {
                Issue.record("\(text): \(walkedStep) where the journal gives \(expectedStep)")
                break
            }
        }
        #expect(passedOver > 3, "blocks passed over")
    }

    @Test("a block that does not read back is reported and passed over, as a walk in order passes it over")
    func damagedBlock() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("board.rewind")
        _ = try JournalRandomAccessTests.record(to: file, steps: 400, seed: 7)
        try JournalRandomAccessTests.damageMiddleBlock(of: file)
        let walked = try Self.walkedOnEveryCore(file, EventFilter(), start: .rebuilt)
        #expect(walked.damage.count == 1)
        #expect(try Self.expectAgreement(file) > 0)
    }

    @Test("blocks that start with diffs (no keyframe anywhere after the first block) walk from the blocks before")
    func blocksWithoutKeyframes() throws {
        let directory = TemporaryDirectory()
        var crafted = CraftedJournal()
        crafted.commit(.keyframe(.object(["count": .integer(0), "items": .array([])])))
        for step in 1...30 {
            if step % 4 == 0 { crafted.startBlock() }
            crafted.append(.willMutate)
            crafted.append(.change, body: .change(path: "count", value: .integer(Int64(step))))
            crafted.commit(
                .diff(
                    StateDiff(changes: [
                        StateChange(path: StatePath([.key("count")]), operation: .changed(from: .integer(Int64(step - 1)), to: .integer(Int64(step))))
                    ])))
            if step == 17 {
                // A keyframe in the middle of a block: the block's own thread walks on from it.
                crafted.commit(.keyframe(.object(["count": .integer(Int64(step)), "items": .array([.integer(1)])])))
            }
        }
        let path = try crafted.write(in: directory, named: "crafted.rewind")
        #expect(try JournalReader(path: path).blocks.count > 5)
        let expected = try Self.walkedInOrder(path, EventFilter(), start: .rebuilt)
        // The last commit's state before it holds its change (the change step is applied on top).
        let lastBefore = try #require(expected.steps.last?.change?.first)
        #expect(lastBefore == .object(["count": .integer(30), "items": .array([.integer(1)])]), "the walk in order knows every state")
        #expect(try Self.expectAgreement(path) > 0)
    }
}
