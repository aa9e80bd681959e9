import Foundation
@_spi(Tooling) import Rewind

/// What `/` looks for: plain text (case-insensitive), or a regular expression when the query starts
/// with `~` (`/~count = [0-9]+`; `^` and `$` anchor to one of the texts, `/~^increment$`). An event matches when its name, source, description or what it
/// carries (a change's `path = value`, an input, an activity, whole) does. Kinds are left to the
/// filter (`f change`): every name, path and value of a block is in its string table, so a plain
/// word can skip the blocks that cannot hold it, which a kind name would defeat.
package struct SearchQuery: Sendable, Equatable {
    /// The query as typed.
    package let text: String
    /// The literal text, when the query is not a regular expression.
    let literal: String?
    /// The literal, found as Foundation finds it but by a byte search in ASCII text: a search of a
    /// whole journal tests millions of texts.
    private let searched: SearchedText?
    private let expression: NSRegularExpressionBox?
    /// Whether the query asks for a change's move (it has `→`, as a change row shows it), which
    /// only the state before the change can tell.
    package let asksForMove: Bool
    /// For a literal that asks for a move: the text after its arrow, which a change's new value
    /// must hold for its row to match (``mayMatchMove(_:)``).
    private let afterArrow: SearchedText?

    /// Reads a query; a malformed regular expression is an error with a one-line reason.
    package init(_ text: String) throws(SearchQueryError) {
        self.text = text
        asksForMove = text.contains("→")
        if text.hasPrefix("~") {
            do {
                expression = NSRegularExpressionBox(try NSRegularExpression(pattern: String(text.dropFirst()), options: [.caseInsensitive, .anchorsMatchLines]))
            } catch {
                throw SearchQueryError(description: "not a regular expression: \(VisibleText.escaped(String(text.dropFirst())))")
            }
            literal = nil
            searched = nil
            afterArrow = nil
        } else {
            literal = text
            searched = SearchedText(text)
            expression = nil
            afterArrow = text.range(of: "→").map { SearchedText(text[$0.upperBound...].trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// The texts of an event a search looks at (``Rewind/RecordedEvent/searchedTexts(old:)``), one
    /// a line: `^` and `$` of a regular expression anchor to a text (`/~^increment$`).
    static func haystack(_ event: some EventFields, old: ValueBefore = .unknown) -> String {
        event.searchedTexts(old: old).joined(separator: "\n")
    }

    /// Whether an event matches, its fields and its row as the screen shows it without the old
    /// value (a move, `nextID: 1 → 2`, needs the state before: ``matches(_:old:)``).
    package func matches(_ event: some EventFields) -> Bool {
        matches(event, old: .unknown)
    }

    /// Whether an event matches with a change's row read as its move from `old`.
    package func matches(_ event: some EventFields, old: ValueBefore) -> Bool {
        // A literal without a line break cannot match across the haystack's lines: each text is
        // searched alone, with no haystack joined.
        if let searched, !text.isEmpty, !text.utf8.contains(0x0A) {
            return event.searchedTexts(old: old).contains(where: searched.isFound)
        }
        return !ranges(in: Self.haystack(event, old: old), limit: 1).isEmpty
    }

    /// Whether an event's row matches as `/` and `rewind log --grep` judge it — the one rule: its
    /// texts as they are without the state before it, or, when the query asks for a move and the
    /// change may read so, its row as the move from `old` (asked only then: it may take
    /// rebuilding the state before the change).
    package func matchesRow(_ event: some EventFields, old: () -> ValueBefore) -> Bool {
        if matches(event) { return true }
        return mayMatchMove(event) && matches(event, old: old())
    }

    @available(*, deprecated, message: "pass a ValueBefore: .value(v), .absent or .unknown")
    package func matches(_ event: RecordedEvent, old: StateValue??) -> Bool {
        matches(event, old: ValueBefore(old))
    }


    /// Whether a change may match as its move, judged without the state before it: the text after
    /// the arrow must be in the new value, as the row shows it, unless the change replaced a list
    /// or object (whose row names what changed in it).
    package func mayMatchMove(_ event: some EventFields) -> Bool {
        guard asksForMove, event.kind == .change else { return false }
        guard let afterArrow else { return true }
        switch event.value {
        case .array, .object: return true
        default: return afterArrow.text.isEmpty || afterArrow.isFound(in: (event.value ?? .null).compactDescription(limit: .max))
        }
    }

    /// Where the query occurs in `text` (for highlighting), at most `limit` places.
    package func ranges(in text: String, limit: Int = .max) -> [Range<String.Index>] {
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

    /// Text every match contains, for skipping blocks with their search filters: the literal, or
    /// for a regular expression its longest run of three or more literal characters that every
    /// match must contain (``requiredText(inExpression:)``).
    ///
    /// A move (`nextID: 1 → 2`) is not in any block's text: what it requires is the path it starts
    /// with, when that has three or more characters.
    package var requiredText: String? {
        if asksForMove {
            guard let literal else { return nil }
            let path = literal.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return path.utf8.count >= 3 ? String(path) : nil
        }
        return literal ?? Self.requiredText(inExpression: String(text.dropFirst()))
    }

    /// The longest run of literal characters every match of `pattern` contains, if one of three or
    /// more can be told: only in expressions without alternation, groups, classes or counted
    /// repeats (any of `|()[]{}` gives `nil`), where a run ends at `.`, an anchor, a class escape
    /// (`\d`) or a repeat, and `?` or `*` takes back the character before it.
    static func requiredText(inExpression pattern: String) -> String? {
        guard !pattern.contains(where: { "|()[]{}".contains($0) }) else { return nil }
        var runs: [String] = []
        var run = ""
        var characters = pattern[...]
        while let character = characters.popFirst() {
            switch character {
            case "\\":
                guard let escaped = characters.popFirst() else { return nil }
                if let literal = escapedCharacter(escaped, operand: &characters) {
                    run.append(literal)
                } else if escaped == "Q" || escaped == "c" {
                    // Quoted text (`\Q…\E`) and control escapes (`\cM`): not worth reading here.
                    return nil
                } else if escaped.isLetter || escaped.isNumber {
                    runs.append(run)
                    run = ""
                } else {
                    run.append(escaped)
                }
            case "?", "*":
                if !run.isEmpty { run.removeLast() }
                runs.append(run)
                run = ""
            case "+", ".", "^", "$":
                runs.append(run)
                run = ""
            default:
                run.append(character)
            }
        }
        runs.append(run)
        return runs.filter { $0.utf8.count >= 3 }.max { $0.utf8.count < $1.utf8.count }
    }

    /// The character a code escape stands for — `\x4D`, `\u004D`, `\U0000004D`, `\0115` — taking
    /// its digits from `operand`; `nil` (and `operand` untouched) for any other escape. A code
    /// that names no character, or an escape with too few digits, is taken, and gives `nil` too.
    static func escapedCharacter(_ escaped: Character, operand: inout Substring) -> Character? {
        let (radix, digits): (Int, ClosedRange<Int>) = switch escaped {
        case "x": (16, 2...2)
        case "u": (16, 4...4)
        case "U": (16, 8...8)
        case "0": (8, 0...3)
        default: (0, 0...0)
        }
        guard radix != 0 else { return nil }
        let code = operand.prefix(digits.upperBound).prefix { $0.isHexDigit && Int(String($0), radix: radix) != nil }
        operand = operand.dropFirst(code.count)
        guard digits.contains(code.count), let value = UInt32(code.isEmpty ? "0" : String(code), radix: radix),
              let scalar = Unicode.Scalar(value) else { return nil }
        return Character(scalar)
    }

    package static func == (left: SearchQuery, right: SearchQuery) -> Bool { left.text == right.text }
}

/// Why a search query could not be read.
package struct SearchQueryError: Error, Equatable, CustomStringConvertible {
    package var description: String
}

/// A compiled expression. Unchecked: `NSRegularExpression` is immutable once made and documented
/// as safe to use from several threads; it is only not marked `Sendable` on Linux.
final class NSRegularExpressionBox: @unchecked Sendable {
    let value: NSRegularExpression
    init(_ value: NSRegularExpression) { self.value = value }
}
