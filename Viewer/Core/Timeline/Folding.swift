/// Which dispatches are folded into one row: all of them or none by default, with exceptions the
/// user toggled one by one. A folded dispatch hides what it caused — the events whose `parent`
/// chain leads to it, up to its `didDispatch` — as Redux DevTools shows an action as one line.
package struct Folding: Sendable, Equatable {
    /// Whether dispatches are folded unless toggled.
    package var foldsAll = false
    /// Dispatches (by sequence number) folded or unfolded against ``foldsAll``.
    package var toggled: Set<UInt64> = []

    /// Nothing folded.
    package init() {}

    /// Whether the dispatch that began at `sequence` is folded.
    package func isFolded(_ sequence: UInt64) -> Bool {
        foldsAll != toggled.contains(sequence)
    }

    /// Whether no dispatch can be folded: every event is a row.
    package var isEmpty: Bool { !foldsAll && toggled.isEmpty }

    /// Folds or unfolds one dispatch.
    package mutating func toggle(_ sequence: UInt64) {
        if toggled.contains(sequence) { toggled.remove(sequence) } else { toggled.insert(sequence) }
    }

    /// Folds or unfolds every dispatch.
    package mutating func toggleAll() {
        foldsAll.toggle()
        toggled = []
    }

    /// Makes sure the dispatch that began at `sequence` is unfolded.
    package mutating func unfold(_ sequence: UInt64) {
        if isFolded(sequence) { toggle(sequence) }
    }
}
