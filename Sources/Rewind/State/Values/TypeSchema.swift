/// The shape of a unit's state type, as a journal records it when the unit is created and a replay
/// compares it with today's build: the type's name, and each field's path and type, nested structs'
/// fields under their path.
///
/// ```swift
/// TypeSchema(of: Cart.State()).description
/// // Cart.State
/// // lines: Array<String>
/// // quantity: Int
/// ```
///
/// It is read from an instance (Swift cannot list a type's fields without one), so an optional or
/// enum field shows its type, and its insides only as far as that instance has them. Collections show
/// their type (`Array<Line>`), not their elements' fields.
public struct TypeSchema: Sendable, Equatable, CustomStringConvertible {
    /// One field: its path from the state's root (`info.title`) and its type (`Optional<String>`).
    package struct Field: Sendable, Equatable {
        /// Where the field is, from the state's root: `info.title`.
        package var path: String
        /// Its type, as Swift names it without the module: `Optional<String>`, `Cart.Line`.
        package var type: String
    }

    /// The state's type (empty for a unit whose state is its observed properties).
    package var typeName: String
    /// The fields, outermost first, in declaration order.
    package var fields: [Field]

    /// How deep nested structs are followed, and how many fields are listed at most: a schema
    /// describes a type, it is not a second capture of the state.
    static let maximumDepth = 6
    static let maximumFields = 400

    /// The schema of `value`'s type.
    public init(of value: Any) {
        fields = []
        if let observed = value as? StateFields {
            typeName = ""
            for (name, field) in observed.fields { add(name, field, depth: 1) }
        } else {
            typeName = TypeName.short(type(of: value))
            addChildren(of: value, under: "", depth: 1)
        }
    }

    private mutating func addChildren(of value: Any, under prefix: String, depth: Int) {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .struct || mirror.displayStyle == .class, depth <= Self.maximumDepth else { return }
        for child in mirror.children {
            guard var label = child.label else { continue }
            // A property wrapper's storage is `_name`; the field is `name`.
            if child.value is PropertyWrapperStorage, label.hasPrefix("_") { label.removeFirst() }
            add(prefix.isEmpty ? label : prefix + "." + label, child.value, depth: depth)
        }
    }

    private mutating func add(_ path: String, _ value: Any, depth: Int) {
        guard fields.count < Self.maximumFields else { return }
        fields.append(Field(path: path, type: TypeName.short(type(of: value))))
        addChildren(of: value, under: path, depth: depth + 1)
    }

    // MARK: The recorded form

    /// The first line of the recorded form, which tells a schema from any other description.
    static let marker = "rewind-schema 1"

    /// The text a journal records in a unit's `created` event (its description): the marker line,
    /// the type's name, then a `path: Type` line per field.
    package var recordedText: String {
        ([Self.marker, typeName] + fields.map { "\($0.path): \($0.type)" }).joined(separator: "\n")
    }

    /// The schema a `created` event's description records; `nil` for any other text.
    package init?(recorded text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.first == Substring(Self.marker), lines.count >= 2 else { return nil }
        lines.removeFirst()
        typeName = String(lines.removeFirst())
        fields = []
        for line in lines {
            guard let separator = line.range(of: ": ") else { return nil }
            fields.append(Field(path: String(line[..<separator.lowerBound]), type: String(line[separator.upperBound...])))
        }
    }

    /// The type's name, then `path: Type` per field.
    public var description: String {
        ([typeName] + fields.map { "\($0.path): \($0.type)" }).joined(separator: "\n")
    }

    // MARK: Comparing

    /// What changed from this (recorded) schema to `today`'s: fields added, removed, or of another
    /// type, each once at its outermost path (`Cart.State.lines: added (Array<String>)`). The state
    /// type's own name is not compared: a renamed type decodes as before.
    package func changes(to today: TypeSchema) -> [SchemaProblem] {
        let recordedTypes = Dictionary(fields.map { ($0.path, $0.type) }, uniquingKeysWith: { first, _ in first })
        let todayTypes = Dictionary(today.fields.map { ($0.path, $0.type) }, uniquingKeysWith: { first, _ in first })
        var problems: [SchemaProblem] = []
        var reported: [String] = []
        func isInsideReported(_ path: String) -> Bool {
            reported.contains { path.hasPrefix($0 + ".") }
        }
        let owner = today.typeName.isEmpty ? typeName : today.typeName
        for field in fields where !isInsideReported(field.path) {
            if let type = todayTypes[field.path] {
                guard type != field.type else { continue }
                problems.append(SchemaProblem(path: field.path, reason: "\(field.type) → \(type)", typeName: owner))
            } else {
                problems.append(SchemaProblem(path: field.path, reason: "removed (was \(field.type))", typeName: owner))
            }
            reported.append(field.path)
        }
        for field in today.fields where recordedTypes[field.path] == nil && !isInsideReported(field.path) {
            problems.append(SchemaProblem(path: field.path, reason: "added (\(field.type))", typeName: owner))
            reported.append(field.path)
        }
        return problems
    }
}
