/// Makes text from a recording safe to print: control characters (which could be terminal escape
/// sequences planted in recorded data) are shown as Swift escapes instead of being sent.
///
/// ```swift
/// VisibleText.escaped("a\u{1B}[2Jb") // "a\\u{1B}[2Jb"
/// ```
@_spi(Tooling) public enum VisibleText {
    /// `text` with every control character (C0, DEL, C1) written as an escape; `\n` and `\t` as such.
    @_spi(Tooling) public static func escaped(_ text: String) -> String {
        if isPrintableASCII(text) { return text }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` made safe to write to a terminal as the last step before it is written: every control
    /// character is escaped as ``escaped(_:)`` does, except `\n`, `\t` and the colour sequences
    /// (SGR: `ESC [` digits and `;` then `m`) the program styles its own output with — they can
    /// only colour text, never move the cursor, retitle the window or reach the clipboard. Text from
    /// a recording is escaped before it is styled, so none of its escapes survive to this point.
    @_spi(Tooling) public static func terminalSafe(_ text: String) -> String {
        if isPrintableASCII(text, allowingLineBreaksAndTabs: true) || !mayHoldControl(text) { return text }
        guard text.unicodeScalars.contains(where: { $0 != "\n" && $0 != "\t" && isControl($0) }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", let end = colourSequenceEnd(scalars, from: index) {
                result.append(contentsOf: scalars[index...end])
                index = end + 1
                continue
            }
            if scalar == "\n" || scalar == "\t" || !isControl(scalar) {
                result.append(scalar)
            } else {
                result.append(contentsOf: escaped(String(scalar)).unicodeScalars)
            }
            index += 1
        }
        return String(result)
    }

    /// The index of the `m` that ends a colour sequence starting at `start`, if one does.
    private static func colourSequenceEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 2 < scalars.count, scalars[start + 1] == "[" else { return nil }
        var index = start + 2
        while index < scalars.count, index - start < 32 {
            let scalar = scalars[index]
            if scalar == "m" { return index }
            guard ("0"..."9").contains(scalar) || scalar == ";" else { return nil }
            index += 1
        }
        return nil
    }

    /// `text` in double quotes with `"` and `\` escaped and control characters made visible.
    @_spi(Tooling) public static func quoted(_ text: String) -> String {
        var body = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": body += "\\\""
            case "\\": body += "\\\\"
            default: body.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped(body))\""
    }

    /// Whether a scalar is a control character that must not reach a terminal: C0, DEL, C1, the
    /// line and paragraph separators, and the bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE
    /// and its kin reorder what follows them on screen, so recorded text could forge a line).
    @_spi(Tooling) public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C
    }

    /// Whether every byte of `text` is printable ASCII (and, if allowed, `\n` or `\t`): the usual
    /// case, which needs no escaping, checked a byte at a time rather than a scalar at a time.
    static func isPrintableASCII(_ text: String, allowingLineBreaksAndTabs: Bool = false) -> Bool {
        allBytes(of: text) { byte in
            (0x20..<0x7F).contains(byte) || (allowingLineBreaksAndTabs && (byte == 0x0A || byte == 0x09))
        }
    }

    /// Whether `text` may hold a control other than `\n` and `\t` (see ``mayHoldControl(utf8:)``).
    static func mayHoldControl(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(scanForControl) ?? Array(text.utf8).withUnsafeBufferPointer(scanForControl)
    }

    /// Whether text, given as its UTF-8 bytes, may hold a control other than `\n` and `\t` (see
    /// ``isControl(_:)``), judged from the bytes alone: `false` only when no byte can start one —
    /// no C0 byte or DEL, and none of the byte pairs the others start with (`C2 80`–`C2 9F` for
    /// C1, `D8 9C` for U+061C, `E2 80`/`E2 81` for U+2000–U+207F). Text with arrows, accents or
    /// micro signs (`0 → 1`, `café`, `3.0µs`) then needs no scalar scan; text this says `false`
    /// of is safe to print as it is.
    @_spi(Tooling) public static func mayHoldControl(utf8 bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer(scanForControl)
    }

    private static func scanForControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Eight bytes at a time while they are printable ASCII (no byte below 0x20, none from
        // 0x7F up), which none of the bytes looked for is: most lines are, to their last word.
        var start = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
        while start + 8 <= bytes.count {
            let word = UnsafeRawPointer(bytes.baseAddress! + start).loadUnaligned(as: UInt64.self)
            let belowSpace = (word &- 0x2020_2020_2020_2020) & ~word & highBits
            let delete = ((word ^ 0x7F7F_7F7F_7F7F_7F7F) &- ones) & ~(word ^ 0x7F7F_7F7F_7F7F_7F7F) & highBits
            guard (word & highBits) | belowSpace | delete == 0 else { break }
            start += 8
        }
        var previous: UInt8 = 0
        for byte in bytes[start...] {
            if byte < 0x20 && byte != 0x0A && byte != 0x09 { return true }
            if byte == 0x7F { return true }
            // C1 is `C2 80`–`C2 9F` (`C2 B5`, the µ of `3.0µs`, is not), U+061C `D8 9C`.
            if (previous == 0xC2 && byte < 0xA0) || (previous == 0xD8 && byte == 0x9C) { return true }
            if previous == 0xE2 && (byte == 0x80 || byte == 0x81) { return true }
            previous = byte
        }
        // A lead byte cut off at the end is judged as if it began a control.
        return previous == 0xC2 || previous == 0xD8 || previous == 0xE2
    }

    /// Whether every UTF-8 byte of `text` passes `test`, over its contiguous storage when it has
    /// one (native strings do): a tight loop instead of the UTF-8 view's iterator.
    @inline(__always)
    static func allBytes(of text: String, _ test: (UInt8) -> Bool) -> Bool {
        if let answer = text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(test) }) { return answer }
        return text.utf8.allSatisfy(test)
    }

    /// `text` cut to `limit` characters, ending with `…` when it was cut.
    static func truncated(_ text: String, to limit: Int) -> String {
        text.count > limit ? String(text.prefix(max(limit - 1, 0))) + "…" : text
    }

    /// `text` padded with spaces to at least `width` characters, for aligned columns; never cut.
    @_spi(Tooling) public static func padded(_ text: String, to width: Int) -> String {
        let count = characterCount(text)
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    /// How many characters `text` has. In ASCII without `\r` a byte is a character, so the usual
    /// case needs no grapheme breaking (`\r\n` is one character).
    @_spi(Tooling) public static func characterCount(_ text: String) -> Int {
        allBytes(of: text, isOneCharacter) ? text.utf8.count : text.count
    }

    /// The same for text as UTF-8 bytes, written into a line rather than made a `String`.
    package static func characterCount(utf8 bytes: ArraySlice<UInt8>) -> Int {
        bytes.allSatisfy(isOneCharacter) ? bytes.count : String(decoding: bytes, as: UTF8.self).count
    }

    /// Whether a UTF-8 byte is a character of its own: ASCII, but for `\r` (`\r\n` is one).
    package static func isOneCharacter(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x0D }
}
