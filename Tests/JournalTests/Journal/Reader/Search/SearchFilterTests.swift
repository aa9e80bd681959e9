import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import RewindViewer
import Testing

@Suite("Search filters")
struct SearchFilterTests {
    struct Note: Codable { var title: String; var count: Int; var tags: [String] }

    final class Notebook: CyclerType, Sendable {
        let state: Storage<Note> = .init(Note(title: "", count: 0, tags: []))
    }

    /// Texts with what case-insensitive search makes hard: mixed case, numbers inside numbers,
    /// letters whose case folding is not one-to-one (ß → ss, the Kelvin sign → k), accents, emoji.
    static let pieces = ["Milk", "milk", "MILK", "Straße", "STRASSE", "\u{212A}elvin", "kelvin", "café", "CAFÉ", "🎉 party",
                         "item", "Item 42", "count=1234567", "1999990", "999990", "x_y", "a-b", "Ünïcödé", "tab\tbed", "ǅemal"]

    @Test("a search finds a text exactly where Foundation's case-insensitive search finds it")
    func searchedTextAgreesWithFoundation() {
        let rowNeedles = ["9S", "1 ", " 2", "µ", "μ", "…", "...", "mu"]
        let needles = Self.pieces + rowNeedles + ["", "k", "K", "ss", "SS", "é", "É", "42", "9999", "LK", "m", "tab\t", "x_Y", "zzz"]
        // Rows' own letters beyond ASCII (a duration's µ, a move's arrow, a cut value's ellipsis),
        // beside letters that fold.
        let rows = ["1.9µs", "count: 1 → 2", "[1, 2, …]", "µs ß", "→\u{301}2", "1.9\u{3BC}s"]
        for haystack in Self.pieces + rows + ["", "Milk and CAFÉ", "count=1234567 Item 42", "\u{1B}[31mred"] {
            for needle in needles {
                let expected = needle.isEmpty || haystack.range(of: needle, options: .caseInsensitive) != nil
                #expect(SearchedText(needle).isFound(in: haystack) == expected, "\(needle) in \(haystack)")
            }
        }
    }

    @Test("the letters beyond ASCII that filters fold themselves fold as Foundation folds them")
    func knownFoldingsAreFoundations() {
        for (scalar, folding) in NGramFilter.Grams.knownFoldings {
            let folded = String(scalar).folding(options: .caseInsensitive, locale: nil)
            #expect(String(folding) == folded, "U+\(String(scalar.value, radix: 16))")
            #expect(!folding.isASCII && folding.properties.canonicalCombiningClass == .notReordered)
        }
    }

    /// Records a session of random titles, counts and tags into small blocks.
    static func record(to path: String, seed: UInt64) throws -> Int {
        var configuration = JournalConfiguration()
        configuration.blockSize = 1_024
        let journal = try JournalLogger(path: path, configuration: configuration)
        let notebook = Notebook()
        notebook.set(logger: journal)
        var generator = SplitMix(seed: seed)
        let steps = 600
        for step in 0..<steps {
            let piece = pieces[Int(generator.next() % UInt64(pieces.count))]
            switch generator.next() % 3 {
            // An empty name now and then: a row whose name is empty (`1.9µs`) is folded after a space.
            case 0 where step % 40 == 0: notebook.commit("") { $0.update("\(piece) \(step)", \.title) }
            case 0: notebook.commit("title \(piece)") { $0.update("\(piece) \(step)", \.title) }
            case 1: notebook.commit("count") { $0.update(Int(generator.next() % 2_000_000), \.count) }
            default: notebook.commit("tag") { $0.update($0.value.tags.suffix(3) + [piece], \.tags) }
            }
        }
        journal.close()
        return steps
    }

    /// Literals to look for: pieces of recorded text with their case changed, numbers, and text
    /// that is nowhere.
    static func literals(_ generator: inout SplitMix, from events: [RecordedEvent]) -> [String] {
        var literals = ["ss", "SSE", "strasse", "kelvin", "KELVIN", "CAFÉ", "café", "1234567", "999990", "99999", "nowhere at all", "zzz"]
        let texts = events.flatMap { $0.searchableTexts }.filter { !$0.isEmpty }
        for _ in 0..<100 {
            let text = Array(texts[Int(generator.next() % UInt64(texts.count))])
            let length = 3 + Int(generator.next() % 6)
            guard text.count >= length else { continue }
            let start = Int(generator.next() % UInt64(text.count - length + 1))
            var literal = String(text[start..<start + length])
            if generator.next() % 2 == 0 { literal = literal.uppercased() }
            literals.append(literal)
        }
        return literals
    }

