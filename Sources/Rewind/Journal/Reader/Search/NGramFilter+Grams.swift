import Foundation

extension NGramFilter {
    /// The distinct n-grams of a block's texts, gathered before its filter is sized: an
    /// open-addressing set of `UInt64` with a multiplicative hash, since a block's texts give
    /// hundreds of thousands of n-grams, mostly repeats, and `Set`'s SipHash costs more than the
    /// rest of a filter's making.
    struct Grams {
        /// The slots; 0 is empty (an n-gram holds its length in its top byte, so it is never 0).
        private var slots = [UInt64](repeating: 0, count: 1 << 10)
        /// How many distinct n-grams it holds.
        private(set) var count = 0

        /// Adds an n-gram.
        @inline(__always)
        mutating func insert(_ gram: UInt64) {
            let mask = slots.count - 1
            var slot = Self.slot(of: gram, mask: mask)
            while true {
                let held = slots[slot]
                if held == gram { return }
                if held == 0 { break }
                slot = (slot + 1) & mask
            }
            slots[slot] = gram
            count += 1
            if count * 2 > slots.count { grow() }
        }

        /// Adds the n-grams of `text` (ASCII letters lowercased) and, for text that is not ASCII,
        /// those of its case-folded form too, which is what Foundation's case-insensitive search
        /// matches (``NGramFilter``).
        mutating func insert(gramsOf text: String) {
            var window = Window()
            var ascii = true
            for byte in text.utf8 {
                ascii = ascii && byte < 0x80
                window.add(byte, to: &self)
            }
            if !ascii { insert(foldedGramsOf: text) }
        }

        /// Adds the n-grams of `text`'s case-folded form.
        mutating func insert(foldedGramsOf text: String) {
            guard !insert(knownFoldingOf: text, afterName: nil) else { return }
            var window = Window()
            for byte in text.folding(options: .caseInsensitive, locale: nil).utf8 { window.add(byte, to: &self) }
        }

        /// Adds the n-grams of `name + " " + text` case-folded (of `text` alone when `name` is
        /// `nil`) that the name's own lack, when `name` is ASCII and every letter of `text` beyond
        /// ASCII is one ``knownFoldings`` holds: Rewind's own rows hold few others (`1.9µs`,
        /// `0 → 1`, a value cut with `…`), which are folded here, letter by letter, with no text
        /// made. `false`, and nothing added, when a letter of `text` is not known.
        mutating func insert(knownFoldingOf text: String, afterName name: String?) -> Bool {
            guard text.unicodeScalars.allSatisfy({ $0.isASCII || Self.knownFoldings[$0] != nil }) else { return false }
            var window = Window()
            if let name {
                // An n-gram of six bytes or fewer that ends in the text starts at most five bytes
                // before it.
                for byte in name.utf8.suffix(5) { window.add(byte, to: &self) }
                window.add(0x20, to: &self)
            }
            for scalar in text.unicodeScalars {
                guard let folded = Self.knownFoldings[scalar] else {
                    window.add(UInt8(truncatingIfNeeded: scalar.value), to: &self)
                    continue
                }
                for byte in UTF8.encode(folded)! { window.add(byte, to: &self) }
            }
            return true
        }

        /// What Foundation's case folding makes of the letters beyond ASCII that Rewind's own rows
        /// write (a test holds them to Foundation's): the micro sign of `µs` folds to the Greek
        /// `μ`; the arrow of a move and the ellipsis of a cut value stay as they are. None folds
        /// to ASCII or combines with the letter before it.
        static let knownFoldings: [Unicode.Scalar: Unicode.Scalar] = ["\u{B5}": "\u{3BC}", "→": "→", "…": "…"]

        /// Calls `body` with each n-gram held.
        func forEach(_ body: (UInt64) -> Void) {
            for gram in slots where gram != 0 { body(gram) }
        }

        private static func slot(of gram: UInt64, mask: Int) -> Int {
            Int(truncatingIfNeeded: (gram &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        }

        private mutating func grow() {
            let old = slots
            slots = [UInt64](repeating: 0, count: old.count * 2)
            let mask = slots.count - 1
            for gram in old where gram != 0 {
                var slot = Self.slot(of: gram, mask: mask)
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = gram
            }
        }
    }
}
