/// A location inside a ``StateValue`` tree, written the way a Swift developer reads it:
/// `items[3].done`, `user.name`, `settings["dark mode"]`.
///
/// ```swift
/// let path = try StatePath(parsing: "items[3].done")
/// path.components // [.key("items"), .index(3), .key("done")]
/// path.description // "items[3].done"
/// ```
public struct StatePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step into a tree: an object field or an array element.
    public enum Component: Hashable, Sendable {
        /// A field of an object.
        case key(String)
        /// An element of an array.
        case index(Int)
    }

    /// The steps from the root, outermost first.
    public var components: [Component]

    /// Creates a path from its steps.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// Creates a path from its steps.
    public init(arrayLiteral elements: Component...) {
        self.components = elements
    }

    /// The path of the root itself.
    public static let root = StatePath()

    /// Whether this is the root path.
    public var isRoot: Bool { components.isEmpty }

    /// This path extended by one step.
    public func appending(_ component: Component) -> StatePath {
        StatePath(components + [component])
    }

    /// The path without its last step, or `nil` for the root.
    public var parent: StatePath? {
        isRoot ? nil : StatePath(Array(components.dropLast()))
    }

    /// Whether `other` is this path or lies below it.
    public func isPrefix(of other: StatePath) -> Bool {
        other.components.starts(with: components)
    }

    /// The path in `items[3].done` form; the root is the empty string.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isPlainIdentifier(key):
                text += text.isEmpty ? key : ".\(key)"
            case .key(let key):
                text += "[\"\(key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"]"
            }
        }
        return text
    }

    static func isPlainIdentifier(_ key: String) -> Bool {
        // ASCII names (most) are told by their bytes: a scalar's Unicode properties are a table
        // lookup each, and writers and readers print a path at every change.
        var isFirst = true
        for byte in key.utf8 {
            guard byte < 0x80 else { return isPlainUnicodeIdentifier(key) }
            let isDigit = (0x30...0x39).contains(byte)
            let isLetter = (0x61...0x7A).contains(byte | 0x20)
            guard isLetter || byte == 0x5F || (isDigit && !isFirst) else { return false }
            isFirst = false
        }
        return !isFirst
    }

    private static func isPlainUnicodeIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

extension StatePath {
    /// The path a change event recorded (``ChangedPath/description``), when it names a place in the
    /// state: `count`, `inner.name`, `opt?.name`, `opt!.name` (optionals are looked through). `nil` when
    /// the recording could not name it (`items[…].done`: Linux prints subscript key paths without
    /// their index).
    package init?(recordedChange text: String) {
        // Most recorded paths are fields named in ASCII and list positions (`count`,
        // `inner.name`, `items[33].done`): read at once, since readers parse the path of every
        // change they fold.
        if let components = Self.asciiComponents(text) {
            self.init(components)
            return
        }
        guard !text.unicodeScalars.contains("…") else { return nil }
        guard let parsed = try? StatePath(parsing: Self.lookingThroughOptionals(text)) else { return nil }
        self = parsed
    }

