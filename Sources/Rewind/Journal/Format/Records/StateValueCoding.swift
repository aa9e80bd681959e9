/// The binary form of ``StateValue`` trees and ``StateDiff``s inside a block. Every string (field
/// names, string values, type names) is a reference into the block's string table, so a name that
/// recurs in every state of a block is stored once.
enum StateValueCoding {
    enum Tag: UInt8 {
        case null = 0, `false`, `true`, integer, unsignedInteger, floatingPoint, string, array, object, opaque
    }

    static func write(_ value: StateValue, to writer: inout ByteWriter, strings: inout StringTable) {
        // One decoded item per node, as ``read(from:strings:depth:)`` counts it.
        writer.decodedItems += 1
        switch value {
        case .null: writer.byte(Tag.null.rawValue)
        case .bool(let flag): writer.byte(flag ? Tag.true.rawValue : Tag.false.rawValue)
        case .integer(let number):
            writer.byte(Tag.integer.rawValue)
            writer.signedVarint(number)
        case .unsignedInteger(let number):
            writer.byte(Tag.unsignedInteger.rawValue)
            writer.varint(number)
        case .floatingPoint(let number):
            writer.byte(Tag.floatingPoint.rawValue)
            writer.fixed(number.bitPattern)
        case .string(let text):
            writer.byte(Tag.string.rawValue)
            writer.varint(strings.reference(text))
        case .array(let elements):
            writer.byte(Tag.array.rawValue)
            writer.varint(elements.count)
            for element in elements { write(element, to: &writer, strings: &strings) }
        case .object(let fields):
            writer.byte(Tag.object.rawValue)
            writer.varint(fields.count)
            for (key, field) in fields {
                writer.varint(strings.reference(key))
                write(field, to: &writer, strings: &strings)
            }
        case .opaque(let leaf):
            writer.byte(Tag.opaque.rawValue)
            writer.varint(strings.reference(leaf.typeName))
            writer.varint(strings.reference(leaf.text))
        }
    }

    /// The most elements a list or object makes room for before they are read: a count is only
    /// a claim until its elements come, and lists nested as deep as a reader goes, each claiming
    /// all a block may hold, would otherwise reserve gigabytes for nothing. Larger ones grow.
    static let reservedUpFront = 1 << 16

    static func read(from reader: inout ByteReader, strings: [String], depth: Int = 0) throws(JournalFormatError) -> StateValue {
        try refuseDeeperThanReadable(depth, at: reader.offset)
        try reader.countDecoded()
        let tagByte = try reader.byte()
        guard let tag = Tag(rawValue: tagByte) else { throw .malformed("unknown value tag \(tagByte)", at: reader.offset - 1) }
        switch tag {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .integer: return .integer(try reader.signedVarint())
        case .unsignedInteger: return .unsignedInteger(try reader.varint())
        case .floatingPoint: return .floatingPoint(Double(bitPattern: try reader.fixed(UInt64.self)))
        case .string: return .string(try string(from: &reader, strings))
        case .array:
            // Each element takes at least one byte, which bounds the count by what remains.
            let count = try reader.count(atMost: reader.remaining)
            var elements: [StateValue] = []
            elements.reserveCapacity(min(count, reader.decodableItemsLeft, Self.reservedUpFront))
            for _ in 0..<count { elements.append(try read(from: &reader, strings: strings, depth: depth + 1)) }
            return .array(elements)
        case .object:
            let count = try reader.count(atMost: reader.remaining / 2)
            var fields = StateObjectFields(minimumCapacity: min(count, reader.decodableItemsLeft, Self.reservedUpFront))
            for _ in 0..<count {
                let key = try string(from: &reader, strings)
                fields[key] = try read(from: &reader, strings: strings, depth: depth + 1)
            }
            return .object(fields)
        case .opaque:
            return .opaque(OpaqueValue(typeName: try string(from: &reader, strings), text: try string(from: &reader, strings)))
        }
    }

    /// Refuses a value deeper than any reader decodes, in the same words whether it is built or
    /// stepped over.
    private static func refuseDeeperThanReadable(_ depth: Int, at offset: Int) throws(JournalFormatError) {
        guard depth < JournalFormat.maximumTreeDepth else {
            throw .malformed("a value nested deeper than \(JournalFormat.maximumTreeDepth)", at: offset)
        }
    }

    static func string(from reader: inout ByteReader, _ strings: [String]) throws(JournalFormatError) -> String {
        strings[try reference(from: &reader, stringCount: strings.count)]
    }

