import Foundation
@testable import Rewind
import Testing
import TemporaryFiles

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
        notes.emit(.created(state: CapturedValue(["count": 0, "note": long] as [String: Any])), callSite: CallSite(), to: journal)
        tally.emit(.created(state: CapturedValue(["m": 0])), callSite: CallSite(), to: journal)
        for step in 1...7 {
            tally.emit(.replace(state: CapturedValue(["m": step])), name: "count", callSite: CallSite(), to: journal)
        }
        notes.emit(.replace(state: CapturedValue(["count": 1])), name: "forget the note", callSite: CallSite(), to: journal)
        journal.close()
        return path
    }

    /// The genuine journal copied block by block, with `lie` made to each block's index entry
    /// and summary.
    static func copy(_ path: String, to output: String, lie: (_ index: inout [UInt64: JournalBlock.SourceSummary], _ summary: inout BlockSummary) -> Void) throws {
        let reader = try JournalReader(path: path)
        let file = try JournalFile(path: output, header: reader.header, replaceExisting: false)
        for (index, block) in reader.blocks.enumerated() {
            let payload = reader.readBytes(at: block.offset + JournalFormat.frameHeaderLength, count: block.compressedLength)
            var entry = block.sources
            var summary = try #require(reader.summary(ofBlock: index))
            lie(&entry, &summary)
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
        let verification = try JournalReader(path: output).verify(checkingSummaries: true)
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
            let verification = try JournalReader(path: path).verify(checkingSummaries: true)
            #expect(!verification.untrueSummaries.isEmpty, "\(path): \(verification)")
        }
    }
}
