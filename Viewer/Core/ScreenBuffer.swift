import Rewind

/// How a cell is drawn. Colour is optional: with `NO_COLOR` only the attributes that carry meaning
/// without colour (reverse video for the cursor line, bold) are used.
public struct CellStyle: Hashable, Sendable {
    /// A foreground colour, by ANSI number (31 red … 36 cyan), if any.
    public var color: UInt8?
    /// Reverse video: the highlighted line.
    public var reverse = false
    /// Bold.
    public var bold = false
    /// Dim.
    public var dim = false

    /// A style.
    public init(color: UInt8? = nil, reverse: Bool = false, bold: Bool = false, dim: Bool = false) {
        self.color = color
        self.reverse = reverse
        self.bold = bold
        self.dim = dim
    }

    /// No attributes.
    public static let plain = CellStyle()
}

/// One frame of the screen: a grid of characters with styles. The view draws into it as a pure
/// function of the model; the terminal then writes only the cells that differ from the previous
/// frame (see ``ScreenBuffer/changes(from:colors:)``), as ratatui does.
public struct ScreenBuffer: Equatable, Sendable {
    /// One cell.
    public struct Cell: Hashable, Sendable {
        /// The character shown.
        public var character: Character
        /// How it is drawn.
        public var style: CellStyle
    }

    /// Width in columns.
    public let width: Int
    /// Height in rows.
    public let height: Int
    private(set) var cells: [Cell]

    /// A blank frame.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(character: " ", style: .plain), count: self.width * self.height)
    }

    /// Writes `text` at a position, cut at `limit` columns (or the right edge). Control characters
    /// are shown escaped, so nothing from a recording can reach the terminal as a control sequence.
    public mutating func write(_ text: String, row: Int, column: Int, limit: Int? = nil, style: CellStyle = .plain) {
        guard row >= 0, row < height, column < width else { return }
        let end = min(width, column + (limit ?? width))
        var x = column
        for character in VisibleText.escaped(text) {
            guard x < end else { break }
            if x >= 0 { cells[row * width + x] = Cell(character: Self.printable(character), style: style) }
            x += 1
        }
    }

    /// Gives a stretch of a row a style (the highlighted line), keeping its characters.
    public mutating func style(row: Int, column: Int, length: Int, _ style: CellStyle) {
        guard row >= 0, row < height else { return }
        for x in max(0, column)..<min(width, column + length) {
            cells[row * width + x].style = style
        }
    }

    /// The cell at a position.
    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// The frame as plain text, one line per row with trailing spaces removed: what golden-frame
    /// tests compare.
    public var plainText: String {
        (0..<height).map { row in
            var line = String(cells[(row * width)..<((row + 1) * width)].map(\.character))
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The terminal output that turns `previous` into this frame: cursor moves and the runs of
    /// cells that changed, nothing else. A `nil` previous frame (or a resize) redraws everything.
    public func changes(from previous: ScreenBuffer?, colors: Bool) -> String {
        var output = ""
        var currentStyle: CellStyle?
        let redrawAll = previous == nil || previous!.width != width || previous!.height != height
        if redrawAll { output += "\u{1B}[0m\u{1B}[2J" }
        for row in 0..<height {
            var column = 0
            while column < width {
                let index = row * width + column
                if !redrawAll, previous!.cells[index] == cells[index] {
                    column += 1
                    continue
                }
                output += "\u{1B}[\(row + 1);\(column + 1)H"
                while column < width, redrawAll || previous!.cells[row * width + column] != cells[row * width + column] {
                    let cell = cells[row * width + column]
                    if cell.style != currentStyle {
                        output += Self.sgr(cell.style, colors: colors)
                        currentStyle = cell.style
                    }
                    output.append(cell.character)
                    column += 1
                }
            }
        }
        return output + "\u{1B}[0m"
    }

    static func sgr(_ style: CellStyle, colors: Bool) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.reverse { codes.append("7") }
        if colors, let color = style.color { codes.append(String(color)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// Characters that take more than one column or none are replaced, so columns stay aligned.
    static func printable(_ character: Character) -> Character {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return "?" }
        if scalar.properties.isEmojiPresentation || (0x1100...0x115F).contains(scalar.value)
            || (0x2E80...0xA4CF).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value)
            || (0xF900...0xFAFF).contains(scalar.value) || (0xFF00...0xFF60).contains(scalar.value) {
            return "?"
        }
        return character
    }
}