    /// The components of `a.b[3].c` when every name is an ASCII identifier (a letter or `_`,
    /// then letters, digits or `_`) and every index up to 18 digits: what the parser reads from
    /// it. `nil` for anything else, which the parser reads (a test holds the two equal).
    static func asciiComponents(_ text: String) -> [Component]? {
        var components: [Component] = []
        let utf8 = text.utf8
        var index = utf8.startIndex
        // What may come next: a name (at the start and after `.`), or `.`, `[` or the end.
        var expectsName = true
        while index < utf8.endIndex {
            let byte = utf8[index]
            if expectsName {
                let start = index
                while index < utf8.endIndex, Self.isNameByte(utf8[index], first: index == start) { index = utf8.index(after: index) }
                guard index > start else { return nil }
                components.append(.key(String(Substring(utf8[start..<index]))))
                expectsName = false
            } else if byte == UInt8(ascii: ".") {
                index = utf8.index(after: index)
                expectsName = true
                guard index < utf8.endIndex else { return nil }
            } else if byte == UInt8(ascii: "[") {
                index = utf8.index(after: index)
                var value = 0, digits = 0
                while index < utf8.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[index]) {
                    value = value * 10 + Int(utf8[index] - UInt8(ascii: "0"))
                    digits += 1
                    index = utf8.index(after: index)
                }
                guard (1...18).contains(digits), index < utf8.endIndex, utf8[index] == UInt8(ascii: "]") else { return nil }
                index = utf8.index(after: index)
                components.append(.index(value))
            } else {
                return nil
            }
        }
        return components.isEmpty ? nil : components
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"): !first
        default: false
        }
    }

    /// A recorded path without its optional chaining and force-unwrapping marks: a captured tree
    /// holds an optional's value in its place, so `opt?.name` and `opt!.name` are `opt.name` there.
    static func lookingThroughOptionals(_ text: some StringProtocol) -> String {
        // Told by bytes first: filtering goes character by character.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "!") }) else { return String(text) }
        return String(text.filter { $0 != "?" && $0 != "!" })
    }
}

/// Why a key path written by a user could not be read.
public struct StatePathSyntaxError: Error, Equatable, CustomStringConvertible {
    /// The text that was given.
    public var text: String
    /// The character offset where reading failed.
    public var offset: Int
    /// What was expected there.
    public var reason: String

    /// A one-line explanation with the position.
    public var description: String {
        "malformed key path '\(text)' at character \(offset + 1): \(reason) (write it like items[3].done or user.name)"
    }
}

extension StatePath {
    /// Reads a path written as `items[3].done`, `user.name` or `map["some key"]`. A leading `.` or
    /// `\Type.` (as in a Swift key path literal) is accepted and ignored.
    public init(parsing text: String) throws(StatePathSyntaxError) {
        var characters = Array(text)
        var position = 0
        func fail(_ reason: String) -> StatePathSyntaxError {
            StatePathSyntaxError(text: text, offset: position, reason: reason)
        }
        if characters.first == "\\" {
            // `\State.items[0]`: drop the root type, which a journal path never contains.
            guard let dot = characters.firstIndex(of: ".") else { throw fail("a key path literal needs a property after the type") }
            characters.removeSubrange(0...dot)
        } else if characters.first == "." {
            characters.removeFirst()
        }
        var components: [Component] = []
        var expectingKey = true
        while position < characters.count {
            let character = characters[position]
            if character == "[" {
                position += 1
                if position < characters.count, characters[position] == "\"" {
                    position += 1
                    var key = ""
                    while position < characters.count, characters[position] != "\"" {
                        if characters[position] == "\\", position + 1 < characters.count { position += 1 }
                        key.append(characters[position])
                        position += 1
                    }
                    guard position < characters.count else { throw fail("unterminated quoted key") }
                    position += 1
                    components.append(.key(key))
                } else {
                    var digits = ""
                    while position < characters.count, characters[position].isASCII, characters[position].isNumber {
                        digits.append(characters[position])
                        position += 1
                    }
                    guard let index = Int(digits) else { throw fail("expected an index such as [3]") }
                    components.append(.index(index))
                }
                guard position < characters.count, characters[position] == "]" else { throw fail("expected ]") }
                position += 1
                expectingKey = false
            } else if character == "." {
                guard !components.isEmpty, !expectingKey else { throw fail("unexpected .") }
                position += 1
                expectingKey = true
            } else {
                guard expectingKey || components.isEmpty else { throw fail("expected . or [ before a name") }
                var key = ""
                while position < characters.count, characters[position] != ".", characters[position] != "[" {
                    guard characters[position] != "]" else { throw fail("unexpected ]") }
                    key.append(characters[position])
                    position += 1
                }
                components.append(.key(key))
                expectingKey = false
            }
        }
        guard !expectingKey || components.isEmpty else { throw fail("the path ends with .") }
        if components.isEmpty && !text.isEmpty && text != "." { throw fail("empty path") }
        self.init(components)
    }
}
