import Foundation
/// What the user pressed, decoded from the bytes a terminal sends.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, tab, backspace, escape
    /// Ctrl-C.
    case interrupt
    /// Ctrl-U: in a prompt, clears what was typed.
    case clearLine
    /// Ctrl-W: in a prompt, deletes the word before the cursor.
    case deleteWord
    /// The mouse wheel, over the focused pane.
    case wheelUp, wheelDown
    /// The mouse wheel at a cell (0-based), as SGR mouse reports say it: it scrolls the pane there.
    case wheel(up: Bool, column: Int, row: Int)
    /// A left click at a cell (0-based): it selects the row there.
    case click(column: Int, row: Int)
}

/// Turns terminal input bytes into keys: plain characters, control keys, CSI and SS3 sequences
/// (`ESC [ A`, `ESC O A`, `ESC [ 5 ~`, `ESC [ 1 ~` as tmux sends Home), and SGR mouse reports.
package enum KeyDecoder {
    /// Decodes as many keys as `bytes` holds; an incomplete escape sequence at the end is left in
    /// `remainder` for the next read. A lone ESC with nothing after it is the Escape key.
    package static func decode(_ bytes: [UInt8], final: Bool = true) -> (keys: [Key], remainder: [UInt8]) {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                guard index + 1 < bytes.count else {
                    if final { keys.append(.escape); index += 1; continue }
                    return (keys, Array(bytes[index...]))
                }
                let next = bytes[index + 1]
                if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                    // Find the final byte of the sequence (0x40…0x7E).
                    var end = index + 2
                    while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                    guard end < bytes.count else {
                        if final { keys.append(.escape); index += 1; continue }
                        return (keys, Array(bytes[index...]))
                    }
                    if let key = sequence(Array(bytes[(index + 2)...end]), introducer: next) { keys.append(key) }
                    index = end + 1
                    continue
                }
                keys.append(.escape)
                index += 1
                continue
            }
            switch byte {
            case 0x03: keys.append(.interrupt)
            case 0x15: keys.append(.clearLine)
            case 0x17: keys.append(.deleteWord)
            case 0x09: keys.append(.tab)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            default:
                // UTF-8 text (a search term): decode one character.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                if byte >= 0xC0, index + length <= bytes.count,
                   let text = String(bytes: bytes[index..<(index + length)], encoding: .utf8), let character = text.first {
                    keys.append(.character(character))
                    index += length
                    continue
                }
            }
            index += 1
        }
        return (keys, [])
    }

    private static func sequence(_ body: [UInt8], introducer: UInt8) -> Key? {
        let text = String(decoding: body, as: UTF8.self)
        switch text {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H", "1~", "7~": return .home
        case "F", "4~", "8~": return .end
        case "5~": return .pageUp
        case "6~": return .pageDown
        default: break
        }
        // SGR mouse: `<BUTTON;COLUMN;ROW` then `M` (pressed) or `m` (released), 1-based cells:
        // 64 and 65 the wheel, 0 the left button.
        if text.hasPrefix("<"), text.hasSuffix("M") || text.hasSuffix("m") {
            let fields = text.dropFirst().dropLast().split(separator: ";").compactMap { Int($0) }
            guard fields.count == 3 else { return nil }
            let (button, column, row) = (fields[0], max(0, fields[1] - 1), max(0, fields[2] - 1))
            if button == 64 || button == 65 { return .wheel(up: button == 64, column: column, row: row) }
            if button == 0 && text.hasSuffix("M") { return .click(column: column, row: row) }
        }
        return nil
    }
}
