import Foundation

/// Whether output may use colour, decided the way users expect of terminal tools: only when writing
/// to a terminal, never when `NO_COLOR` is set (https://no-color.org) or `TERM` is `dumb`.
public struct TerminalStyle: Sendable, Equatable {
    /// Whether ANSI colour codes are written.
    public var usesColor: Bool

    /// A style with or without colour.
    public init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    /// The style for a file descriptor in the current environment.
    public static func automatic(for fileDescriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalStyle {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        return TerminalStyle(usesColor: isatty(fileDescriptor) == 1 && !noColor && !dumb)
    }

    /// Plain text.
    public static let plain = TerminalStyle(usesColor: false)

    /// The colours Rewind uses.
    package enum Color: String, Sendable {
        case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36", dim = "2", bold = "1"
    }

    /// `text` wrapped in the colour's escape codes, or unchanged without colour.
    package func paint(_ text: String, _ color: Color) -> String {
        usesColor ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// The colour events of a kind are shown in, everywhere Rewind prints them.
    package static func color(for category: Event.Category) -> Color {
        switch category {
        case .willDispatch, .didDispatch: .blue
        case .willMutate, .didMutate, .change, .replace: .yellow
        case .activity: .magenta
        case .created, .released: .dim
        case .dropped: .red
        case .log: .cyan
        }
    }

    /// A diff line with its marker, in red or green when colour is on.
    package func paint(_ line: DiffRenderer.Line) -> String {
        switch line.marker {
        case .context: line.rendered
        case .removed: paint(line.rendered, .red)
        case .added: paint(line.rendered, .green)
        }
    }
}
