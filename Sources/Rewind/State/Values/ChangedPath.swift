
/// The key path a change event is about, as a Swift key path (Cycler's `update(_:_:)`) or as the name
/// of a property (a Ricemill `@Published` store property, a Unio state relay, a Flask key).
///
/// Turning a key path into text is slow (it reads type metadata), so it is done only when someone
/// asks for ``description``, and remembered per key path.
public struct ChangedPath: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: key path objects are immutable once formed; AnyKeyPath is not marked Sendable only
    // because it is an open class.

    /// The Swift key path, when the change came from one.
    public let keyPath: AnyKeyPath?
    private let name: String?

    /// A change at a Swift key path.
    public init(_ keyPath: AnyKeyPath) {
        self.keyPath = keyPath
        self.name = nil
    }

    /// A change at a path written as text (`"count"`, `"info.nest.foo"`).
    public init(name: String) {
        self.keyPath = nil
        self.name = name
    }

    /// The path as text, relative to the state's root: `count`, `inner.name`, `opt?.name`.
    public var description: String {
        if let name { return name }
        guard let keyPath else { return "" }
        return KeyPathNames.name(of: keyPath)
    }
}

/// Remembers the text form of key paths.
enum KeyPathNames {
    /// A key path as a dictionary key. Unchecked: key path objects are immutable once formed.
    private struct Key: Hashable, @unchecked Sendable {
        let keyPath: AnyKeyPath
    }

    private static let cache = Locked<[Key: String]>([:])

    static func name(of keyPath: AnyKeyPath) -> String {
        let key = Key(keyPath: keyPath)
        if let known = cache.withLock({ $0[key] }) { return known }
        let name = Self.relativeName(String(describing: keyPath))
        cache.withLock { $0[key] = name }
        return name
    }

    /// `\State.inner.name` → `inner.name`. Subscripts and other computed properties (a property
    /// wrapper's `wrappedValue`) print as `<computed 0x… (Int)>` on Linux; they become `[…]` after a
    /// property and `…` at the root, since the name is not recoverable from the description.
    static func relativeName(_ description: String) -> String {
        var text = Substring(description)
        if text.hasPrefix("\\") { text = text.dropFirst() }
        // Skip the root type, which may contain generic arguments with dots inside angle brackets.
        var depth = 0
        var start = text.endIndex
        for index in text.indices {
            switch text[index] {
            case "<": depth += 1
            case ">": depth -= 1
            case "." where depth == 0:
                start = text.index(after: index)
            default: continue
            }
            if start != text.endIndex { break }
        }
        var relative = String(text[start...])
        while let open = relative.range(of: "<computed"), let close = relative[open.upperBound...].range(of: ")>") {
            let afterDot = open.lowerBound > relative.startIndex && relative[relative.index(before: open.lowerBound)] == "."
            let replaced = afterDot ? relative.index(before: open.lowerBound)..<close.upperBound : open.lowerBound..<close.upperBound
            relative.replaceSubrange(replaced, with: afterDot ? "[…]" : "…")
        }
        return relative
    }
}
