extension JournalReader {
    /// What block `index`'s search filter says of a case-insensitive search for `text`: `false`
    /// when the block certainly holds no match (it need not be read), `true` when it may, `nil`
    /// when the block has no filter yet — read it and give its events to
    /// ``recordSearchFilter(ofBlock:events:)``, so the next search can skip it.
    ///
    /// Filters judge literals of three or more ASCII characters; for other text the answer is `true`.
    package func searchFilter(ofBlock index: Int, mayContain text: String) -> Bool? {
        guard NGramFilter.judgeableGrams(of: text) != nil else { return true }
        return searchIndex.filter(for: blocks[index])?.mayContain(text)
    }

    /// Makes and keeps block `index`'s search filter from its events (safe from any thread).
    package func recordSearchFilter(ofBlock index: Int, events: [RecordedEvent]) {
        recordSearchFilter(of: blocks[index], events: events)
    }

    /// ``recordSearchFilter(ofBlock:events:)`` for a block already looked up.
    func recordSearchFilter(of block: JournalBlock, events: [RecordedEvent]) {
        guard searchIndex.filter(for: block) == nil else { return }
        searchIndex.record(NGramFilter(texts: events.lazy.flatMap(\.searchableTexts)), for: block)
    }

    /// Whether a block may hold an event that a text search for `word` matches, judged from its
    /// string table alone: cheaper than decoding its events (and than making its filter), so a
    /// block without a filter can still be ruled out at once. Only a plain word (letters and `_`)
    /// can be judged so: text with digits, spaces or punctuation can match across separate strings
    /// (`title: "Milk"`) or numbers, so for it the answer is always `true`.
    package func block(_ index: Int, mayContainWord word: String) -> Bool {
        guard !word.isEmpty, word.allSatisfy({ $0.isLetter || $0 == "_" }) else { return true }
        let block = blocks[index]
        guard case .success(let payload) = payload(at: block.offset, frame: block.frame) else { return true }
        return (try? BlockDecoding.stringTable(of: payload, containsWord: word)) ?? true
    }

    /// Keeps the filters made since the journal was opened in a file beside it
    /// (`FILE.rewind.search`), for the next search; does nothing where that cannot be written.
    package func saveSearchIndex() {
        searchIndex.save()
    }
}
