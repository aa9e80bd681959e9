/// Writes JSON text directly — field order as given, no intermediate `Any` — for the command line's
/// `--json` output and exports, where a million events must stream out quickly and identically
/// from one run to the next.
public enum JSONText {
    /// A JSON string literal, with every control character escaped.
    public static func string(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            // Every character a terminal could act on, bidirectional controls included, as a JSON
            // escape: the text stays the same to a JSON reader and inert to a terminal.
            case _ where VisibleText.isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A state value as JSON: objects keep their field order; opaque leaves become
    /// `{"$opaque": type, "summary": text}`; non-finite numbers become strings.
    public static func value(_ value: StateValue) -> String {
        var output = ""
        write(value, into: &output)
        return output
    }

    static func write(_ value: StateValue, into output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += String(number)
        case .unsignedInteger(let number): output += String(number)
        case .floatingPoint(let number):
            output += number.isFinite ? number.description : string(number.description)
        case .string(let text): output += string(text)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, into: &output)
            }
            output += "]"
        case .object(let fields):
            output += "{"
            for (index, field) in fields.enumerated() {
                if index > 0 { output += "," }
                output += string(field.key) + ":"
                write(field.value, into: &output)
            }
            output += "}"
        case .opaque(let leaf):
            output += "{\"$opaque\":" + string(leaf.typeName) + ",\"summary\":" + string(leaf.summary) + "}"
        }
    }

    /// An object built field by field: `JSONText.object { $0.field("seq", 3) }`.
    public struct Object {
        var parts: [String] = []

        /// Adds a field whose value is already JSON text.
        public mutating func raw(_ key: String, _ json: String) {
            parts.append(JSONText.string(key) + ":" + json)
        }

        /// Adds a string field.
        public mutating func field(_ key: String, _ value: String) { raw(key, JSONText.string(value)) }
        /// Adds an integer field.
        public mutating func field(_ key: String, _ value: some BinaryInteger) { raw(key, String(value)) }
        /// Adds a Boolean field.
        public mutating func field(_ key: String, _ value: Bool) { raw(key, value ? "true" : "false") }
        /// Adds a state value field.
        public mutating func field(_ key: String, _ value: StateValue) { raw(key, JSONText.value(value)) }
        /// Adds a field that is `null` when the value is missing.
        public mutating func field(_ key: String, _ value: String?) { raw(key, value.map(JSONText.string) ?? "null") }
        /// Adds a field that is `null` when the value is missing.
        public mutating func field(_ key: String, _ value: UInt64?) { raw(key, value.map { String($0) } ?? "null") }

        /// The object's text.
        public var text: String { "{" + parts.joined(separator: ",") + "}" }
    }

    /// Builds an object.
    public static func object(_ build: (inout Object) -> Void) -> String {
        var object = Object()
        build(&object)
        return object.text
    }
}
