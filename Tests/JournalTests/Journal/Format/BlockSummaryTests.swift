import Cycler
import Foundation
@_spi(Fuzzing) @testable import Rewind
import RewindViewer
import Testing
import TestSupport

@Suite("Block summaries")
struct BlockSummaryTests {
    /// A counter that only counts up: a question about one value is answered by one block.
    final class Tally: CyclerType, Sendable {
        struct State: Codable, Equatable { var count = 0; var label = "tally"; var limits = Limits() }
        struct Limits: Codable, Equatable { var low = 0; var high = 10 }
        let state: Storage<State> = .init(State())
    }

    static func recordTally(to path: String, steps: Int) throws -> UInt64 {
        var configuration = JournalConfiguration()
        configuration.blockSize = 4 * 1024
        let journal = try JournalLogger(path: path, configuration: configuration)
        let tally = Tally()
        tally.set(logger: journal)
        for step in 0..<steps {
            tally.commit("add") { $0.update($0.value.count + 1, \.count) }
            if step % 500 == 250 { tally.commit("relabel") { $0.update("tally \(step)", \.label) } }
        }
        journal.close()
        return tally.eventSource.instanceID
    }

    /// Every claim a block's summary makes holds at every step of the block, against states the
    /// reader rebuilds on its own (``JournalReader/untrueSummaries()``: the values of each tracked
    /// path before and after each step, the kinds and names, the fields that changed). Returns how
    /// many blocks have a summary.
    static func expectSummariesHold(in path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let reader = try JournalReader(path: path)
        let untrue = reader.untrueSummaries()
        #expect(untrue.isEmpty, "\(untrue.prefix(3))", sourceLocation: sourceLocation)
        return reader.blocks.indices.filter { reader.summary(ofBlock: $0) != nil }.count
    }

    struct Shape: Codable {
        struct Inner: Codable { var x: Double; var deep: [String: Int]? }
        var n: Int
        var opt: Int?
        var text: String
        var flag: Bool
        var inner: Inner
        var list: [Int]
    }

    /// Random events logged straight into a journal: commits whose state does not follow from
    /// their changes, changes outside commits, replacements, optionals set to nil, blocks cut in
    /// the middle of commits, a second source created and released.
    static func recordRaw(to path: String, events: Int, seed: UInt64) throws {
        var configuration = JournalConfiguration()
        configuration.blockSize = 1024
        configuration.keyframeInterval = 8
        let journal = try JournalLogger(path: path, configuration: configuration)
        var random = SplitMix(seed: seed)
        let sources = [EventSource(framework: .cycler, typeName: "Raw"), EventSource(framework: .cycler, typeName: "Other")]
        var sequence: UInt64 = 0
        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        func shape() -> Shape {
            Shape(n: pick(50) - 10, opt: pick(3) == 0 ? nil : pick(9), text: ["a", "b", "c", String(repeating: "z", count: 70)][pick(4)],
                  flag: pick(2) == 0, inner: .init(x: Double(pick(100)) / 4, deep: pick(2) == 0 ? nil : ["k": pick(5)]), list: Array(0..<pick(6)))
        }
        func log(_ source: EventSource, _ kind: Event.Kind, _ name: String) {
            sequence += 1
            journal.log(Event(sequence: sequence, time: .now(), source: source, kind: kind, name: name, description: "", callSite: CallSite(), parent: nil))
        }
        log(sources[0], .created(state: LoggedValue(shape())), "created")
        for _ in 0..<events {
            let source = sources[pick(5) == 0 ? 1 : 0]
            switch pick(10) {
            case 0: log(source, .willDispatch(), ["tap", "load", "save"][pick(3)])
            case 1: log(source, .didDispatch(duration: .zero), "tap")
            case 2: log(source, .willMutate, "edit")
            case 3: log(source, .didMutate(duration: .zero, state: LoggedValue(shape())), "edit")
            case 4: log(source, .change(path: ChangedPath(\Shape.n), value: LoggedValue(pick(80) - 20), state: nil), "n")
            case 5: log(source, .change(path: ChangedPath(\Shape.opt), value: LoggedValue((pick(2) == 0 ? nil : pick(7) as Int?) as Any), state: nil), "opt")
            case 6: log(source, .change(path: ChangedPath(\Shape.inner.x), value: LoggedValue(Double(pick(9))), state: nil), "x")
            case 7: log(source, .replace(state: LoggedValue(shape())), "replace")
            // An element of the list set whole, at times one past its end: a reader appends it.
            case 8: log(source, .change(path: ChangedPath(name: "list[\(pick(7))]"), value: LoggedValue(pick(9)), state: nil), "list")
            default: log(source, .activity(LoggedValue(pick(3))), "ping")
            }
        }
        log(sources[1], .released, "released")
        journal.close()
    }

