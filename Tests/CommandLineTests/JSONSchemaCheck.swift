import Foundation

/// A JSON value read strictly, with Booleans, integers and other numbers told apart.
indirect enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    static func parse(_ text: some StringProtocol) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// Checks a value against the part of JSON Schema (2020-12) that `docs/schemas/` uses: `type`,
/// `enum`, `const`, `properties`, `required`, `additionalProperties: false`, `items`, `minimum`
/// and `$ref` into `$defs`. Every other keyword is an annotation and is ignored, as the
/// specification says.
struct JSONSchemaCheck {
    let root: JSONValue

    init(file: String) throws {
        root = try JSONValue.parse(try String(contentsOfFile: file, encoding: .utf8))
    }

    /// What does not conform, one line each with its place (`$.damage[0].reason`); empty when it conforms.
    func problems(_ value: JSONValue) -> [String] {
        problems(value, root, at: "$")
    }

    private func problems(_ value: JSONValue, _ schema: JSONValue, at place: String) -> [String] {
        guard case .object(let keywords) = schema else { return [] }
        if case .string(let reference)? = keywords["$ref"] {
            let name = String(reference.dropFirst("#/$defs/".count))
            guard case .object(let root) = root, case .object(let definitions)? = root["$defs"], let target = definitions[name] else {
                return ["\(place): unknown $ref \(reference)"]
            }
            return problems(value, target, at: place)
        }
        var found: [String] = []
        if let type = keywords["type"] {
            let allowed: [String] = switch type {
            case .string(let name): [name]
            case .array(let names): names.compactMap { if case .string(let name) = $0 { name } else { nil } }
            default: []
            }
            let actual = value.typeName
            if !allowed.contains(actual) && !(actual == "integer" && allowed.contains("number")) {
                found.append("\(place): \(actual), expected \(allowed.joined(separator: " or "))")
            }
        }
        if case .array(let options)? = keywords["enum"], !options.contains(value) { found.append("\(place): not one of the allowed values") }
        if let constant = keywords["const"], constant != value { found.append("\(place): not the constant the schema fixes") }
        if case .integer(let minimum)? = keywords["minimum"], case .integer(let number) = value, number < minimum {
            found.append("\(place): \(number) is below \(minimum)")
        }
        if case .object(let fields) = value {
            let properties: [String: JSONValue] = if case .object(let properties)? = keywords["properties"] { properties } else { [:] }
            if case .array(let required)? = keywords["required"] {
                for case .string(let name) in required where fields[name] == nil { found.append("\(place): missing \(name)") }
            }
            for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
                if let property = properties[name] {
                    found += problems(field, property, at: "\(place).\(name)")
                } else if keywords["additionalProperties"] == .bool(false) {
                    found.append("\(place): \(name) is not in the schema")
                }
            }
        }
        if case .array(let elements) = value, let items = keywords["items"] {
            for (index, element) in elements.enumerated() { found += problems(element, items, at: "\(place)[\(index)]") }
        }
        return found
    }
}
