extension JournalReader {
    /// What block `index`'s search filter says of a case-insensitive search for `text`: `false`
    /// when the block certainly holds no match (it need not be read), `true` when it may, `nil`
    /// when the block has no filter yet — a search that reads it makes one (``JournalEvents``,
    /// ``WalkedEvents``, the viewer through ``recordSearchFilter(ofBlock:)``), so the next search
    /// can skip it.
    ///
    /// Filters judge literals of three or more ASCII characters; for other text the answer is `true`.
    package func searchFilter(ofBlock index: Int, mayContain text: String) -> Bool? {
        searchFilter(ofBlock: blocks[index], mayContain: text)
    }

    /// ``searchFilter(ofBlock:mayContain:)`` for a block already looked up (from any thread).
    func searchFilter(ofBlock block: JournalBlock, mayContain text: String) -> Bool? {
        guard NGramFilter.judgeableGrams(of: text) != nil else { return true }
        return searchIndex.filter(for: block)?.mayContain(text)
    }

    /// Makes and keeps block `index`'s search filter, from its records (safe from any thread); a
    /// damaged block gets none.
    package func recordSearchFilter(ofBlock index: Int) {
        let block = blocks[index]
        guard searchIndex.filter(for: block) == nil, case .success(let records) = decodeRecords(at: block.offset, frame: block.frame) else { return }
        _ = recordSearchFilter(of: block, records: records)
    }

    /// Makes and keeps `block`'s search filter from its records, read already; returns it.
    func recordSearchFilter(of block: JournalBlock, records: BlockRecords) -> NGramFilter {
        let filter = NGramFilter(records: records)
        searchIndex.record(filter, for: block)
        return filter
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
