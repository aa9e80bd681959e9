import Testing
@_spi(Tooling) @testable import Rewind

@Suite("Key paths")
struct StatePathTests {
    @Test("paths are read the way they are written", arguments: [
        ("items[3].done", StatePath([.key("items"), .index(3), .key("done")])),
        ("user.name", StatePath([.key("user"), .key("name")])),
        ("settings[\"dark mode\"]", StatePath([.key("settings"), .key("dark mode")])),
        ("\\State.items[0]", StatePath([.key("items"), .index(0)])),
        (".count", StatePath([.key("count")])),
        ("[2][0]", StatePath([.index(2), .index(0)])),
        ("", StatePath.root),
    ])
    func parsing(text: String, expected: StatePath) throws {
        #expect(try StatePath(parsing: text) == expected)
    }

    @Test("a recorded change's path reads as the parser reads it, optionals looked through", arguments: [
        "count", "inner.name", "a1.b_2", "_x", "Count.Z9", "opt?.name", "opt!.name", "items[3].done", "items[…].done",
        "1abc", "a.1", "a..b", ".a", "a.", "名前.x", "settings[\"dark mode\"]", "", "a-b", "a b",
    ])
    func recordedChangePaths(text: String) {
        let parsed = text.contains("…") ? nil : try? StatePath(parsing: text.filter { $0 != "?" && $0 != "!" })
        #expect(StatePath(recordedChange: text) == parsed, "\(text)")
    }

    @Test("a recorded change's path reads as the parser reads it: list positions, and texts made of the characters paths are made of")
    func recordedChangePathsAtRandom() {
        let alphabet: [Character] = ["a", "Z", "_", "0", "7", ".", "[", "]", "?", "!", "\"", " ", "é"]
        // A fixed sequence (a linear congruential generator), so a failure is the same on every run.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let indexed = ["items[33]", "items[0][12].x", "a[007].b", "a[]", "a[3", "a[3]b", "a[3].", "[3].a", "a[-1]", "a[1234567890123456789]"]
        let random = (0..<20_000).map { _ in String((0..<next(12)).map { _ in alphabet[next(alphabet.count)] }) }
        for text in indexed + random {
            let parsed = try? StatePath(parsing: text.filter { $0 != "?" && $0 != "!" })
            #expect(StatePath(recordedChange: text) == parsed, "\(text)")
        }
    }

    @Test("printing a path gives text that reads back to the same path")
    func roundTrip() throws {
        for path in [StatePath([.key("items"), .index(3), .key("done")]), StatePath([.key("a b"), .key("q\"uote")]), StatePath([.index(1)])] {
            #expect(try StatePath(parsing: path.description) == path)
        }
    }

    @Test("malformed paths are rejected with the position", arguments: ["items[", "items[x]", "a..b", "a.", "items]", "[\"open"])
    func malformed(text: String) {
        #expect(throws: StatePathSyntaxError.self) { try StatePath(parsing: text) }
    }

    @Test("Swift key path descriptions become paths relative to the root")
    func keyPathNames() {
        struct Inner { var name = "" }
        struct State { var inner = Inner(); var items = [1]; var optional: Inner? }
        #expect(ChangedPath(\State.inner.name).description == "inner.name")
        #expect(ChangedPath(\State.items).description == "items")
        #expect(ChangedPath(\State.optional?.name).description == "optional?.name?")
        #expect(ChangedPath(\State.items[0]).description == "items[…]")
        #expect(KeyPathNames.relativeName("\\Wrapper<Swift.Int>.value") == "value")
        #expect(ChangedPath(name: "info.nest.foo").description == "info.nest.foo")
    }

    @Test("control characters in text are shown, never sent")
    func visibleText() {
        #expect(VisibleText.escaped("plain") == "plain")
        #expect(VisibleText.escaped("a\u{1B}[31mb\n\u{7}") == "a\\u{1B}[31mb\\n\\u{7}")
        #expect(VisibleText.quoted("say \"hi\"\t") == "\"say \\\"hi\\\"\\t\"")
        #expect(!VisibleText.escaped("\u{9B}2J").unicodeScalars.contains { VisibleText.isControl($0) })
    }
}
