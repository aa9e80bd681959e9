@_spi(Tooling) import Rewind

/// The whole recording at a glance, as lnav's histogram and Redux DevTools' slider give it: a strip
/// of cells across the title line, each a slice of the recording's time (of its steps, when every
/// event shares one instant), drawn as a sparkline of how many events fell in it, with the cursor,
/// search hits, bookmarks and damaged regions marked. A click on a cell, or `{`/`}`, jumps there.
///
/// Made from the journal's block index alone (no block is read), so it costs the same on a
/// ten-million-event recording as on a small one.
package struct Overview: Sendable, Equatable {
    /// One block as the strip needs it: its steps, its times and how many events it holds.
    struct Span: Sendable, Equatable {
        var firstSequence: UInt64
        var lastSequence: UInt64
        var firstWall: Int64
        var lastWall: Int64
        var eventCount: Int
    }

    /// What a cell shows, most important first: where the cursor is, a damaged region, a
    /// bookmark, an error the app logged, a search hit, else how busy the slice was — in yellow
    /// where the app logged a warning.
    package enum Mark: Sendable, Equatable {
        case cursor, damage, bookmark, error, hit
        /// How many events fell in the cell, 0…8 of the busiest cell's count (0: none), and
        /// whether the app logged a warning there.
        case density(Int, warning: Bool = false)
    }

    let spans: [Span]
    let damaged: [ClosedRange<UInt64>]
    /// Whether cells are slices of time (else of steps: every event at one instant).
    private let byTime: Bool
    private let startWall: Int64, endWall: Int64

    /// The strip of a journal as its index has it now.
    init(reader: JournalReader) {
        self.init(spans: reader.blocks.map {
            Span(firstSequence: $0.firstSequence, lastSequence: $0.lastSequence, firstWall: $0.firstWallNanoseconds, lastWall: $0.lastWallNanoseconds, eventCount: $0.eventCount)
        }, damaged: reader.damage.compactMap(\.sequences))
    }

    /// An overview of nothing (before the first read).
    static let empty = Overview(spans: [], damaged: [])

    init(spans: [Span], damaged: [ClosedRange<UInt64>]) {
        self.spans = spans
        self.damaged = damaged
        startWall = spans.map(\.firstWall).min() ?? 0
        endWall = spans.map(\.lastWall).max() ?? 0
        byTime = endWall > startWall
    }

    private var firstSequence: UInt64 { spans.first?.firstSequence ?? 0 }
    private var lastSequence: UInt64 { spans.last?.lastSequence ?? 0 }

    /// Where a step lies in the recording, 0…1: by time, a step's time read from its block's
    /// first and last (events spread evenly between them); by steps otherwise.
    func fraction(ofSequence sequence: UInt64) -> Double {
        fraction(ofSequence: sequence, likelyIn: nil)
    }

    /// The same, told where to look first: the block at `hint` when it is the one holding the
    /// step (the strip asks about every block's own first and last steps, with every frame: a
    /// search of the blocks each time cost a 30 M-event journal's frame a millisecond).
    private func fraction(ofSequence sequence: UInt64, likelyIn hint: Int?) -> Double {
        guard !spans.isEmpty else { return 0 }
        guard byTime else {
            let length = Double(lastSequence &- firstSequence)
            return length > 0 ? Double(min(max(sequence, firstSequence), lastSequence) - firstSequence) / length : 0
        }
        // The block holding the step, or the last one before it: the first block starting after
        // the step, less one.
        let low: Int
        if let hint, spans[hint].firstSequence <= sequence, hint + 1 == spans.count || spans[hint + 1].firstSequence > sequence {
            low = hint + 1
        } else {
            low = spans.indices.partitionPoint { spans[$0].firstSequence > sequence }
        }
        guard low > 0 else { return 0 }
        let span = spans[low - 1]
        let inside = span.lastSequence > span.firstSequence
            ? Double(min(sequence, span.lastSequence) - span.firstSequence) / Double(span.lastSequence - span.firstSequence) : 0
        let wall = Double(span.firstWall) + inside * Double(span.lastWall - span.firstWall)
        return min(1, max(0, (wall - Double(startWall)) / Double(endWall - startWall)))
    }

    /// The cell of `cells` a step falls in.
    func cell(ofSequence sequence: UInt64, cells: Int) -> Int {
        min(cells - 1, Int(fraction(ofSequence: sequence) * Double(cells)))
    }

    /// The first step whose place is at or after `fraction` (for a click on a cell: its first step).
    func sequence(atFraction fraction: Double) -> UInt64? {
        guard let last = spans.last else { return nil }
        if !byTime {
            return firstSequence + UInt64((Double(lastSequence - firstSequence) * min(1, max(0, fraction))).rounded(.up))
        }
        let wall = Double(startWall) + min(1, max(0, fraction)) * Double(endWall - startWall)
        guard let span = spans.first(where: { Double($0.lastWall) >= wall }) else { return last.lastSequence }
        guard span.lastWall > span.firstWall, Double(span.firstWall) < wall else { return span.firstSequence }
        let inside = (wall - Double(span.firstWall)) / Double(span.lastWall - span.firstWall)
        return min(span.lastSequence, span.firstSequence + UInt64((inside * Double(span.lastSequence - span.firstSequence)).rounded(.up)))
    }

    /// How many events fall in each of `cells` slices: each block's events spread over its slice
    /// of the strip.
    func eventCounts(cells: Int) -> [Double] {
        var counts = [Double](repeating: 0, count: max(0, cells))
        guard cells > 0 else { return counts }
        for (index, span) in spans.enumerated() {
            let start = fraction(ofSequence: span.firstSequence, likelyIn: index) * Double(cells)
            let end = fraction(ofSequence: span.lastSequence, likelyIn: index) * Double(cells)
            let first = min(cells - 1, Int(start)), last = min(cells - 1, Int(end))
            if first == last {
                counts[first] += Double(span.eventCount)
                continue
            }
            let perCell = Double(span.eventCount) / (end - start)
            for cell in first...last {
                let overlap = min(end, Double(cell + 1)) - max(start, Double(cell))
                counts[cell] += perCell * max(0, overlap)
            }
        }
        return counts
    }

    /// The marks of `cells` cells, with the cursor's step, the search hits', the bookmarks' and
    /// the steps where the app logged an error or a warning. Each list of steps but the bookmarks
    /// is in increasing order (a search's, a watch's): a list of 100,000 costs a few lookups per
    /// cell it marks, not one per step, since it is drawn with every frame.
    package func marks(
        cells: Int, cursor: UInt64?, hits: [[UInt64]], bookmarks: [UInt64], logged: LogMarks = LogMarks()
    ) -> [Mark] {
        guard cells > 0 else { return [] }
        let counts = eventCounts(cells: cells)
        let busiest = counts.max() ?? 0
        var marks: [Mark] = counts.map { count in
            guard count > 0, busiest > 0 else { return .density(0) }
            return .density(max(1, Int((count / busiest * 8).rounded(.up))))
        }
        func mark(_ sequence: UInt64, _ mark: Mark) {
            let cell = cell(ofSequence: sequence, cells: cells)
            if Self.rank(mark) < Self.rank(marks[cell]) { marks[cell] = mark }
        }
        /// Calls `body` with each cell an ordered list of steps falls in, once.
        func forEachCell(of list: [UInt64], _ body: (Int) -> Void) {
            var index = 0
            while index < list.count {
                let cell = cell(ofSequence: list[index], cells: cells)
                body(cell)
                // On to the first step in a later cell.
                index = ((index + 1)..<list.count).partitionPoint { self.cell(ofSequence: list[$0], cells: cells) > cell }
            }
        }
        forEachCell(of: logged.warnings) { cell in
            if case .density(let level, _) = marks[cell] { marks[cell] = .density(max(1, level), warning: true) }
        }
        for list in hits {
            forEachCell(of: list) { cell in
                if Self.rank(.hit) < Self.rank(marks[cell]) { marks[cell] = .hit }
            }
        }
        forEachCell(of: logged.errors) { cell in
            if Self.rank(.error) < Self.rank(marks[cell]) { marks[cell] = .error }
        }
        for sequence in bookmarks { mark(sequence, .bookmark) }
        for range in damaged {
            let first = cell(ofSequence: range.lowerBound, cells: cells), last = cell(ofSequence: range.upperBound, cells: cells)
            for cell in first...max(first, last) where Self.rank(.damage) < Self.rank(marks[cell]) { marks[cell] = .damage }
        }
        if let cursor { mark(cursor, .cursor) }
        return marks
    }

    private static func rank(_ mark: Mark) -> Int {
        switch mark {
        case .cursor: 0
        case .damage: 1
        case .bookmark: 2
        case .error: 3
        case .hit: 4
        case .density: 5
        }
    }

    /// The character a mark is drawn as.
    static func glyph(_ mark: Mark) -> String {
        switch mark {
        case .cursor: "◆"
        case .damage: "✗"
        case .bookmark: "●"
        case .error: "!"
        case .hit: "•"
        case .density(let level, _): level == 0 ? " " : sparkline[min(8, level) - 1]
        }
    }

    private static let sparkline = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
}
