/// Writes JSON text directly — field order as given, no intermediate `Any` — for the command line's
/// `--json` output and exports, where a million events must stream out quickly and identically
/// from one run to the next. Text is built as UTF-8 bytes in one buffer (`JSONBytes`) and made a
/// `String` once: appending to a `String` piece by piece cost more than everything else in an
/// export.
@_spi(Tooling) public enum JSONText {
    /// A JSON string literal, with every control character escaped.
    @_spi(Tooling) public static func string(_ value: String) -> String {
        var output = JSONBytes()
        output.append(string: value)
        return output.text
    }

    /// A state value as JSON: objects keep their field order; opaque leaves become
    /// `{"$opaque": type, "summary": text}` (a state's own field named `$…` is written `$$…`);
    /// NaN and the infinities become the strings `"NaN"`,
    /// `"Infinity"` and `"-Infinity"` (JSON has no such numbers).
    @_spi(Tooling) public static func value(_ value: StateValue) -> String {
        var output = JSONBytes()
        output.append(value: value)
        return output.text
    }

    /// A field's name: a literal written in the code (`"seq"`), put out as it is, with no look at
    /// its characters — an export writes a row's twenty names millions of times, and Rewind's
    /// names need no escape (checked in debug builds).
    @_spi(Tooling) public struct Key: ExpressibleByStringLiteral, Sendable {
        let name: StaticString

        /// A name written in the code.
        @_spi(Tooling) public init(stringLiteral name: StaticString) {
            assert(JSONBytes.isPlain(name), "a JSON key literal to escape: \(name)")
            self.name = name
        }
    }

    /// An object built field by field: `JSONText.object { $0.field("seq", 3) }`.
    @_spi(Tooling) public struct Object {
        /// The object so far, from its `{` at `start` (after whatever a buffer it continues held).
        var output: JSONBytes
        private let start: Int
        private var isEmpty = true

        init() {
            output = JSONBytes()
            start = 0
            output.append(ascii: "{")
        }

        /// An object written at the end of `buffer`, which it takes over (nothing is copied) until
        /// ``close(into:)`` hands it back with the object in it: for output that streams many
        /// objects into one buffer, such as an export's rows.
        @_spi(Tooling) public init(continuing buffer: inout [UInt8]) {
            output = JSONBytes(taking: &buffer)
            start = output.bytes.count
            output.append(ascii: "{")
        }

        /// Closes the object and hands its buffer back to `buffer` (see ``init(continuing:)``).
        @_spi(Tooling) public mutating func close(into buffer: inout [UInt8]) {
            output.append(ascii: "}")
            output.give(to: &buffer)
        }

        /// The object's fields as JSON text, without its braces: to be written again and again with
        /// ``append(encodedFields:)`` (a table's columns that are the same on every row).
        @_spi(Tooling) public var encodedFields: [UInt8] { Array(output.bytes[(start + 1)...]) }

        /// Adds fields already encoded by ``encodedFields``.
        @_spi(Tooling) public mutating func append(encodedFields: [UInt8]) {
            guard !encodedFields.isEmpty else { return }
            if !isEmpty { output.append(ascii: ",") }
            isEmpty = false
            output.append(bytes: encodedFields)
        }

        /// Adds an array of objects, each written in place by `write`.
        @_spi(Tooling) public mutating func array<Items: Sequence>(_ key: Key, of items: Items, _ write: (inout Object, Items.Element) -> Void) {
            startField(key)
            output.append(ascii: "[")
            var first = true
            for item in items {
                if !first { output.append(ascii: ",") }
                first = false
                var element = Object(nestedIn: &output)
                write(&element, item)
                element.close(nestedIn: &output)
            }
            output.append(ascii: "]")
        }

        /// An object written on in another's output, which it takes over until
        /// ``close(nestedIn:)`` (see ``array(_:of:_:)``).
        private init(nestedIn outer: inout JSONBytes) {
            var none: [UInt8] = []
            output = JSONBytes(taking: &none)
            swap(&output, &outer)
            start = output.bytes.count
            output.append(ascii: "{")
        }

