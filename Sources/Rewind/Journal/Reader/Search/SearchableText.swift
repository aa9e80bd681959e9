extension EventFields {
    /// The texts of the event that a search looks at — the one definition behind `rewind log --grep`
    /// and the viewer's `/` (which match these) and the blocks' search filters (which hold the
    /// n-grams of ``searchableTexts``, these and more): its name, source and description, the text on its
    /// row, and the row as the screen shows it (`isOn true`: the name, then that text), so that
    /// what is typed from the screen is found; with `old` known, a change's row as its move
    /// (`nextID: 1 → 2`) too.
    package func searchedTexts(old: ValueBefore = .unknown) -> [String] {
        let text = rowText(valueLimit: .max, old: .unknown, columns: \.count)
        var texts = [name, source.description, description, text, Self.row(name, text)]
        if old.isKnown {
            let move = rowText(valueLimit: .max, old: old, columns: \.count)
            texts += [move, Self.row(name, move)]
        }
        return texts
    }

    private static func row(_ name: String, _ text: String) -> String {
        text.isEmpty ? name : name.isEmpty ? text : name + " " + text
    }
}

extension RecordedEvent {
    /// What a block's ``NGramFilter`` holds the n-grams of: ``searchedTexts(old:)`` without a move,
    /// which no filter can know (a search for one is judged by the text after its arrow), and the
    /// event's path and whole value besides, which only widen it. A filter may say "maybe" where
    /// no text matches, never "no" where one does. Filters are made from a block's records
    /// (``NGramFilter/init(records:)``), with no text made; this is the definition a test holds
    /// them to.
    var searchableTexts: [String] {
        var texts = searchedTexts()
        // Kept from the filters' first version (the row with a space even when its text is
        // empty), so that filters saved beside journals stay the ones a reader makes today.
        texts.append(name + " " + rowText())
        if let path { texts.append(path) }
        if let value { texts.append(value.description) }
        return texts
    }
}
