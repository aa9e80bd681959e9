@_spi(Reflection) import Swift

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

    /// A stored property's value, by name: through the key path the standard library's
    /// reflection gives for the type's field (looked up once per type and name), since a `Mirror`
    /// resolves every child's type by its mangled name on each reading (measured: about 19,000
    /// instructions per field read on the todo workload's writer, against a few hundred). Types
    /// it does not describe (classes, enums) and types that reflect themselves are read through
    /// a `Mirror`.
    private static func field(_ name: String, of value: Any) -> Any? {
        let type = type(of: value)
        let key = FieldKey(type: ObjectIdentifier(type), name: name)
        let known = fieldKeyPaths.withLock { $0[key] }
        let keyPath: AnyKeyPath?
        if let known {
            keyPath = known
        } else {
            // A type that reflects itself (a `Secret`, which hides what it holds) is read as its
            // `Mirror` shows it, as every capture reads it.
            keyPath = value is CustomReflectable ? nil : _openExistential(type, do: storedFields).keyPath(named: name)
            fieldKeyPaths.withLock { paths in
                if paths.count < 4_096 { paths[key] = .some(keyPath) }
            }
        }
        if let keyPath { return value[keyPath: keyPath] }
        return Mirror(reflecting: value).children.first { $0.label == name }?.value
    }

    private struct FieldKey: Hashable {
        let type: ObjectIdentifier
        let name: String
    }

    /// Each type's stored property of a name, as a key path; `nil` where reflection gave none.
    private static let fieldKeyPaths = Locked<[FieldKey: AnyKeyPath?]>([:])

    /// The value inside an optional (`nil` for none); any other value as it is.
    private static func unwrapped(_ value: Any) -> Any? {
        let dynamicType = Swift.type(of: value)
        let type = ObjectIdentifier(dynamicType)
        // Most values met are not optionals, and a cast that fails costs a conformance lookup
        // (thousands of instructions on the todo workload's writer); the type's answer is kept.
        if nonOptionalTypes.withLock({ $0.contains(type) }) { return value }
        guard let optional = value as? any OptionalValue else {
            // Only a type whose every value answers alike: a cast looks inside an `AnyHashable`
            // and a class's bridging box, so one of those may hold an optional the next time.
            if dynamicType != AnyHashable.self, !(dynamicType is AnyObject.Type) {
                nonOptionalTypes.withLock { types in
                    if types.count < 4_096 { types.insert(type) }
                }
            }
            return value
        }
        return optional.wrappedValue.flatMap(unwrapped)
    }

    /// Types a value was found not to be an optional of.
    private static let nonOptionalTypes = Locked<Set<ObjectIdentifier>>([])
}

/// An optional seen through `Any` (a cast is far cheaper than a `Mirror`).
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { map { $0 } }
}

/// A type's stored properties as key paths, from the standard library's reflection.
private protocol StoredFieldLookUp {
    static func keyPath(named name: String) -> AnyKeyPath?
}

private enum StoredFields<Root>: StoredFieldLookUp {
    static func keyPath(named name: String) -> AnyKeyPath? {
        var found: AnyKeyPath?
        _ = _forEachFieldWithKeyPath(of: Root.self, options: []) { field, keyPath in
            guard String(cString: field) == name else { return true }
            found = keyPath
            return false
        }
        return found
    }
}

/// Opens a metatype seen as `Any.Type` (a top-level function: `_openExistential` with a local
/// generic closure crashes the 6.3 compiler).
private func storedFields<T>(_: T.Type) -> any StoredFieldLookUp.Type { StoredFields<T>.self }
