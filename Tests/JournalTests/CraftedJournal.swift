import Foundation
@testable @_spi(Fuzzing) @_spi(Tooling) import Rewind

/// Journals made record by record, CRC-correct, holding what no writer would write: diffs that do
/// not fit, states thousands of levels deep, blocks that decode to huge values. What an attacker
/// hands a reader.
struct CraftedJournal {
    private var builder = BlockBuilder()
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

    /// The journal's bytes: a header and the one block.
    mutating func bytes() -> [UInt8] {
        JournalFuzzing.journal(wrappingPayload: builder.payload())
    }

    /// Writes the journal into `directory` and returns its path.
    mutating func write(in directory: TemporaryDirectory, named name: String) throws -> String {
        let path = directory.file(name)
        try Data(bytes()).write(to: URL(fileURLWithPath: path))
        return path
    }
}
