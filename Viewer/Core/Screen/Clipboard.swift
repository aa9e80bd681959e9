import Foundation

/// The terminal's clipboard, reached with OSC 52: the terminal (or tmux, with `set-clipboard on`)
/// puts the text on the clipboard of the machine the person sits at, over SSH too.
enum Clipboard {
    /// The escape sequence that copies `text`: `ESC ] 52 ; c ; BASE64 BEL`. The text travels as
    /// base64, so nothing in it is read by the terminal as a sequence of its own.
    static func osc52(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }
}