        private mutating func close(nestedIn outer: inout JSONBytes) {
            output.append(ascii: "}")
            swap(&output, &outer)
        }

        /// Adds a field whose value is already JSON text.
        @_spi(Tooling) public mutating func raw(_ key: Key, _ json: String) {
            startField(key)
            output.append(verbatim: json)
        }

        private mutating func startField(_ key: Key) {
            if !isEmpty { output.append(ascii: ",") }
            isEmpty = false
            output.append(plainLiteral: key.name)
            output.append(ascii: ":")
        }

        /// Adds a string field.
        @_spi(Tooling) public mutating func field(_ key: Key, _ value: String) {
            startField(key)
            output.append(string: value)
        }
        /// Adds an integer field.
        @_spi(Tooling) public mutating func field(_ key: Key, _ value: some BinaryInteger) {
            startField(key)
            if let small = Int64(exactly: value) {
                output.append(integer: small)
            } else {
                output.append(verbatim: String(value))
            }
        }
        /// Adds an integer field (the common types, written without a generic conversion: an
        /// export writes several per event).
        @_spi(Tooling) public mutating func field(_ key: Key, _ value: Int) {
            startField(key)
            output.append(integer: Int64(value))
        }
        /// Adds an integer field.
        @_spi(Tooling) public mutating func field(_ key: Key, _ value: UInt) {
            field(key, UInt64(value))
        }
        /// Adds an integer field.
        @_spi(Tooling) public mutating func field(_ key: Key, _ value: UInt64) {
            startField(key)
            if let small = Int64(exactly: value) { output.append(integer: small) } else { output.append(verbatim: String(value)) }
        }
        /// Adds a Boolean field.
        @_spi(Tooling) public mutating func field(_ key: Key, _ value: Bool) {
            startField(key)
            output.append(verbatim: value ? "true" : "false")
        }
        /// Adds a state value field.
        @_spi(Tooling) public mutating func field(_ key: Key, _ value: StateValue) {
            startField(key)
            output.append(value: value)
        }
        /// Adds a field that is `null` when the value is missing.
        @_spi(Tooling) public mutating func field(_ key: Key, _ value: String?) {
            startField(key)
            if let value { output.append(string: value) } else { output.append(verbatim: "null") }
        }
        /// Adds a field that is `null` when the value is missing.
        @_spi(Tooling) public mutating func field(_ key: Key, _ value: UInt64?) {
            guard let value else { return raw(key, "null") }
            field(key, value)
        }

        /// The object's text.
        @_spi(Tooling) public var text: String {
            String(decoding: output.bytes[start...], as: UTF8.self) + "}"
        }

        /// Appends the object's text, as UTF-8, to `buffer`: for output that streams many objects
        /// without making each a `String`. Every control character in it is escaped, so it is
        /// safe to write to a terminal as it is.
        @_spi(Tooling) public func write(to buffer: inout [UInt8]) {
            buffer.append(contentsOf: output.bytes[start...])
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// Builds an object.
    @_spi(Tooling) public static func object(_ build: (inout Object) -> Void) -> String {
        buildObject(build).text
    }

    /// Builds an object, to write with ``Object/write(to:)``.
    @_spi(Tooling) public static func buildObject(_ build: (inout Object) -> Void) -> Object {
        var object = Object()
        build(&object)
        return object
    }
}

/// JSON as UTF-8 bytes, appended in place: what ``JSONText`` writes into.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(256)
    }

    /// JSON written on at the end of `buffer`, which is left empty until ``give(to:)``.
    init(taking buffer: inout [UInt8]) {
        swap(&bytes, &buffer)
    }

    /// Hands the bytes to `buffer`, leaving these empty.
    mutating func give(to buffer: inout [UInt8]) {
        buffer = []
        swap(&bytes, &buffer)
    }