    @Test("a block that starts inside a commit, after a change its records do not hold, says the commit's end may set that field back")
    func blockStartingAfterUnrecordedChange() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("revert.rewind")
        let journal = try JournalLogger(path: path)
        let source = EventSource(framework: .cycler, typeName: "Shape")
        var sequence: UInt64 = 0
        func log(_ kind: Event.Kind, _ name: String) {
            sequence += 1
            journal.log(Event(sequence: sequence, time: .now(), source: source, kind: kind, name: name, description: "", callSite: CallSite(), parent: nil))
        }
        let before = Shape(n: 0, opt: 3, text: "a", flag: false, inner: .init(x: 0, deep: nil), list: [])
        log(.created(state: LoggedValue(before)), "created")
        log(.willMutate, "edit")
        // Put on top of the recorded state by a reader: opt is 5 as the next block starts.
        log(.change(path: ChangedPath(\Shape.opt), value: LoggedValue(5), state: nil), "opt")
        try journal.flush()
        // A change whose place the recording cannot name: the commit's state is captured, and
        // it has opt as it was recorded, 3 — which the new block's reader sees opt go back to.
        log(.change(path: ChangedPath(name: "list[…]"), value: LoggedValue(1), state: nil), "list")
        log(.didMutate(duration: .zero, state: LoggedValue(before)), "edit")
        journal.close()
        let reader = try JournalReader(path: path)
        #expect(reader.blocks.count == 2)
        #expect(reader.summary(ofBlock: 1)?.sources.values.first?.changedFields?.contains("opt") != false)
        #expect(try Self.expectSummariesHold(in: path) == 2)
    }

    @Test("a summary's every claim holds at every step of its block: random sessions of inserts, removals, renames and nil")
    func claimsHold() throws {
        let directory = TemporaryDirectory()
        for seed in 1...4 as ClosedRange<UInt64> {
            let file = directory.file("board-\(seed).rewind")
            _ = try JournalRandomAccessTests.record(to: file, steps: 400, seed: seed)
            let summarized = try Self.expectSummariesHold(in: file)
            #expect(summarized == (try JournalReader(path: file)).blocks.count, "every block of a clean journal has a summary")
        }
        let tally = directory.file("tally.rewind")
        _ = try Self.recordTally(to: tally, steps: 3_000)
        #expect(try Self.expectSummariesHold(in: tally) > 10)
        for seed in 1...6 as ClosedRange<UInt64> {
            let raw = directory.file("raw-\(seed).rewind")
            try Self.recordRaw(to: raw, events: 3_000, seed: seed)
            #expect(try Self.expectSummariesHold(in: raw) > 10)
            // Nested commits and replacements inside commits: every state record still applies.
            #expect(try JournalReader(path: raw).verify().isClean, "seed \(seed)")
        }
    }

    /// A reader on a tally of 6,000 commits, in more than 20 blocks.
    static func tallyReader(in directory: TemporaryDirectory) throws -> JournalReader {
        let file = directory.file("tally.rewind")
        _ = try recordTally(to: file, steps: 6_000)
        let reader = try JournalReader(path: file)
        #expect(reader.blocks.count > 20)
        return reader
    }

    @Test("the fuzzer's summary condition is judged by summaries: no term of it needs a commit's start")
    func fuzzConditionIsJudged() {
        #expect(!JournalFuzzing.summaryCondition.readsBeforeACommit && JournalFuzzing.summaryCondition.readsBefore)
    }

    @Test("a query passes over the blocks whose summary rules it out, and finds what a full scan finds")
    func querySkipsBlocks() throws {
        let directory = TemporaryDirectory()
        let reader = try Self.tallyReader(in: directory)
        for (text, expectedSkips) in [("count == 5000", true), ("count > 5990", true), ("label == \"tally 2750\"", true),
                                      ("limits.high < 5", true), ("kind == change && changed(limits)", true), ("name == \"relabel\"", true),
                                      // At a commit's end, changed(…) compares with where the commit began, perhaps blocks earlier.
                                      ("changed(limits)", false), ("kind == mutated && changed(limits)", false),
                                      // A term that reads no commit's start leaves the others to be judged.
                                      ("count > 5990 || (kind == change && changed(limits))", true),
                                      ("count == old(count)", false), ("items.count > 0", false), ("seq > 0", false)] {
            let condition = try Condition(parsing: text)
            let skipped = reader.blocks.indices.filter { !reader.mayHold(condition, inBlock: $0) }.count
            #expect((skipped > reader.blocks.count / 2) == expectedSkips, "\(text): \(skipped) of \(reader.blocks.count) blocks skipped")
            // The scan that skips gives the steps a scan of every event gives, states and all.
            var scan = ConditionScan(condition)
            let everyStep = reader.events().compactMap { scan.step($0) }
            let found = Array(reader.steps(where: condition))
            #expect(found.map(\.event.sequence) == everyStep.map(\.event.sequence), "\(text)")
            #expect(found.map(\.before) == everyStep.map(\.before) && found.map(\.after) == everyStep.map(\.after), "\(text)")
        }
    }

    @Test("the viewer's w passes over the blocks a summary rules out and marks what query finds")
    func viewerWatchSkips() throws {
        let directory = TemporaryDirectory()
        let reader = try Self.tallyReader(in: directory)
        for text in ["count == 5000", "count > 5990 || label == \"tally 750\"", "count == old(count)"] {
            let program = ViewerProgram(timeline: Timeline(reader: reader), model: ViewerModel(width: 100, height: 30, colors: false, title: "tally"))
            for key in ("w" + text).map({ Key.character($0) }) + [.enter] { program.press(key) }
            let watch = try #require(program.model.watch)
            let expected = Array(reader.steps(where: try Condition(parsing: text))).map(\.event.sequence)
            #expect(watch.isComplete && watch.total == expected.count && watch.sequences == expected, "\(text)")
        }
    }

    @Test("a summary that does not belong to its block, or does not read back, is not used")
    func untrustedSummaries() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("tally.rewind")
        _ = try Self.recordTally(to: file, steps: 2_000)
        let reader = try JournalReader(path: file)
        let block = reader.blocks[3]
        let offset = try #require(block.summaryOffset)
        // A byte of the summary's payload flipped: its checksum fails, so the block is read.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes[offset + JournalFormat.frameHeaderLength + 2] ^= 0x5A
        let damaged = directory.file("damaged.rewind")
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let damagedReader = try JournalReader(path: damaged)
        #expect(damagedReader.summary(ofBlock: 3) == nil)
        #expect(damagedReader.summary(ofBlock: 4) != nil)
        let condition = try Condition(parsing: "count == 1")
        #expect(damagedReader.mayHold(condition, inBlock: 3))
        #expect(!damagedReader.mayHold(condition, inBlock: 4))
        #expect(Array(damagedReader.steps(where: condition)).count == Array(reader.steps(where: condition)).count)
        // Damage anywhere is damage: verify names the summary's bytes, and loses no event.
        #expect(try reader.verify().damage.isEmpty)
        let verification = try damagedReader.verify(holdingSummaries: true)
        let summaryLength = JournalFormat.frameHeaderLength + Int(try #require(BlockFrame.decode(Array(bytes[offset..<(offset + 60)]), at: 0)).compressedLength)
        #expect(verification.damage.map(\.byteRange) == [offset..<(offset + summaryLength)], "\(verification.damage)")
        #expect(verification.damage.first?.reason.contains("summary") == true && verification.damage.first?.lostEventCount == 0)
        #expect(verification.goodEvents == (try reader.verify().goodEvents))
        // Another block's summary in its place: made for other bytes, so not used.
        let other = try #require(reader.blocks[5].summaryOffset)
        let otherLength = JournalFormat.frameHeaderLength + Int(try #require(BlockFrame.decode(Array(bytes[other..<(other + 60)]), at: 0)).compressedLength)
        var swapped = try Data(contentsOf: URL(fileURLWithPath: file))
        let mine = JournalFormat.frameHeaderLength + Int(try #require(BlockFrame.decode(Array(swapped[offset..<(offset + 60)]), at: 0)).compressedLength)
        if mine == otherLength {
            swapped.replaceSubrange(offset..<(offset + mine), with: swapped[other..<(other + otherLength)])
            let swappedFile = directory.file("swapped.rewind")
            try swapped.write(to: URL(fileURLWithPath: swappedFile))
            #expect(try JournalReader(path: swappedFile).summary(ofBlock: 3) == nil)
        }
    }

    @Test("verify --deep finds a summary that lies about its block, which would make a query miss a match")
    func lyingSummary() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("tally.rewind")
        _ = try Self.recordTally(to: file, steps: 2_000)
        let reader = try JournalReader(path: file)
        let index = 5
        let offset = try #require(reader.blocks[index].summaryOffset)
        var summary = try #require(reader.summary(ofBlock: index))
        let id = try #require(summary.sources.keys.first)
        let counts = try #require(summary.sources[id]?.values[["count"]]?.numbers)
        // The same bytes' length, a range that leaves out every count but the one the block starts
        // with; checksums made good. The counts inside the block are in no other block.
        #expect(counts.upperBound - counts.lowerBound > 4)
        summary.sources[id]!.values[["count"]]!.numbers = counts.lowerBound...counts.lowerBound
        let framed = summary.framed(describing: reader.blocks[index].frame)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let replacement = framed.frame.encoded() + framed.payload
        #expect(replacement.count == JournalFormat.frameHeaderLength + Int(try #require(BlockFrame.decode(Array(bytes[offset..<(offset + 60)]), at: 0)).compressedLength))
        bytes.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        let crafted = directory.file("crafted.rewind")
        try bytes.write(to: URL(fileURLWithPath: crafted))

        let craftedReader = try JournalReader(path: crafted)
        let inside = Int((counts.lowerBound + counts.upperBound) / 2)
        let condition = try Condition(parsing: "count == \(inside)")
        #expect(Array(craftedReader.steps(where: condition)).isEmpty, "the lie hides the match")
        #expect(!Array(reader.steps(where: condition)).isEmpty)
        #expect(try craftedReader.verify().isClean, "without --deep, summaries are not held against steps")
        let deep = try craftedReader.verify(holdingSummaries: true)
        #expect(!deep.isClean && deep.summariesChecked)
        #expect(deep.untrueSummaries.map(\.blockOffset) == [reader.blocks[index].offset])
        #expect(deep.untrueSummaries.first?.reason == "it says count never holds \(Int(counts.lowerBound) + 1)")
        #expect(try reader.verify(holdingSummaries: true).isClean)
    }

    @Test("the codec reads back what it writes, and refuses bytes that do not end where it does")
    func codec() throws {
        var steps = BlockSummary.Source()
        steps.kinds = [.willMutate, .change, .didMutate]
        steps.names = ["add", "relabel"]
        steps.changedFields = nil
        var span = ValueSpan()
        for value: StateValue in [.integer(-3), .integer(Int64.max), .floatingPoint(2.5), .string("a"), .null, .bool(true), .array([])] { span.add(value) }
        steps.values = [["count"]: span, ["limits", "high"]: ValueSpan()]
        let summary = BlockSummary(eventsPayloadCRC: 0xDEADBEEF, sources: [7: steps, 9: BlockSummary.Source()])
        let bytes = summary.encoded()
        #expect(try BlockSummary.decode(bytes) == summary)
        #expect(throws: (any Error).self) { try BlockSummary.decode(bytes + [0]) }
        for length in 0..<bytes.count { #expect(throws: (any Error).self) { try BlockSummary.decode(Array(bytes.prefix(length))) } }
        // Int64.max has no exact Double: its range is widened outwards, never narrowed.
        #expect(span.mayEqual(.integer(Int64.max)) && span.mayEqual(.integer(-3)) && !span.mayEqual(.integer(-4)))
        #expect(span.mayEqual(.string("a")) && !span.mayEqual(.string("b")) && span.mayEqual(.null) && !span.mayEqual(.bool(false)))
    }

    @Test("a query over a journal of 1,000 units reads no more blocks with summaries than without, and answers the same")
    func manyUnitsReadNoMore() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("units.rewind")
        var configuration = JournalConfiguration()
        configuration.blockSize = 8 * 1024
        let journal = try JournalLogger(path: path, configuration: configuration)
        let units = (0..<1_000).map { _ in Tally() }
        for unit in units { unit.set(logger: journal) }
        for _ in 0..<12 {
            for unit in units { unit.commit("add") { $0.update($0.value.count + 1, \.count) } }
        }
        journal.close()

        let condition = try Condition(parsing: "count == 7 && kind == mutated")
        let summarised = try JournalReader(path: path)
        #expect(summarised.blocks.count > 20)
        let found = summarised.steps(where: condition).map(\.event.sequence)
        let plain = try JournalReader(path: path)
        var scan = ConditionScan(condition)
        let expected = plain.events().compactMap { scan.step($0)?.event.sequence }
        #expect(found == expected && found.count == 1_000)
        let withSummaries = summarised.blocksInflated.load(ordering: .relaxed)
        let without = plain.blocksInflated.load(ordering: .relaxed)
        #expect(withSummaries <= without, "\(withSummaries) blocks inflated with summaries, \(without) without")
    }
}
