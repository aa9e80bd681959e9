extension NGramFilter {
    /// The filter of a block's events' searchable texts (``RecordedEvent/searchableTexts``), made
    /// from its records with no event made: the same n-grams, so the same filter (a test holds
    /// them equal on every fixture).
    ///
    /// An event's name, description and source are texts of the block's tables, taken once each.
    /// Its row as shown, `name row`, is taken from the last five bytes of its name on: an n-gram
    /// of it that starts earlier lies within the name, already taken. Its row alone (and
    /// `row(name, text)`, one of `name`, `text` and `name text`) gives no n-gram these lack.
    init(records: BlockRecords) {
        var gathering = Gathering(records)
        for index in 0..<records.count { gathering.add(records[index]) }
        self.init(gathering.grams)
    }

    /// The n-grams of a block's texts, gathered record by record.
    private struct Gathering {
        let records: BlockRecords
        var grams = Grams()
        /// Per text of the string table: 0 not taken yet, 1 taken and ASCII, 2 taken and not.
        var tableTexts: [UInt8]
        var sourceTaken: [Bool]

        init(_ records: BlockRecords) {
            self.records = records
            tableTexts = [UInt8](repeating: 0, count: records.strings.count)
            sourceTaken = [Bool](repeating: false, count: records.sources.count)
        }

        mutating func add(_ record: BlockRecords.Record) {
            let head = record.head
            take(tableText: head.name)
            if let description = head.description { take(tableText: description) }
            if !sourceTaken[head.sourceIndex] {
                sourceTaken[head.sourceIndex] = true
                grams.insert(gramsOf: records.sources[head.sourceIndex].description)
            }
            let name = records.strings[head.name]
            let row = record.rowText()
            var window = Window()
            for byte in name.utf8.suffix(5) { window.add(byte, to: &grams) }
            window.add(0x20, to: &grams)
            var rowIsASCII = true
            for byte in row.utf8 {
                rowIsASCII = rowIsASCII && byte < 0x80
                window.add(byte, to: &grams)
            }
            // Case folding is not byte by byte: texts that are not ASCII are folded whole, as
            // events' texts are; a row's few letters Rewind writes itself (`1.9µs`) are folded
            // here, after an ASCII name's end, which gives the folded row's n-grams too.
            let nameIsASCII = tableTexts[head.name] == 1
            if !rowIsASCII, !(nameIsASCII && grams.insert(knownFoldingOf: row, afterName: name)) {
                grams.insert(foldedGramsOf: row)
                grams.insert(foldedGramsOf: name + " " + row)
            } else if !nameIsASCII {
                grams.insert(foldedGramsOf: name + " " + row)
            }
            switch record.body {
            case .change(let path, _):
                // A change's row is `path = value`, the value as its `description` writes it: the
                // value is in the row already, and so is its path when written as it is.
                if !row.utf8.starts(with: path.utf8) { grams.insert(gramsOf: path) }
            case let body:
                if let path = body.path { grams.insert(gramsOf: path) }
                if let value = body.value { grams.insert(gramsOf: value.description) }
            }
        }

        private mutating func take(tableText reference: Int) {
            guard tableTexts[reference] == 0 else { return }
            let text = records.strings[reference]
            tableTexts[reference] = text.utf8.allSatisfy { $0 < 0x80 } ? 1 : 2
            grams.insert(gramsOf: text)
        }
    }
}
