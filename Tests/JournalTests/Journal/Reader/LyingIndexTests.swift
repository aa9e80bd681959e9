import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

/// CRC-valid journals whose index or block summaries disagree with their blocks: `verify` names
/// the lie, never "clean".
@Suite("Indexes and summaries that lie")
struct LyingIndexTests {
    /// A journal of two units, each block holding both, with a text field that is long at first
    /// and removed later.
    static func genuine(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("genuine.rewind")
        let journal = try JournalLogger(path: path)
        let notes = EventChannel(source: EventSource(framework: .cycler, typeName: "Notes"))
        let tally = EventChannel(source: EventSource(framework: .cycler, typeName: "Tally"))
        let long = String(repeating: "a long note ", count: 12)
        notes.emit(.created(state: LoggedValue(["count": 0, "note": long] as [String: Any])), callSite: CallSite(), to: journal)
        tally.emit(.created(state: LoggedValue(["m": 0])), callSite: CallSite(), to: journal)
        for step in 1...7 {
            tally.emit(.replace(state: LoggedValue(["m": step])), name: "count", callSite: CallSite(), to: journal)
        }
        notes.emit(.replace(state: LoggedValue(["count": 1])), name: "forget the note", callSite: CallSite(), to: journal)
        journal.close()
        return path
    }

    /// The genuine journal copied block by block, with `lie` made to each block's index entry
    /// and summary.
    static func copy(_ path: String, to output: String, lie: (_ index: inout [UInt64: JournalBlock.SourceSpan], _ summary: inout BlockSummary) -> Void) throws {
        try copy(path, to: output) { _, entry, summary in lie(&entry, &summary) }
    }

    /// The same, told which block each lie is made to.
    static func copy(_ path: String, to output: String, lie: (_ block: Int, _ index: inout [UInt64: JournalBlock.SourceSpan], _ summary: inout BlockSummary) -> Void) throws {
        let reader = try JournalReader(path: path)
        let file = try JournalFile(path: output, header: reader.header, replaceExisting: false)
        for (index, block) in reader.blocks.enumerated() {
            let payload = reader.readBytes(at: block.offset + JournalFormat.frameHeaderLength, count: block.compressedLength)
            var entry = block.sources
            var summary = try #require(reader.summary(ofBlock: index))
            lie(index, &entry, &summary)
            let sources = block.sources.keys.sorted().compactMap { reader.source($0) }
            try file.append(frame: block.frame, payload: payload, sources: sources, summaries: entry, stepSummary: summary.framed(describing: block.frame))
        }
        try file.finish(level: 1)
    }

    @Test("an honest copy verifies clean: the copying itself tells no lie")
    func honestCopy() throws {
        let directory = TemporaryDirectory()
        let output = directory.file("copy.rewind")
        try Self.copy(try Self.genuine(in: directory), to: output) { _, _ in }
        let verification = try JournalReader(path: output).verify(holdingSummaries: true)
        #expect(verification.isClean, "\(verification)")
    }

    @Test("an index entry that leaves out a unit the block holds, or shortens its steps, is named")
    func lyingIndexEntries() throws {
        let directory = TemporaryDirectory()
        let genuine = try Self.genuine(in: directory)
        let omitted = directory.file("omitted.rewind")
        try Self.copy(genuine, to: omitted) { entry, _ in entry[entry.keys.max()!] = nil }
        let shortened = directory.file("shortened.rewind")
        try Self.copy(genuine, to: shortened) { entry, _ in
            let id = entry.keys.max()!
            entry[id]!.lastSequence = entry[id]!.firstSequence
        }
        let truth = try JournalReader(path: genuine)
        let tally = try #require(truth.sources.first { $0.source.typeName == "Tally" })
        for path in [omitted, shortened] {
            let verification = try JournalReader(path: path).verify()
            #expect(!verification.isClean && verification.indexProblem?.contains("misstates the units of the block") == true, "\(verification)")
            // A reader that reads the block believes the block, not the entry, and says so: the
            // state `show` prints is the recorded one.
            let reader = try JournalReader(path: path)
            let last = tally.sequences.upperBound
            #expect(try reader.event(sequence: last)?.source.instanceID == tally.source.instanceID)
            #expect(try reader.state(of: tally.source.instanceID, at: last) == (try truth.state(of: tally.source.instanceID, at: last)))
            #expect(reader.damage.contains { $0.reason.contains("the index misstates") }, "\(reader.damage)")
        }
        // An honest index is never called a liar.
        _ = try truth.event(sequence: tally.sequences.upperBound)
        #expect(truth.damage.isEmpty)
    }

