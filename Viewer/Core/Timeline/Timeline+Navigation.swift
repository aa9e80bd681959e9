@_spi(Tooling) import Rewind

extension Timeline {
    /// Whether the row at `position` is shown: no folded dispatch hides it. An unreadable
    /// position is shown (as a damaged row).
    func isVisible(_ position: Int, folding: Folding) -> Bool {
        guard !folding.isEmpty, let event = event(at: position) else { return true }
        return foldedAncestor(of: event, at: position, folding: folding) == nil
    }

    /// The first shown position at or after (`forward`) or at or before `position`. A folded
    /// dispatch is skipped whole: from a hidden event straight past its dispatch's end.
    func visiblePosition(from position: Int, forward: Bool, folding: Folding) -> Int? {
        var candidate = position
        while candidate >= 0, candidate < count {
            guard !folding.isEmpty, let event = event(at: candidate),
                  let hiding = foldedAncestor(of: event, at: candidate, folding: folding) else { return candidate }
            if forward {
                let end = groupEnd(of: hiding)
                let endPosition = end == .max ? count : (self.position(ofSequence: end) ?? count)
                candidate = max(candidate + 1, endPosition + 1)
            } else {
                // The dispatch row itself stands for what it hides.
                candidate = min(candidate - 1, self.position(ofSequence: hiding.sequence) ?? candidate - 1)
            }
        }
        return nil
    }

    /// The shown position `rows` rows away from `position` (negative: back), stopping at the ends.
    func position(_ position: Int, movedBy rows: Int, folding: Folding) -> Int {
        guard count > 0 else { return 0 }
        var current = min(max(0, position), count - 1)
        if folding.isEmpty { return min(max(0, current + rows), count - 1) }
        for _ in 0..<abs(rows) {
            let next = rows > 0 ? current + 1 : current - 1
            guard let found = visiblePosition(from: next, forward: rows > 0, folding: folding) else { break }
            current = found
        }
        return current
    }

    /// Up to `limit` shown positions from `top` on.
    func visiblePositions(from top: Int, limit: Int, folding: Folding) -> [Int] {
        var positions: [Int] = []
        var candidate = top
        while positions.count < limit, let found = visiblePosition(from: candidate, forward: true, folding: folding) {
            positions.append(found)
            candidate = found + 1
        }
        return positions
    }

    /// The first row to show so that `cursor` is on screen, moving the previous top as little as
    /// possible (as a pager scrolls).
    func top(showing cursor: Int, previousTop: Int, rows: Int, folding: Folding) -> Int {
        let rows = max(1, rows)
        if cursor <= previousTop { return cursor }
        if folding.isEmpty { return cursor >= previousTop + rows ? cursor - rows + 1 : previousTop }
        if visiblePositions(from: previousTop, limit: rows, folding: folding).contains(cursor) { return previousTop }
        return position(cursor, movedBy: -(rows - 1), folding: folding)
    }
}
