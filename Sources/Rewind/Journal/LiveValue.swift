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
                guard let child = Mirror(reflecting: unwrapped).children.first(where: { $0.label == key }) else { return nil }
                current = child.value
            case .index(let index):
                guard let elements = unwrapped as? any LiveElements, index >= 0, index < elements.elementCount else { return nil }
                current = elements.element(at: index)
            }
        }
        return unwrapped(current)
    }

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
