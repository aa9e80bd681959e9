/// Appends the journal's primitive encodings to a byte array: little-endian fixed-width integers,
/// LEB128 varints, zigzag varints for signed values, and length-prefixed UTF-8.
struct ByteWriter {
    var bytes: [UInt8] = []
    /// The values, changes and path components written so far, counted as a reader counts them
    /// when it decodes these bytes (``ByteReader/countDecoded(_:)``): the writer keeps each block
    /// within what every reader accepts (``JournalFormat/maximumDecodedItemsPerBlock``).
    var decodedItems = 0

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func varint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    mutating func varint(_ value: Int) {
        varint(UInt64(value))
    }

    mutating func signedVarint(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func string(_ value: String) {
        var copy = value
        copy.withUTF8 { utf8 in
            varint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func append(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }
}

/// Reads what ``ByteWriter`` writes, checking every length against the bytes that remain, so that
/// damaged input ends in a ``JournalFormatError`` and never in a crash or a huge allocation.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    let end: Int

    init(_ bytes: [UInt8], offset: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.offset = offset
        self.end = min(end ?? bytes.count, bytes.count)
    }

    var remaining: Int { end - offset }
    var isAtEnd: Bool { offset >= end }

    /// Values, changes and path components decoded so far from these bytes (one block's payload).
    private(set) var decodedItems = 0

    /// How many more items may be decoded: what a collection may reserve room for up front.
    var decodableItemsLeft: Int { max(0, JournalFormat.maximumDecodedItemsPerBlock - decodedItems) }

    /// Counts `count` more decoded items; throws once the block holds more than a reader accepts
    /// (``JournalFormat/maximumDecodedItemsPerBlock``), before they are built.
    mutating func countDecoded(_ count: Int = 1) throws(JournalFormatError) {
        decodedItems += count
        guard decodedItems <= JournalFormat.maximumDecodedItemsPerBlock else {
            throw .malformed("more than \(JournalFormat.maximumDecodedItemsPerBlock) values in one block", at: offset)
        }
    }

    mutating func byte() throws(JournalFormatError) -> UInt8 {
        guard offset < end else { throw .truncated("a byte", at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func fixed<T: FixedWidthInteger>(_ type: T.Type) throws(JournalFormatError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw .truncated("\(size) bytes", at: offset) }
        var value: T = 0
        for index in 0..<size {
            value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index)
        }
        offset += size
        return value
    }

    mutating func varint() throws(JournalFormatError) -> UInt64 {
        // Most varints of a block — references, deltas, counts — fit in one byte.
        if offset < end, bytes[offset] < 0x80 {
            defer { offset += 1 }
            return UInt64(bytes[offset])
        }
        return try longVarint()
    }

    private mutating func longVarint() throws(JournalFormatError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw .malformed("a varint longer than 64 bits", at: offset) }
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// A varint used as a count or index: it must not exceed `limit`.
    mutating func count(atMost limit: Int) throws(JournalFormatError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else { throw .malformed("a count of \(value) where at most \(limit) fits", at: offset) }
        return Int(value)
    }

    mutating func signedVarint() throws(JournalFormatError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func string() throws(JournalFormatError) -> String {
        // The room left is judged after the length field is read: before it, a string could claim
        // the length field's own bytes and run past the end.
        let declared = try varint()
        guard declared <= UInt64(remaining) else { throw .truncated("a string of \(declared) bytes", at: offset) }
        let length = Int(declared)
        defer { offset += length }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    mutating func skip(_ count: Int) throws(JournalFormatError) {
        guard remaining >= count else { throw .truncated("\(count) bytes", at: offset) }
        offset += count
    }
}

/// Why bytes could not be read as a journal structure.
enum JournalFormatError: Error, CustomStringConvertible {
    case truncated(String, at: Int)
    case malformed(String, at: Int)

    var description: String {
        switch self {
        case .truncated(let what, let offset): "truncated: expected \(what) at offset \(offset)"
        case .malformed(let what, let offset): "malformed: \(what) at offset \(offset)"
        }
    }
}
