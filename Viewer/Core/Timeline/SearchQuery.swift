import Foundation
import Rewind

/// What `/` looks for: plain text (case-insensitive), or a regular expression when the query starts
/// with `~` (`/~count = [0-9]+`). An event matches when its row's words do: kind, name, source,
/// description, and what it carries (a change's `path = value`, an input, an activity), whole.
public struct SearchQuery: Sendable, Equatable {
    /// The query as typed.
    public let text: String
    /// The literal text, when the query is not a regular expression.
    let literal: String?
    private let expression: NSRegularExpressionBox?

    /// Reads a query; a malformed regular expression is an error with a one-line reason.
    public init(_ text: String) throws(SearchQueryError) {
        self.text = text
        if text.hasPrefix("~") {
            do {
                expression = NSRegularExpressionBox(try NSRegularExpression(pattern: String(text.dropFirst()), options: [.caseInsensitive]))
            } catch {
                throw SearchQueryError(description: "not a regular expression: \(VisibleText.escaped(String(text.dropFirst())))")
            }
            literal = nil
        } else {
            literal = text
            expression = nil
        }
    }

    /// The text of an event that a search looks at.
    static func haystack(_ event: RecordedEvent) -> String {
        [event.kind.rawValue, event.name, event.source.description, event.description, event.summary()].joined(separator: "\u{1F}")
    }

    /// Whether an event matches.
    public func matches(_ event: RecordedEvent) -> Bool {
        !ranges(in: Self.haystack(event), limit: 1).isEmpty
    }

    /// Where the query occurs in `text` (for highlighting), at most `limit` places.
    public func ranges(in text: String, limit: Int = .max) -> [Range<String.Index>] {
        guard !text.isEmpty, !self.text.isEmpty else { return [] }
        var found: [Range<String.Index>] = []
        if let literal {
            guard !literal.isEmpty else { return [] }
            var start = text.startIndex
            while found.count < limit, let range = text.range(of: literal, options: .caseInsensitive, range: start..<text.endIndex) {
                found.append(range)
                start = range.upperBound
            }
        } else if let expression = expression?.value {
            for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).prefix(limit) {
                if let range = Range(match.range, in: text), !range.isEmpty { found.append(range) }
            }
        }
        return found
    }

    /// Whether a block's string table can rule the query out: only for a plain word that names no
    /// kind or source (those are not in the table).
    func wordForBlockSkipping(sources: [RecordedSource]) -> String? {
        guard let literal, !literal.isEmpty, literal.allSatisfy({ $0.isLetter || $0 == "_" }) else { return nil }
        let lowered = literal.lowercased()
        if Event.Category.allCases.contains(where: { $0.rawValue.lowercased().contains(lowered) }) { return nil }
        if sources.contains(where: { $0.description.lowercased().contains(lowered) }) { return nil }
        return literal
    }

    public static func == (left: SearchQuery, right: SearchQuery) -> Bool { left.text == right.text }
}

/// Why a search query could not be read.
public struct SearchQueryError: Error, Equatable, CustomStringConvertible {
    public var description: String
}

/// A compiled expression. Unchecked: `NSRegularExpression` is immutable once made and documented
/// as safe to use from several threads; it is only not marked `Sendable` on Linux.
final class NSRegularExpressionBox: @unchecked Sendable {
    let value: NSRegularExpression
    init(_ value: NSRegularExpression) { self.value = value }
}
