extension StateValue: CustomStringConvertible {
    /// The value on one line: `{count: 3, items: [1, 2]}`, strings quoted, control characters visible.
    public var description: String {
        compactDescription(limit: .max)
    }

    /// The value on one line, cut with `…` after about `limit` characters. Linear in what it
    /// writes: under a limit the characters are counted as they are added, never by recounting
    /// the text.
    package func compactDescription(limit: Int) -> String {
        var bytes: [UInt8] = []
        writeCompact(limit: limit, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``compactDescription(limit:)``'s text to `bytes` as UTF-8, no string made on the
    /// way unless the value is cut: what `rewind log` writes millions of.
    package func writeCompact(limit: Int = .max, to bytes: inout [UInt8]) {
        let start = bytes.count
        var output = CompactText(limit: limit, taking: &bytes)
        writeCompact(into: &output)
        output.give(to: &bytes)
        guard output.count > limit else { return }
        let text = String(decoding: bytes[start...], as: UTF8.self)
        bytes.removeSubrange(start...)
        bytes += (String(text.prefix(max(limit - 1, 0))) + "…").utf8
    }

    /// Text being written as UTF-8, with its length in characters kept as it grows (only when
    /// there is a limit to keep it to).
    private struct CompactText {
        let limit: Int
        var bytes: [UInt8] = []
        var count = 0

        init(limit: Int, taking buffer: inout [UInt8]) {
            self.limit = limit
            swap(&bytes, &buffer)
        }

        mutating func give(to buffer: inout [UInt8]) {
            swap(&bytes, &buffer)
        }

        var isFull: Bool { count > limit }

        mutating func append(_ piece: String) {
            bytes += piece.utf8
            if limit != .max { count += piece.count }
        }

        mutating func append(ascii piece: StaticString) {
            piece.withUTF8Buffer {
                bytes += $0
                count += $0.count
            }
        }

        /// A field's name and the `: ` after it, counted together as the text they make: a
        /// name may end in a letter that joins the colon into one character.
        mutating func append(key: String) {
            bytes += key.utf8
            bytes += ": ".utf8
            if limit != .max { count += (key + ": ").count }
        }

        mutating func append(integer value: Int64) {
            let before = bytes.count
            DecimalText.append(value, to: &bytes)
            count += bytes.count - before
        }
    }

    private func writeCompact(into output: inout CompactText) {
        guard !output.isFull else { return }
        switch self {
        case .array(let elements):
            output.append(ascii: "[")
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(ascii: ", ") }
                element.writeCompact(into: &output)
                if output.isFull { return }
            }
            output.append(ascii: "]")
        case .object(let fields):
            output.append(ascii: "{")
            for (index, field) in fields.enumerated() {
                if index > 0 { output.append(ascii: ", ") }
                output.append(key: Self.displayKey(field.key))
                field.value.writeCompact(into: &output)
                if output.isFull { return }
            }
            output.append(ascii: "}")
        case .integer(let value):
            output.append(integer: value)
        case .bool(let value):
            output.append(ascii: value ? "true" : "false")
        default:
            output.append(scalarDescription)
        }
    }

    /// A leaf as text; containers as `[…]` / `{…}` with their size.
    package var scalarDescription: String {
        switch self {
        case .null: "nil"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .unsignedInteger(let value): String(value)
        case .floatingPoint(let value): Self.formatNumber(value)
        case .string(let value): VisibleText.quoted(value)
        case .array(let elements): "[\(elements.count) items]"
        case .object(let fields): "{\(fields.count) fields}"
        case .opaque(let leaf): "\(VisibleText.escaped(leaf.text)) (\(VisibleText.escaped(leaf.typeName)))"
        }
    }

    /// The value as an indented tree, one field or element per line, for `rewind show` and the
    /// console logger.
    package func indentedDescription(indent: String = "  ") -> String {
        var lines: [String] = []
        writeIndented(into: &lines, prefix: "", depth: 0, indent: indent)
        return lines.joined(separator: "\n")
    }

    private func writeIndented(into lines: inout [String], prefix: String, depth: Int, indent: String) {
        let padding = String(repeating: indent, count: depth)
        switch self {
        case .object(let fields) where !fields.isEmpty:
            lines.append(padding + prefix + "{")
            for (key, value) in fields {
                value.writeIndented(into: &lines, prefix: Self.displayKey(key) + ": ", depth: depth + 1, indent: indent)
            }
            lines.append(padding + "}")
        case .array(let elements) where !elements.isEmpty:
            lines.append(padding + prefix + "[")
            for element in elements {
                element.writeIndented(into: &lines, prefix: "", depth: depth + 1, indent: indent)
            }
            lines.append(padding + "]")
        case .object:
            lines.append(padding + prefix + "{}")
        case .array:
            lines.append(padding + prefix + "[]")
        default:
            lines.append(padding + prefix + scalarDescription)
        }
    }

    /// A field name as shown: bare when it is an identifier, quoted otherwise.
    package static func displayKey(_ key: String) -> String {
        StatePath.isPlainIdentifier(key) ? key : VisibleText.quoted(key)
    }

    /// Numbers without a needless `.0` tail are integers in JSON; keep the `.0` so a reader sees a
    /// floating-point value.
    static func formatNumber(_ value: Double) -> String {
        value.description
    }
}