    /// A reference into a string table of `stringCount` strings, checked to be in it.
    static func reference(from reader: inout ByteReader, stringCount: Int) throws(JournalFormatError) -> Int {
        let index = try reader.varint()
        guard index < UInt64(stringCount) else { throw .malformed("string reference \(index) beyond the table of \(stringCount)", at: reader.offset) }
        return Int(index)
    }

    /// Steps over a value without building it, accepting exactly the bytes ``read(from:strings:depth:)``
    /// accepts (string references included), so that a block does not read differently depending
    /// on which of its values a reader wanted.
    static func skip(in reader: inout ByteReader, strings: [String], depth: Int = 0) throws(JournalFormatError) {
        try refuseDeeperThanReadable(depth, at: reader.offset)
        // Counted as a built value is, so that a block over the limit is refused by every reader.
        try reader.countDecoded()
        let tagByte = try reader.byte()
        guard let tag = Tag(rawValue: tagByte) else { throw .malformed("unknown value tag \(tagByte)", at: reader.offset - 1) }
        switch tag {
        case .null, .false, .true: return
        case .integer, .unsignedInteger: _ = try reader.varint()
        case .string: _ = try reference(from: &reader, stringCount: strings.count)
        case .floatingPoint: try reader.skip(8)
        case .array:
            for _ in 0..<(try reader.count(atMost: reader.remaining)) { try skip(in: &reader, strings: strings, depth: depth + 1) }
        case .object:
            for _ in 0..<(try reader.count(atMost: reader.remaining / 2)) {
                _ = try reference(from: &reader, stringCount: strings.count)
                try skip(in: &reader, strings: strings, depth: depth + 1)
            }
        case .opaque:
            _ = try reference(from: &reader, stringCount: strings.count)
            _ = try reference(from: &reader, stringCount: strings.count)
        }
    }

    // MARK: Diffs

    static func write(_ diff: StateDiff, to writer: inout ByteWriter, strings: inout StringTable) {
        writer.varint(diff.changes.count)
        for change in diff.changes {
            switch change.operation {
            case .added: writer.byte(0)
            case .removed: writer.byte(1)
            case .changed: writer.byte(2)
            }
            writer.varint(change.path.components.count)
            writer.decodedItems += 1 + change.path.components.count
            for component in change.path.components {
                switch component {
                case .key(let key):
                    writer.byte(0)
                    writer.varint(strings.reference(key))
                case .index(let index):
                    writer.byte(1)
                    writer.varint(index)
                }
            }
            switch change.operation {
            case .added(let value):
                writer.varint(change.fieldPosition.map { $0 + 1 } ?? 0)
                write(value, to: &writer, strings: &strings)
            case .removed:
                break
            case .changed(_, let value):
                write(value, to: &writer, strings: &strings)
            }
        }
    }

    /// Reads a diff. Old values are not stored (the state before is always rebuilt from a keyframe),
    /// so removals and changes come back with `null` as their old value.
    static func readDiff(from reader: inout ByteReader, strings: [String]) throws(JournalFormatError) -> StateDiff {
        let count = try reader.count(atMost: reader.remaining)
        var changes: [StateChange] = []
        changes.reserveCapacity(min(count, reader.decodableItemsLeft, Self.reservedUpFront))
        for _ in 0..<count {
            let operation = try reader.byte()
            let componentCount = try reader.count(atMost: reader.remaining)
            try reader.countDecoded(1 + componentCount)
            var components: [StatePath.Component] = []
            for _ in 0..<componentCount {
                switch try reader.byte() {
                case 0: components.append(.key(try string(from: &reader, strings)))
                case 1: components.append(.index(try reader.count(atMost: Int(Int32.max))))
                case let other: throw .malformed("unknown path component tag \(other)", at: reader.offset - 1)
                }
            }
            let path = StatePath(components)
            switch operation {
            case 0:
                let position = try reader.count(atMost: Int(Int32.max))
                let value = try read(from: &reader, strings: strings)
                changes.append(StateChange(path: path, operation: .added(value), fieldPosition: position == 0 ? nil : position - 1))
            case 1:
                changes.append(StateChange(path: path, operation: .removed(.null)))
            case 2:
                changes.append(StateChange(path: path, operation: .changed(from: .null, to: try read(from: &reader, strings: strings))))
            default:
                throw .malformed("unknown change operation \(operation)", at: reader.offset)
            }
        }
        return StateDiff(changes: changes)
    }
}
