@_spi(Tooling) import Rewind

/// How a cell is drawn. Colour is optional: with `NO_COLOR` only the attributes that carry meaning
/// without colour (reverse video for the cursor line, bold) are used.
package struct CellStyle: Hashable, Sendable {
    /// A foreground colour, by ANSI number (31 red … 36 cyan), if any.
    package var color: UInt8?
    /// Reverse video: the highlighted line.
    package var reverse = false
    /// Bold.
    package var bold = false
    /// Dim.
    package var dim = false

    /// A style.
    package init(color: UInt8? = nil, reverse: Bool = false, bold: Bool = false, dim: Bool = false) {
        self.color = color
        self.reverse = reverse
        self.bold = bold
        self.dim = dim
    }

    /// No attributes.
    package static let plain = CellStyle()
}

/// One frame of the screen: a grid of characters with styles. The view draws into it as a pure
/// function of the model; the terminal then writes only the cells that differ from the previous
/// frame (see ``ScreenBuffer/changes(from:colors:)``), as ratatui does.
public struct ScreenBuffer: Equatable, Sendable {
    /// One cell.
    package struct Cell: Hashable, Sendable {
        /// The character shown.
        package var character: Character
        /// How it is drawn.
        package var style: CellStyle
        /// The right half of a wide character written in the cell before: nothing is sent for it.
        package var isContinuation = false
    }

    /// Width in columns.
    public let width: Int
    /// Height in rows.
    public let height: Int
    private(set) var cells: [Cell]

    /// A blank frame.
    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(character: " ", style: .plain), count: self.width * self.height)
    }

    /// Writes `text` at a position, cut at `limit` columns (or the right edge). Control characters
    /// are shown escaped, so nothing from a recording can reach the terminal as a control sequence;
    /// wide characters (CJK, emoji) take two cells, combining marks none. Returns the column after
    /// the last cell written.
    @discardableResult
    package mutating func write(_ text: String, row: Int, column: Int, limit: Int? = nil, style: CellStyle = .plain) -> Int {
        guard row >= 0, row < height, column < width else { return column }
        let end = min(width, column + (limit ?? width))
        var x = column
        for character in VisibleText.escaped(text) {
            let cells = CellWidth.of(character)
            guard cells > 0 else { continue }
            guard x + cells <= end else {
                // A wide character that does not fit leaves a blank, as terminals do.
                if x < end, x >= 0 { put(Cell(character: " ", style: style), row: row, column: x) }
                x = end
                break
            }
            if x >= 0 {
                put(Cell(character: character, style: style), row: row, column: x)
                if cells == 2 { put(Cell(character: " ", style: style, isContinuation: true), row: row, column: x + 1) }
            }
            x += cells
        }
        return x
    }

    /// Sets one cell; overwriting half of a wide character blanks its other half.
    private mutating func put(_ cell: Cell, row: Int, column: Int) {
        let index = row * width + column
        if cells[index].isContinuation, column > 0 { cells[index - 1] = Cell(character: " ", style: cells[index - 1].style) }
        if !cell.isContinuation, column + 1 < width, cells[index + 1].isContinuation {
            cells[index + 1] = Cell(character: " ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// Gives a stretch of a row a style (the highlighted line), keeping its characters.
    package mutating func style(row: Int, column: Int, length: Int, _ style: CellStyle) {
        guard row >= 0, row < height else { return }
        for x in max(0, column)..<min(width, column + length) {
            cells[row * width + x].style = style
        }
    }

    /// The cell at a position.
    package subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// The frame as plain text, one line per row with trailing spaces removed: what golden-frame
    /// tests compare.
    public var plainText: String {
        (0..<height).map { row in
            var line = String(cells[(row * width)..<((row + 1) * width)].filter { !$0.isContinuation }.map(\.character))
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The terminal output that turns `previous` into this frame: cursor moves and the runs of
    /// cells that changed, nothing else. A `nil` previous frame (or a resize) redraws everything.
    package func changes(from previous: ScreenBuffer?, colors: Bool) -> String {
        var output = ""
        var currentStyle: CellStyle?
        let redrawAll = previous == nil || previous!.width != width || previous!.height != height
        if redrawAll { output += "\u{1B}[0m\u{1B}[2J" }
        func differs(_ index: Int) -> Bool {
            redrawAll || previous!.cells[index] != cells[index]
        }
        for row in 0..<height {
            var column = 0
            while column < width {
                let index = row * width + column
                // A wide character is one unit: either half changing rewrites it from its left half.
                let changed = differs(index) || (column + 1 < width && cells[index + 1].isContinuation && differs(index + 1))
                guard changed else {
                    column += 1
                    continue
                }
                if cells[index].isContinuation, column > 0 { column -= 1 }
                output += "\u{1B}[\(row + 1);\(column + 1)H"
                while column < width {
                    let index = row * width + column
                    let stillChanged = differs(index) || (column + 1 < width && cells[index + 1].isContinuation && differs(index + 1))
                    guard stillChanged || cells[index].isContinuation else { break }
                    let cell = cells[index]
                    if !cell.isContinuation {
                        if cell.style != currentStyle {
                            output += Self.sgr(cell.style, colors: colors)
                            currentStyle = cell.style
                        }
                        output.append(cell.character)
                    }
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
}
