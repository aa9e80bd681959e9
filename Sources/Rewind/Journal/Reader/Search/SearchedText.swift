import Foundation

/// A text searched for case-insensitively, found exactly where Foundation's
/// `range(of:options: .caseInsensitive)` finds it — the one definition of a match — but in ASCII
/// text by a byte search: a search of a whole journal tests millions of names and values, and
/// Foundation's search goes through NSString for each.
package struct SearchedText: Sendable {
    /// The text looked for.
    package let text: String
    /// The text lowercased, when it is ASCII (ASCII case folding is lowercasing).
    private let asciiLowercased: [UInt8]?

    /// Looks for `text`.
    package init(_ text: String) {
        self.text = text
        asciiLowercased = text.utf8.allSatisfy { $0 < 0x80 } ? text.utf8.map(Self.lowercased) : nil
    }

    /// Whether `haystack` contains the text, ignoring case.
    package func isFound(in haystack: String) -> Bool {
        if let needle = asciiLowercased, needle.isEmpty { return true }
        if let needle = asciiLowercased,
           let found = haystack.utf8.withContiguousStorageIfAvailable({ Self.asciiSearch(needle, in: $0) }), let found {
            return found
        }
        return haystack.range(of: text, options: .caseInsensitive) != nil
    }

    /// Whether `haystack` holds `needle` (lowercase ASCII), ignoring ASCII case; `nil` when the
    /// haystack holds a letter beyond ASCII other than those of Rewind's own rows, where only
    /// Foundation's folding can say.
    private static func asciiSearch(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard holdsNoOtherLetterBeyondASCII(haystack) else { return nil }
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count) where lowercased(haystack[start]) == first {
            var index = 1
            while index < needle.count, lowercased(haystack[start + index]) == needle[index] { index += 1 }
            if index == needle.count { return true }
        }
        return false
    }

    /// The letters beyond ASCII that Rewind's own rows write (`1.9µs`, `0 → 1`, a value cut with
    /// `…`: ``NGramFilter/Grams/knownFoldings``), as UTF-8. None folds to an ASCII letter or
    /// combines with one, so an ASCII text is found beside them exactly where a byte search finds
    /// it (a test holds this to Foundation's search).
    private static let rowLettersBeyondASCII = NGramFilter.Grams.knownFoldings.keys.map { Array(String($0).utf8) }

    /// Whether every letter of `bytes` beyond ASCII is one of ``rowLettersBeyondASCII``.
    private static func holdsNoOtherLetterBeyondASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            guard bytes[index] >= 0x80 else {
                index += 1
                continue
            }
            guard let letter = rowLettersBeyondASCII.first(where: { bytes[index...].starts(with: $0) }) else { return false }
            index += letter.count
        }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