    @Test("a search never skips a block that holds a match: random journals, random literals, log's and the viewer's matching, filters made fresh and read back from the file")
    func neverSkipsAMatch() throws {
        let directory = TemporaryDirectory()
        for seed in 1...3 as ClosedRange<UInt64> {
            let path = directory.file("notes-\(seed).rewind")
            _ = try Self.record(to: path, seed: seed)
            var generator = SplitMix(seed: seed &* 7919)
            let all = try JournalReader(path: path).allEvents()
            let literals = Self.literals(&generator, from: all)
            // First with filters made while reading, then with the filters saved beside the journal.
            for pass in ["made", "saved"] {
                let reader = try JournalReader(path: path)
                #expect(reader.blocks.count > 10)
                for literal in literals {
                    let expected = all.filter { EventFilter(text: literal).matches($0) }.map(\.sequence)
                    let found = Array(reader.events(matching: EventFilter(text: literal))).map(\.sequence)
                    #expect(found == expected, "\(pass): log --grep \(literal)")
                    // The viewer's `/`: the literal, and regular expressions made from it (its
                    // middle character any character, or optional), judged by their required text.
                    let escaped = NSRegularExpression.escapedPattern(for: literal)
                    let middle = escaped.index(escaped.startIndex, offsetBy: escaped.count / 2)
                    let expressions = ["~" + escaped, "~" + escaped[..<middle] + "." + escaped[escaped.index(after: middle)...],
                                       "~" + escaped[...middle] + "?" + escaped[escaped.index(after: middle)...]]
                    for text in [literal] + expressions {
                        guard let query = try? SearchQuery(text), let required = query.requiredText else { continue }
                        for block in reader.blocks.indices where try reader.events(inBlock: block).contains(where: query.matches) {
                            #expect(reader.searchFilter(ofBlock: block, mayContain: required) != false, "\(pass): / \(text) in block \(block)")
                        }
                    }
                }
                reader.saveSearchIndex()
                #expect(FileManager.default.fileExists(atPath: path + ".search"))
            }
        }
    }

    @Test("a block's filter made from its records is the filter of its events' texts: every fixture, random journals with letters that fold")
    func filterFromRecordsIsTheFilterOfEvents() throws {
        let directory = TemporaryDirectory()
        var files = [
            "counter", "todo", "demo", "flask", "ricemill", "unio", "todo-format-1", "todo-torn-tail", "counter-flipped-byte",
            "demo-truncated-index"
        ].map { "Fixtures/\($0).rewind" }
        for seed in 1...3 as ClosedRange<UInt64> {
            files.append(directory.file("notes-\(seed).rewind"))
            _ = try Self.record(to: files.last!, seed: seed)
        }
        for file in files {
            let reader = try JournalReader(path: file)
            var compared = 0
            for block in reader.blocks {
                let records = reader.decodeRecords(at: block.offset, frame: block.frame)
                let decoded = reader.decodeBlock(at: block.offset, frame: block.frame)
                guard case .success(let records) = records, case .success(let decoded) = decoded else { continue }
                let fromEvents = NGramFilter(texts: decoded.events.flatMap(\.searchableTexts))
                #expect(NGramFilter(records: records) == fromEvents, "\(file): block at \(block.offset)")
                compared += 1
            }
            #expect(compared > 0, "\(file)")
        }
    }

