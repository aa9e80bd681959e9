/// The table of sources (the units whose events follow), as a block payload and the index each
/// store it (docs/JOURNAL_FORMAT.md): a block refers to its string table, the index spells strings
/// out, since it has no string table of its own.
enum SourceTable {
    /// A block's table: instance number, then references to the framework, the type name, and the
    /// label plus one (0 for none).
    static func writeBlockTable(_ sources: [RecordedSource], to writer: inout ByteWriter, strings: inout StringTable) {
        let rows = sources.map { source in
            (source.instanceID, strings.reference(source.framework), strings.reference(source.typeName),
             source.label.map { strings.reference($0) + 1 } ?? 0)
        }
        writer.varint(rows.count)
        for (id, framework, typeName, label) in rows {
            writer.varint(id)
            writer.varint(framework)
            writer.varint(typeName)
            writer.varint(label)
        }
    }

    /// Reads a block's table; every reference is checked against the string table.
    static func readBlockTable(from reader: inout ByteReader, strings: [String]) throws(JournalFormatError) -> [RecordedSource] {
        // Each row takes at least four bytes.
        let count = try reader.count(atMost: reader.remaining / 4)
        try reader.countDecoded(count)
        var sources: [RecordedSource] = []
        sources.reserveCapacity(count)
        for _ in 0..<count {
            let id = try reader.varint()
            let framework = try StateValueCoding.string(from: &reader, strings)
            let typeName = try StateValueCoding.string(from: &reader, strings)
            let label = try reader.count(atMost: strings.count)
            sources.append(RecordedSource(instanceID: id, framework: framework, typeName: typeName, label: label == 0 ? nil : strings[label - 1]))
        }
        return sources
    }

    /// The index's table: instance number, framework, type name, then 1 and the label or 0.
    static func writeIndexTable(_ sources: [RecordedSource], to writer: inout ByteWriter) {
        writer.varint(sources.count)
        for source in sources {
            writer.varint(source.instanceID)
            writer.string(source.framework)
            writer.string(source.typeName)
            if let label = source.label {
                writer.byte(1)
                writer.string(label)
            } else {
                writer.byte(0)
            }
        }
    }

    static func readIndexTable(from reader: inout ByteReader) throws(JournalFormatError) -> [RecordedSource] {
        // Each row takes at least four bytes.
        let count = try reader.count(atMost: reader.remaining / 4)
        try reader.countDecoded(count)
        var sources: [RecordedSource] = []
        sources.reserveCapacity(count)
        for _ in 0..<count {
            let id = try reader.varint()
            let framework = try reader.string()
            let typeName = try reader.string()
            let flagOffset = reader.offset
            let label: String? = switch try reader.byte() {
            case 0: nil
            case 1: try reader.string()
            case let other: throw .malformed("a label flag of \(other)", at: flagOffset)
            }
            sources.append(RecordedSource(instanceID: id, framework: framework, typeName: typeName, label: label))
        }
        return sources
    }
}
