extension Condition {
    /// A key path of a condition: a ``FollowedPath`` that may go over every element of a list (or
    /// every value of a dictionary) with `[*]` — `items[*].quantity`, `groups[*].members[*].name`.
    /// Without `[*]` it leads to one value (`.null` when missing); with it, to as many as there are.
    struct KeyPath: Sendable, Equatable {
        /// The plain paths between the wildcards: `items[*].quantity` is `items`, then `quantity`
        /// read in each element.
        let segments: [FollowedPath]

        var hasWildcard: Bool { segments.count > 1 }

        /// The path up to its first `[*]`, as a key path: what a `count(…)` over it counts the
        /// elements of.
        var firstContainer: FollowedPath { segments[0] }

        /// The same path read from the elements its first `[*]` goes over.
        var insideFirstWildcard: KeyPath { KeyPath(segments: Array(segments.dropFirst())) }

        /// Reads `items[*].quantity`, `items[id: 3].done`, `matrix[*][0]`, `items[*]`.
        init(parsing text: String) throws(StatePathSyntaxError) {
            var segments: [FollowedPath] = []
            var start = text.startIndex, offset = 0
            for wildcard in Self.wildcards(in: text) {
                segments.append(try Self.segment(String(text[start..<wildcard.lowerBound]), in: text, at: offset, first: segments.isEmpty))
                offset += text.distance(from: start, to: wildcard.upperBound)
                start = wildcard.upperBound
            }
            segments.append(try Self.segment(String(text[start...]), in: text, at: offset, first: segments.isEmpty))
            self.segments = segments
        }

        init(segments: [FollowedPath]) {
            self.segments = segments
        }

        /// The values the path leads to in `state`: one for a plain path (`.null` when it is
        /// missing), each element's for a path with `[*]` (`.null` for an element without it).
        func values(in state: StateValue?) -> [StateValue] {
            guard hasWildcard else { return [segments[0].lookUp(in: state)] }
            return Self.values(segments[...], in: state)
        }

        private static func values(_ segments: ArraySlice<FollowedPath>, in state: StateValue?) -> [StateValue] {
            guard let first = segments.first else { return [] }
            // A missing field of an element is nil, as a missing path is.
            if segments.count == 1 { return [first.lookUp(in: state)] }
            return elements(of: first.lookUp(in: state)).flatMap { values(segments.dropFirst(), in: $0) }
        }

        /// What `[*]` goes over: a list's elements, a dictionary's values (in key order).
        static func elements(of container: StateValue) -> [StateValue] {
            switch container {
            case .array(let elements): elements
            case .object(let fields): fields.keys.sorted().compactMap { fields[$0] }
            default: []
            }
        }

        /// `items[*]` markers outside brackets' quotes, in order.
        private static func wildcards(in text: String) -> [Range<String.Index>] {
            var found: [Range<String.Index>] = []
            var index = text.startIndex, inQuotes = false
            while index < text.endIndex {
                let character = text[index]
                if inQuotes {
                    if character == "\\" { index = text.index(after: index) } else if character == "\"" { inQuotes = false }
                } else if character == "\"" {
                    inQuotes = true
                } else if text[index...].hasPrefix("[*]") {
                    let end = text.index(index, offsetBy: 3)
                    found.append(index..<end)
                    index = end
                    continue
                }
                if index < text.endIndex { index = text.index(after: index) }
            }
            return found
        }

        private static func segment(_ part: String, in text: String, at offset: Int, first: Bool) throws(StatePathSyntaxError) -> FollowedPath {
            if first, part.isEmpty { throw StatePathSyntaxError(text: text, offset: offset, reason: "expected a field before [*]") }
            if !first, let next = part.first, next != ".", next != "[" {
                throw StatePathSyntaxError(text: text, offset: offset, reason: "expected . or [ after [*]")
            }
            do {
                return try FollowedPath(parsing: part)
            } catch {
                throw StatePathSyntaxError(text: text, offset: offset + error.offset, reason: error.reason)
            }
        }
    }
}

extension Condition.KeyPath: CustomStringConvertible {
    var description: String {
        segments.enumerated().map { index, segment in
            let text = segment.description
            return index == 0 || text.isEmpty || text.hasPrefix("[") ? text : "." + text
        }.joined(separator: "[*]")
    }
}