    @Test("filters let a search skip blocks: a number that occurs once is looked for in its block alone")
    func skipsBlocks() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("notes.rewind")
        _ = try Self.record(to: path, seed: 9)
        let reader = try JournalReader(path: path)
        let target = try #require(reader.allEvents().last { $0.path == "count" })
        let literal = target.value!.description
        _ = Array(reader.events(matching: EventFilter(text: literal)))
        let mayHold = reader.blocks.indices.filter { reader.searchFilter(ofBlock: $0, mayContain: literal) != false }
        let home = try #require(try reader.location(ofSequence: target.sequence))
        #expect(mayHold.contains(home.block))
        #expect(mayHold.count <= 2, "blocks not skipped: \(mayHold.count) of \(reader.blocks.count)")
    }

    @Test("a search index file that is damaged, truncated or from another journal is ignored: searches read more, never miss")
    func damagedIndexFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("notes.rewind")
        _ = try Self.record(to: path, seed: 3)
        let reader = try JournalReader(path: path)
        _ = Array(reader.events(matching: EventFilter(text: "milk")))
        reader.saveSearchIndex()
        let saved = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + ".search")))
        let expected = Array(reader.events(matching: EventFilter(text: "kelvin"))).map(\.sequence)
        var generator = SplitMix(seed: 5)
        var variants: [[UInt8]] = [[], Array(saved.prefix(saved.count / 2)), saved + [0]]
        for _ in 0..<20 {
            var flipped = saved
            let index = Int(generator.next() % UInt64(flipped.count))
            flipped[index] ^= UInt8(1 << (generator.next() % 8))
            variants.append(flipped)
        }
        // Another journal's index: offsets may agree, checksums do not.
        let other = directory.file("other.rewind")
        _ = try Self.record(to: other, seed: 4)
        let otherReader = try JournalReader(path: other)
        _ = Array(otherReader.events(matching: EventFilter(text: "milk")))
        otherReader.saveSearchIndex()
        variants.append(try [UInt8](Data(contentsOf: URL(fileURLWithPath: other + ".search"))))
        for variant in variants {
            try Data(variant).write(to: URL(fileURLWithPath: path + ".search"))
            let fresh = try JournalReader(path: path)
            #expect(Array(fresh.events(matching: EventFilter(text: "kelvin"))).map(\.sequence) == expected)
        }
    }

    @Test("the search index file is as private as the journal, and one someone else could have written is not trusted")
    func indexFileTrust() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("notes.rewind")
        _ = try Self.record(to: path, seed: 3)
        let reader = try JournalReader(path: path)
        let expected = Array(reader.events(matching: EventFilter(text: "kelvin"))).map(\.sequence)
        #expect(!expected.isEmpty)
        reader.saveSearchIndex()
        let attributes = try FileManager.default.attributesOfItem(atPath: path + ".search")
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "written with the journal's mode")

        // A well-formed file whose filters say "nothing here" for every block hides every match —
        // so it is used only when its owner and mode say it is the journal owner's own.
        let hiding = SearchIndex.encode(Dictionary(uniqueKeysWithValues: reader.blocks.map {
            ($0.offset, (checksum: $0.frame.payloadCRC, filter: NGramFilter(words: [UInt64](repeating: 0, count: 8))!))
        }))
        let indexPath = path + ".search"
        func install(mode: mode_t, owner: uid_t? = nil, asLinkTo target: String? = nil) throws {
            unlink(indexPath)
            if let target {
                try Data(hiding).write(to: URL(fileURLWithPath: target))
                try FileManager.default.createSymbolicLink(atPath: indexPath, withDestinationPath: target)
                return
            }
            try Data(hiding).write(to: URL(fileURLWithPath: indexPath))
            chmod(indexPath, mode)
            if let owner { chown(indexPath, owner, getgid()) }
        }
        func found() throws -> [UInt64] {
            Array(try JournalReader(path: path).events(matching: EventFilter(text: "kelvin"))).map(\.sequence)
        }
        try install(mode: 0o666)
        #expect(try found() == expected, "a file anyone may write is ignored")
        try install(mode: 0o620)
        #expect(try found() == expected, "a file the group may write is ignored (the journal is 0600)")
        try install(mode: 0o600, asLinkTo: directory.file("elsewhere"))
        #expect(try found() == expected, "a symbolic link is ignored")
        if getuid() == 0 {
            try install(mode: 0o600, owner: 4242)
            #expect(try found() == expected, "another user's file is ignored")
        }
        try install(mode: 0o600)
        #expect(try found().isEmpty, "the owner's own file is trusted (it could as well have changed the journal)")
    }
}
