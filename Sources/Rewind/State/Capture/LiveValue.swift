/// Walks a live Swift value by a ``StatePath`` — fields by their property names, array elements by
/// index — without capturing it into a tree.
enum LiveValue {
    /// The value at `path` inside `root`, or `nil` when the path does not lead through stored
    /// properties and arrays (a renamed Codable key, a property wrapper, a dictionary).
    static func value(at path: StatePath, in root: Any) -> Any? {
        var current = root
        for component in path.components {
            guard let unwrapped = unwrapped(current) else { return nil }
            switch component {
            case .key(let key):
                guard let child = field(key, of: unwrapped) else { return nil }
                current = child
            case .index(let index):
                guard let elements = unwrapped as? any LiveElements, index >= 0, index < elements.elementCount else { return nil }
                current = elements.element(at: index)
            }
        }
        return unwrapped(current)
    }

    /// A stored property's value, by name. Reading a `Mirror` child resolves its type by name,
    /// which is slow; the child's position is remembered per type, so that only the child asked
    /// for is read, not those before it.
    private static func field(_ name: String, of value: Any) -> Any? {
        let children = Mirror(reflecting: value).children
        let key = FieldKey(type: ObjectIdentifier(type(of: value)), name: name)
        if let offset = fieldPositions.withLock({ $0[key] }), offset < children.count {
            let child = children[children.index(children.startIndex, offsetBy: offset)]
            if child.label == name { return child.value }
        }
        guard let offset = children.firstIndex(where: { $0.label == name }) else { return nil }
        fieldPositions.withLock { positions in
            if positions.count < 4_096 { positions[key] = children.distance(from: children.startIndex, to: offset) }
        }
        return children[offset].value
    }

    private struct FieldKey: Hashable {
        let type: ObjectIdentifier
        let name: String
    }

    /// Where each type's property of a name stands among its `Mirror` children.
    private static let fieldPositions = Locked<[FieldKey: Int]>([:])

    /// The value inside an optional (`nil` for none); any other value as it is.
    private static func unwrapped(_ value: Any) -> Any? {
        guard let optional = value as? any OptionalValue else { return value }
        return optional.wrappedValue.flatMap(unwrapped)
    }
}

/// An optional seen through `Any` (a cast is far cheaper than a `Mirror`).
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { map { $0 } }
}
