import Foundation

/// A key path that can follow a list element by its `id` rather than its index — `items[id: 3].done`
/// — so that blame keeps to the same item when items are inserted or removed before it. The one
/// path type of blame, in the viewer and on the command line (`rewind blame FILE 'items[id: 3].done'`).
///
/// ```swift
/// let path = try FollowedPath(parsing: "items[id: 3].done")
/// path.value(in: state)   // the `done` of the item whose `id` is 3, wherever it is in the list
/// ```
package struct FollowedPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of the path.
    package enum Component: Sendable, Hashable {
        /// A field.
        case key(String)
        /// A list element by position.
        case index(Int)
        /// The list element whose `id` field is `id` (`index` is where it was when chosen).
        case element(id: StateValue, index: Int)
    }

    /// The steps, from the root.
    package let components: [Component]

    /// A path of fields and positions only.
    package init(_ path: StatePath) {
        components = path.components.map {
            switch $0 {
            case .key(let key): .key(key)
            case .index(let index): .index(index)
            }
        }
    }

    /// The path as selected in `state`: each index whose element has an `id` field becomes that id.
    package init(_ path: StatePath, in state: StateValue) {
        var components: [Component] = []
        var current: StateValue? = state
        for component in path.components {
            switch component {
            case .key(let key):
                components.append(.key(key))
            case .index(let index):
                if case .object(let fields)? = current?[component], let id = fields["id"] {
                    components.append(.element(id: id, index: index))
                } else {
                    components.append(.index(index))
                }
            }
            current = current?[component]
        }
        self.components = components
    }

    init(components: [Component]) {
        self.components = components
    }

    /// Reads a path as the viewer prints it: `items[id: 3].done`, `items[id: "a-1"].title`, as well
    /// as everything ``StatePath/init(parsing:)`` reads (`items[3].done`, `user.name`).
    package init(parsing text: String) throws(StatePathSyntaxError) {
        var components: [Component] = []
        var rest = Substring(text)
        var consumed = 0
        while let marker = rest.range(of: "[id:") {
            let before = String(rest[..<marker.lowerBound])
            components += try Self.plain(before, in: text, at: consumed).components
            guard let close = rest[marker.upperBound...].firstIndex(of: "]") else {
                throw StatePathSyntaxError(text: text, offset: consumed + rest.distance(from: rest.startIndex, to: marker.lowerBound), reason: "expected ] after the id")
            }
            let literal = rest[marker.upperBound..<close].trimmingCharacters(in: .whitespaces)
            guard let id = Self.idValue(literal) else {
                throw StatePathSyntaxError(text: text, offset: consumed + rest.distance(from: rest.startIndex, to: marker.upperBound), reason: "expected an id: a number, true, false or a quoted string")
            }
            components.append(.element(id: id, index: 0))
            consumed += rest.distance(from: rest.startIndex, to: close) + 1
            rest = rest[rest.index(after: close)...]
        }
        components += try Self.plain(String(rest), in: text, at: consumed).components
        self.init(components: components)
    }

    private static func plain(_ part: String, in text: String, at offset: Int) throws(StatePathSyntaxError) -> FollowedPath {
        guard !part.isEmpty else { return FollowedPath(components: []) }
        do {
            return FollowedPath(try StatePath(parsing: part))
        } catch {
            throw StatePathSyntaxError(text: text, offset: offset + error.offset, reason: error.reason)
        }
    }

    private static func idValue(_ literal: String) -> StateValue? {
        if literal == "true" { return .bool(true) }
        if literal == "false" { return .bool(false) }
        if let integer = Int64(literal) { return .integer(integer) }
        if let number = Double(literal) { return .floatingPoint(number) }
        guard literal.count >= 2, literal.hasPrefix("\""), literal.hasSuffix("\"") else { return nil }
        var text = ""
        var escaping = false
        for character in literal.dropFirst().dropLast() {
            if escaping || character != "\\" { text.append(character); escaping = false } else { escaping = true }
        }
        return .string(text)
    }

    /// The path with positions only, when it follows no element by id.
    package var statePath: StatePath? {
        var result: [StatePath.Component] = []
        for component in components {
            switch component {
            case .key(let key): result.append(.key(key))
            case .index(let index): result.append(.index(index))
            case .element: return nil
            }
        }
        return StatePath(result)
    }

    /// The value the path leads to in `state`, finding elements by id.
    package func value(in state: StateValue) -> StateValue? {
        var current = state
        for component in components {
            switch component {
            case .key(let key):
                guard let next = current[.key(key)] else { return nil }
                current = next
            case .index(let index):
                guard let next = current[.index(index)] else { return nil }
                current = next
            case .element(let id, _):
                guard let next = Self.element(withID: id, in: current) else { return nil }
                current = next
            }
        }
        return current
    }

    /// The element of the list `list` whose `id` field is `id`.
    static func element(withID id: StateValue, in list: StateValue) -> StateValue? {
        guard case .array(let elements) = list else { return nil }
        return elements.first { if case .object(let fields) = $0 { fields["id"] == id } else { false } }
    }

    /// `items[id: 3].done` for a followed element, `items[1].done` otherwise.
    package var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? StateValue.displayKey(key) : "." + StateValue.displayKey(key)
            case .index(let index): text += "[\(index)]"
            case .element(let id, _): text += "[id: \(id.compactDescription(limit: 20))]"
            }
        }
        return text.isEmpty ? "the state" : text
    }

    /// Two paths are the same when they lead to the same place: where a followed element was
    /// when it was chosen does not matter.
    package static func == (left: FollowedPath, right: FollowedPath) -> Bool {
        left.placeKey == right.placeKey
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(placeKey)
    }

    private var placeKey: [Component] {
        components.map { if case .element(let id, _) = $0 { .element(id: id, index: 0) } else { $0 } }
    }
}
