import Foundation
@testable @_spi(Fuzzing) @_spi(Tooling) import Rewind

/// Journals made record by record, CRC-correct, holding what no writer would write: diffs that do
/// not fit, states thousands of levels deep, blocks that decode to huge values. What an attacker
/// hands a reader.
struct CraftedJournal {
    private var builder = BlockBuilder()
    /// The payloads of the blocks before the one being built.
    private var sealed: [[UInt8]] = []
    private var sequence: UInt64 = 0
    let source = EventSource(framework: .cycler, typeName: "Crafted", instanceID: 1)

    /// Appends one event of the crafted source.
    mutating func append(_ kind: Event.Category, body: WireRecord.Body = .none, state: StateRecord? = nil) {
        sequence += 1
        let record = WireRecord(
            kind: kind, sequence: sequence, time: EventTime(wallNanoseconds: Int64(sequence), monotonicNanoseconds: sequence),
            sourceIndex: 0, name: "crafted", description: "", file: .text(""), function: .text(""), line: 0, parent: nil,
            body: body, state: state
        )
        builder.appendUnchecked(record, source: source, sourceID: source.instanceID)
    }

    /// A `didMutate` carrying a state record.
    mutating func commit(_ state: StateRecord) {
        append(.didMutate, body: .duration(0), state: state)
    }

    /// Ends the block being built: the next event starts another (a block that starts however
    /// the crafter likes — with a diff, say, where a writer starts each source with a keyframe).
    mutating func startBlock() {
        sealed.append(builder.payload())
        builder = BlockBuilder()
    }

    /// The journal's bytes: a header and the blocks.
    mutating func bytes() -> [UInt8] {
        let headerLength = JournalFuzzing.journal(wrappingPayload: []).count - JournalFormat.frameHeaderLength - Zlib.deflate([], level: 1).count
        var bytes = JournalFuzzing.journal(wrappingPayload: (sealed.first ?? builder.payload()))
        for payload in (sealed.isEmpty ? [] : sealed.dropFirst() + [builder.payload()]) {
            bytes += JournalFuzzing.journal(wrappingPayload: payload).dropFirst(headerLength)
        }
        return bytes
    }

    /// Writes the journal into `directory` and returns its path.
    mutating func write(in directory: TemporaryDirectory, named name: String) throws -> String {
        let path = directory.file(name)
        try Data(bytes()).write(to: URL(fileURLWithPath: path))
        return path
    }
}
