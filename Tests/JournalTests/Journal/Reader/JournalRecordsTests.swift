import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

/// `blame` reads a journal's records in their blocks (``JournalRecords``) rather than its events:
/// every record must be the event the event sequence gives, in order, through the same filter,
/// with the same damage reported, and blame's walker must judge a record as it judges its event.
@Suite("Records read in order are the journal's events")
struct JournalRecordsTests {
    /// Checks the records and the events of `path` agree through a filter of the whole journal, of
    /// one source and from the middle step on; returns how many it compared.
    @discardableResult
    static func expectAgreement(_ path: String) throws -> Int {
        let opened = try JournalReader(path: path)
        let last = opened.blocks.last?.lastSequence ?? 0
        var filters = [EventFilter(), EventFilter(sequences: (last / 2)...UInt64.max)]
        if let source = opened.sources.last?.source.instanceID { filters.append(EventFilter(sourceIDs: [source])) }
        var compared = 0
        for filter in filters {
            let byEvents = try JournalReader(path: path)
            let byRecords = try JournalReader(path: path)
            var (eventsProgress, recordsProgress): ([Int], [Int]) = ([], [])
            let events = Array(byEvents.events(matching: filter).reportingProgress { block, _ in eventsProgress.append(block) })
            let records = Array(byRecords.records(matching: filter).reportingProgress { block, _ in recordsProgress.append(block) })
            #expect(records.map(\.event) == events, "\(path)")
            #expect(byRecords.damage == byEvents.damage, "\(path)")
            #expect(recordsProgress == eventsProgress, "\(path): progress told of the same blocks")
            #expect(recordsProgress.last == byRecords.blocks.count, "\(path): progress to the end")
            compared += events.count
        }
        return compared
    }

    @Test("every fixture", arguments: StateFoldAgreementTests.fixtures)
    func fixture(name: String) throws {
        #expect(try Self.expectAgreement(Repository.fixture(name)) > 0)
    }

    @Test("random journals of many small blocks, one with a damaged block")
    func random() throws {
        let directory = TemporaryDirectory()
        for seed in 1...3 as ClosedRange<UInt64> {
            let file = directory.file("board-\(seed).rewind")
            _ = try JournalRandomAccessTests.record(to: file, steps: 400, seed: seed)
            #expect(try Self.expectAgreement(file) > 0)
        }
        let file = directory.file("board-1.rewind")
        try JournalRandomAccessTests.damageMiddleBlock(of: file)
        let damaged = try JournalReader(path: file)
        _ = Array(damaged.records())
        #expect(damaged.damage.count == 1, "the damaged block is reported")
        #expect(try Self.expectAgreement(file) > 0)
    }

    @Test("blame's walker judges each record as it judges its event")
    func blameVerdicts() throws {
        let directory = TemporaryDirectory()
        for seed in 1...3 as ClosedRange<UInt64> {
            let file = directory.file("board-\(seed).rewind")
            _ = try JournalRandomAccessTests.record(to: file, steps: 400, seed: seed)
            let reader = try JournalReader(path: file)
            let records = Array(reader.records())
            var moves = 0
            for text in ["items[3].done", "items[id: 7].title", "items[2].done", "selected", "items"] {
                var byEvent = PathWalker(path: try FollowedPath(parsing: text))
                var byRecord = PathWalker(path: try FollowedPath(parsing: text))
                var verdicts = 0
                for record in records {
                    let expected = byEvent.verdict(record.event)
                    #expect(byRecord.verdict(record) == expected, "seed \(seed), '\(text)', step \(record.sequence)")
                    if expected != nil { verdicts += 1 }
                    if expected == .movedAnotherElementHere { moves += 1 }
                }
                #expect(verdicts > 0, "seed \(seed), '\(text)' changes")
            }
            // By position, the journal inserts and removes before an item: an index shift is judged too.
            #expect(moves > 0, "seed \(seed): a step only moved another item to a followed position")
        }
    }
}
