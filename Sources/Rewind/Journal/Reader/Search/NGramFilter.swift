import Foundation

/// A Bloom filter over the three- and six-byte sequences (n-grams) of a block's searchable texts,
/// lowercased: it answers "may a case-insensitive search for this literal match something in the
/// block?" with no false "no". A literal matches a text only if each of the literal's n-grams
/// occurs in it, so a literal with an n-gram the block lacks cannot match there. Trigrams judge
/// short literals; six-grams judge numbers, whose trigrams every block of a counting session has
/// (`999990` has the trigrams of every block that counts past a number ending in 999 and 990).
///
/// Case-insensitive matching is Foundation's case folding; the filter holds ASCII lowercase
/// n-grams of every text and, for text that is not ASCII, the n-grams of its case-folded form
/// too, and judges only ASCII literals of three characters or more (for anything else it answers
/// "may match").
struct NGramFilter: Sendable, Equatable {
    /// The filter's bits; a power of two of them.
    private(set) var words: [UInt64]

    /// Bits set per n-gram.
    static let hashCount = 3
    /// Bits per distinct n-gram: about 1.7% false positives per n-gram with three hashes, so a
    /// seven-character literal (five trigrams, two six-grams) is let through a block that lacks it
    /// rarely.
    static let bitsPerGram = 10

    /// The filter of `texts`.
    init(texts: some Sequence<String>) {
        var grams = Grams()
        for text in Set(texts) { grams.insert(gramsOf: text) }
        self.init(grams)
    }

    /// The filter of a set of n-grams: 10 bits per n-gram, at least 512.
    init(_ grams: Grams) {
        var bitCount = 512
        while bitCount < grams.count * Self.bitsPerGram { bitCount *= 2 }
        words = [UInt64](repeating: 0, count: bitCount / 64)
        grams.forEach { gram in
            for bit in Self.bits(of: gram, bitCount: bitCount) { words[bit >> 6] |= 1 << UInt64(bit & 63) }
        }
    }

    /// A filter read back from its words; `nil` unless their count is a power of two ≥ 8.
    init?(words: [UInt64]) {
        guard words.count >= 8, words.count & (words.count - 1) == 0 else { return nil }
        self.words = words
    }

    /// Whether a case-insensitive search for `literal` may match a text of the block: `false`
    /// only when it certainly cannot.
    func mayContain(_ literal: String) -> Bool {
        guard let grams = Self.judgeableGrams(of: literal) else { return true }
        let bitCount = words.count * 64
        return grams.allSatisfy { gram in
            Self.bits(of: gram, bitCount: bitCount).allSatisfy { words[$0 >> 6] & (1 << UInt64($0 & 63)) != 0 }
        }
    }

    /// The n-grams a filter can judge `literal` by: `nil` for a literal that is not ASCII or is
    /// shorter than three bytes.
    static func judgeableGrams(of literal: String) -> [UInt64]? {
        // Printable ASCII only: the viewer joins an event's texts with U+1F, which a literal holding
        // it could match across, and no text's n-grams would show.
        guard literal.utf8.count >= 3, literal.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
        var grams: [UInt64] = []
        forEachGram(ofLowercased: literal) { grams.append($0) }
        return grams
    }

    /// Calls `body` with each n-gram of `text` (ASCII letters lowercased).
    private static func forEachGram(ofLowercased text: String, _ body: (UInt64) -> Void) {
        var window = Window()
        for byte in text.utf8 { window.add(byte, body) }
    }

    /// The last six bytes of a text read a byte at a time, which end an n-gram of each length
    /// once that many have been read.
    struct Window {
        private var bytes: UInt64 = 0
        private var count = 0

        /// Reads `byte` (an ASCII letter lowercased) and adds each n-gram it ends to `grams`.
        @inline(__always)
        mutating func add(_ byte: UInt8, to grams: inout Grams) {
            add(byte) { grams.insert($0) }
        }

        /// Reads `byte` (an ASCII letter lowercased) and calls `body` with each n-gram it ends —
        /// of three bytes, then of six — its length in the top byte so that lengths never collide.
        @inline(__always)
        mutating func add(_ byte: UInt8, _ body: (UInt64) -> Void) {
            let lowered = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            bytes = bytes << 8 | UInt64(lowered)
            count += 1
            if count >= 3 { body(bytes & 0xFF_FFFF | 3 << 56) }
            if count >= 6 { body(bytes & 0xFFFF_FFFF_FFFF | 6 << 56) }
        }
    }

    /// The bits an n-gram sets: double hashing from one 64-bit mix.
    private static func bits(of gram: UInt64, bitCount: Int) -> [Int] {
        var mixed = gram &* 0x9E37_79B9_7F4A_7C15
        mixed ^= mixed >> 29
        mixed &*= 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 32
        let first = Int(truncatingIfNeeded: mixed), second = Int(truncatingIfNeeded: mixed >> 32) | 1
        return (0..<hashCount).map { (first &+ $0 &* second) & (bitCount - 1) }
    }
}
