/// One protocol buffers message being written, field by field, in the wire format
/// (protobuf.dev/programming-guides/encoding): what the Perfetto export needs and no more —
/// varints, signed integers (two's complement, not zigzag), fixed64s and doubles, strings and nested
/// messages.
///
/// ```swift
/// var name = ProtobufMessage()
/// name.varint(1, 7)          // iid
/// name.string(2, "add")      // name
/// var interned = ProtobufMessage()
/// interned.message(2, name)  // event_names
/// ```
struct ProtobufMessage {
    /// The encoded fields, in the order written.
    private(set) var bytes: [UInt8] = []

    private enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2
    }

    private mutating func key(_ field: Int, _ type: WireType) {
        appendVarint(UInt64(field) << 3 | type.rawValue)
    }

    private mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// An unsigned integer, enum or bool field.
    mutating func varint(_ field: Int, _ value: UInt64) {
        key(field, .varint)
        appendVarint(value)
    }

    /// An `int64` field (two's complement, as protobuf writes a negative `int64`).
    mutating func signed(_ field: Int, _ value: Int64) {
        varint(field, UInt64(bitPattern: value))
    }

    /// A `double` field.
    mutating func double(_ field: Int, _ value: Double) {
        fixed64(field, value.bitPattern)
    }

    /// A `fixed64` field (eight bytes, little-endian).
    mutating func fixed64(_ field: Int, _ value: UInt64) {
        key(field, .fixed64)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A `string` field (UTF-8).
    mutating func string(_ field: Int, _ value: String) {
        key(field, .lengthDelimited)
        var text = value
        text.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A nested message field.
    mutating func message(_ field: Int, _ value: ProtobufMessage) {
        key(field, .lengthDelimited)
        appendVarint(UInt64(value.bytes.count))
        bytes.append(contentsOf: value.bytes)
    }

    /// A nested message field built in place, at the end of this one's bytes: no buffer of its
    /// own, nothing copied (a trace writes a packet, a track event and its annotations per
    /// event). One byte is kept for the length, which most nested messages fit; a longer one
    /// moves its bytes along for the varint. `build` may only add fields: the message it is
    /// given holds the parent's bytes before its own.
    mutating func message(_ field: Int, _ build: (inout ProtobufMessage) -> Void) {
        key(field, .lengthDelimited)
        let lengthAt = bytes.count
        bytes.append(0)
        var nested = ProtobufMessage()
        swap(&nested.bytes, &bytes)
        build(&nested)
        swap(&nested.bytes, &bytes)
        let length = bytes.count - lengthAt - 1
        if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
        } else {
            var varint = ProtobufMessage()
            varint.appendVarint(UInt64(length))
            bytes.replaceSubrange(lengthAt...lengthAt, with: varint.bytes)
        }
    }

    /// The bytes written so far, handed over; the message is empty afterwards, its storage kept.
    mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

}