    mutating func append(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    /// The bytes as a string (they are UTF-8 by construction).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(ascii character: Unicode.Scalar) {
        bytes.append(UInt8(ascii: character))
    }

    /// Appends text that is already JSON.
    mutating func append(verbatim text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends an integer's decimal digits.
    mutating func append(integer value: Int64) {
        DecimalText.append(value, to: &bytes)
    }

    /// Appends a name known to need no escape (``JSONText/Key``) in quotes.
    mutating func append(plainLiteral name: StaticString) {
        bytes.append(0x22)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
    }

    /// Whether `name` is printable ASCII with no `"` or backslash: a JSON string as it is.
    static func isPlain(_ name: StaticString) -> Bool {
        name.withUTF8Buffer { text in !text.contains(where: needsEscape) }
    }

    /// Whether a byte of UTF-8 text cannot stand as it is in a JSON string: `"`, a backslash, a
    /// control character, or any byte of a character beyond ASCII (written by the slow path,
    /// which escapes the controls among them).
    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        // Below 0x20 or from 0x7F up wraps to 0x5F or more: one comparison for both.
        byte &- 0x20 >= 0x5F || byte == 0x22 || byte == 0x5C
    }

    /// Appends `value` as a JSON string literal.
    mutating func append(string value: String) {
        // The usual case, printable ASCII with nothing to escape: checked and copied in one visit
        // of the string's storage.
        var value = value
        let plain = value.withUTF8 { text in
            for byte in text where Self.needsEscape(byte) { return false }
            bytes.append(0x22)
            bytes.append(contentsOf: text)
            bytes.append(0x22)
            return true
        }
        if plain { return }
        bytes.append(0x22)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": append(verbatim: "\\\"")
            case "\\": append(verbatim: "\\\\")
            case "\n": append(verbatim: "\\n")
            case "\r": append(verbatim: "\\r")
            case "\t": append(verbatim: "\\t")
            // Every character a terminal could act on, bidirectional controls included, as a JSON
            // escape: the text stays the same to a JSON reader and inert to a terminal.
            case _ where VisibleText.isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                append(verbatim: "\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default:
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        bytes.append(0x22)
    }

    /// Appends a state value (see ``JSONText/value(_:)``).
    mutating func append(value: StateValue) {
        switch value {
        case .null: append(verbatim: "null")
        case .bool(let flag): append(verbatim: flag ? "true" : "false")
        case .integer(let number): append(integer: number)
        case .unsignedInteger(let number): append(verbatim: String(number))
        case .floatingPoint(let number):
            // JSON has no NaN or infinity: they are written as the strings protobuf's JSON
            // mapping uses, "NaN", "Infinity" and "-Infinity"; -0.0 stays -0.0.
            if number.isFinite {
                append(verbatim: number.description)
            } else {
                append(string: number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity")
            }
        case .string(let text): append(string: text)
        case .array(let elements):
            append(ascii: "[")
            var first = true
            for element in elements {
                if !first { append(ascii: ",") }
                first = false
                append(value: element)
            }
            append(ascii: "]")
        case .object(let fields):
            append(ascii: "{")
            var first = true
            for (key, value) in fields {
                if !first { append(ascii: ",") }
                first = false
                // A field of the state whose name starts with `$` gets one more, so that no
                // object of the app's reads as an opaque leaf's `{"$opaque": …}`. (Its first byte
                // is checked: `hasPrefix` compares as Unicode text, and a state has many keys.)
                append(string: key.utf8.first == UInt8(ascii: "$") ? "$" + key : key)
                append(ascii: ":")
                append(value: value)
            }
            append(ascii: "}")
        case .opaque(let leaf):
            append(verbatim: "{\"$opaque\":")
            append(string: leaf.typeName)
            append(verbatim: ",\"summary\":")
            append(string: leaf.text)
            append(ascii: "}")
        }
    }
}