    @Test("a summary whose text span leaves out a long text, whose changed fields leave out a removed one, is untrue")
    func lyingSummaries() throws {
        let directory = TemporaryDirectory()
        let genuine = try Self.genuine(in: directory)
        let notes = try #require(try JournalReader(path: genuine).sources.first { $0.source.typeName == "Notes" }?.source.instanceID)
        let text = directory.file("text.rewind")
        try Self.copy(genuine, to: text) { _, summary in
            summary.sources[notes]?.values[["note"]]?.holdsOtherTexts = false
        }
        let removed = directory.file("removed.rewind")
        try Self.copy(genuine, to: removed) { _, summary in
            // Only the count changed, it says; the note was removed as well.
            summary.sources[notes]?.changedFields = ["count"]
        }
        for path in [text, removed] {
            let verification = try JournalReader(path: path).verify(holdingSummaries: true)
            #expect(!verification.untrueSummaries.isEmpty, "\(path): \(verification)")
        }
    }

    /// One random lie told about a block: a claim made smaller than the truth, so that a reader
    /// believing it would pass over what is there.
    static func tellALie(_ random: inout SplitMix, _ entry: inout [UInt64: JournalBlock.SourceSpan], _ summary: inout BlockSummary) -> String {
        guard let id = summary.sources.keys.sorted().first, var steps = summary.sources[id] else { return "none" }
        defer { summary.sources[id] = steps }
        switch random.next() % 8 {
        case 0:
            entry[id] = nil
            return "the index entry leaves out unit \(id)"
        case 1:
            guard let first = entry[id]?.firstSequence else { return "none" }
            entry[id]?.lastSequence = first
            return "the index entry shortens unit \(id) to one step"
        case 2:
            guard let kind = steps.kinds.sorted(by: { $0.rawValue < $1.rawValue }).randomElement(using: &random) else { return "none" }
            steps.kinds.remove(kind)
            return "the summary leaves out the kind \(kind)"
        case 3:
            guard let name = steps.names?.sorted().randomElement(using: &random) else { return "none" }
            steps.names?.remove(name)
            return "the summary leaves out the name \(name)"
        case 4:
            guard let field = steps.changedFields?.sorted().randomElement(using: &random) else { return "none" }
            steps.changedFields?.remove(field)
            return "the summary leaves out the changed field \(field)"
        default:
            guard let path = steps.values.keys.sorted(by: { $0.joined(separator: ".") < $1.joined(separator: ".") }).randomElement(using: &random),
                  var span = steps.values[path] else { return "none" }
            defer { steps.values[path] = span }
            if let numbers = span.numbers, random.next() % 2 == 0 {
                span.numbers = numbers.upperBound + 1...numbers.upperBound + 2
                return "the summary moves \(path)'s numbers past what they were"
            }
            if let text = span.texts.sorted().randomElement(using: &random) {
                span.texts.remove(text)
                return "the summary leaves out \(path)'s text \(text)"
            }
            span.holdsTrue = false
            span.holdsFalse = false
            span.numbers = nil
            return "the summary says \(path) held no number and no truth value"
        }
    }

    @Test("random lies in block summaries and index entries: whenever a query or a unit's log answers otherwise than a read of every event, verify --deep names the lie", arguments: 1...4 as ClosedRange<UInt64>)
    func randomLies(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let genuine = directory.file("tally.rewind")
        let tally = try BlockSummaryTests.recordTally(to: genuine, steps: 3_000)
        let conditions = try ["count == 2000", "count > 2990", "label == \"tally 1750\"", "limits.high < 5", "kind == change && changed(label)",
                              "name == \"relabel\"", "count >= 100 && count <= 110", "kind == replace"].map { try Condition(parsing: $0) }
        var random = SplitMix(seed: seed)
        var misled = 0
        let rounds = 10
        for round in 0..<rounds {
            // One kind of lie, told by every block (each about itself).
            let kind = random.next()
            var told: [String] = []
            let path = directory.file("lie-\(round).rewind")
            try Self.copy(genuine, to: path) { _, entry, summary in
                var chooser = SplitMix(seed: kind)
                told.append(Self.tellALie(&chooser, &entry, &summary))
            }
            guard told.contains(where: { $0 != "none" }) else { continue }
            let reader = try JournalReader(path: path)
            var answersDiffer = false
            for condition in conditions {
                var scan = ConditionScan(condition)
                let truth = reader.events().compactMap { scan.step($0) }.map(\.event.sequence)
                let found = Array(reader.steps(where: condition)).map(\.event.sequence)
                answersDiffer = answersDiffer || found != truth
            }
            // A unit's own events, as `log --source` reads them: blocks passed over by their index entries.
            let everyone = reader.events().filter { $0.source.instanceID == tally }.map(\.sequence)
            let its = Array(reader.events(matching: EventFilter(sourceIDs: [tally]))).map(\.sequence)
            answersDiffer = answersDiffer || its != everyone
            guard answersDiffer else { continue }
            misled += 1
            let verification = try JournalReader(path: path).verify(holdingSummaries: true)
            #expect(!verification.isClean, "\(told.first { $0 != "none" } ?? ""), and verify --deep says clean")
        }
        // A lie that changes no answer proves nothing here (an index entry's: readers that read
        // a block believe the block); a run must have some that do.
        #expect(misled >= 1, "no lie of \(rounds) changed an answer")
    }
}

extension SplitMix: RandomNumberGenerator {}
