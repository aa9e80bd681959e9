import Foundation
import Testing
@_spi(Tooling) @testable import Rewind

/// The command line's number and JSON text is made without `String(format:)` and without building
/// strings piece by piece, for speed; these check it is still exactly what those wrote.
@Suite("Text formatting")
struct TextFormattingTests {
    @Test("the byte check that lets text with arrows skip the scalar scan never misses a control")
    func controlPrecheck() {
        // Every control the terminal must not receive, among text that is not ASCII.
        for value in UInt32(0)...0x2100 {
            guard let scalar = Unicode.Scalar(value), VisibleText.isControl(scalar), scalar != "\n", scalar != "\t" else { continue }
            let text = "count: 0 → 1 café " + String(scalar) + " ✓"
            #expect(VisibleText.mayHoldControl(text), "U+\(String(value, radix: 16))")
            #expect(!VisibleText.terminalSafe(text).unicodeScalars.contains(scalar), "U+\(String(value, radix: 16))")
        }
        #expect(VisibleText.mayHoldControl("a\u{061C}b"))
        // Text whose bytes start with a control's lead byte but are not one: a micro sign and
        // guillemets (`C2 B5`, `C2 AB`), an Arabic semicolon (`D8 9B`, beside U+061C's `D8 9C`).
        for safe in ["count: 0 → 1", "café", "名前 = \"x\"", "items +[id: 5] \"Tea\"", "a\tb\nc", "68.7µs", "«a»", "a؛b"] {
            #expect(!VisibleText.mayHoldControl(safe), "\(safe)")
            #expect(VisibleText.terminalSafe(safe) == safe)
        }
        // U+2000–U+207F share their lead bytes with the bidirectional controls: scanned, and kept.
        #expect(VisibleText.mayHoldControl("• …") && VisibleText.terminalSafe("• …") == "• …")
    }

    @Test("the byte check over a line's bytes, eight at a time, finds a control at every place in the line")
    func controlPrecheckOverLines() {
        let line = Array("#12    +00:00.012 Counter#1 change    add step         Counter.swift:21          count: 0 → 1".utf8)
        #expect(!VisibleText.mayHoldControl(utf8: line))
        // Every byte a control can start with, at every offset: in the first word, mid-line, last.
        for lead: [UInt8] in [[0x00], [0x01], [0x1B], [0x1F], [0x7F], [0xC2, 0x85], [0xD8, 0x9C], [0xE2, 0x80, 0x8E], [0xE2, 0x81, 0xA6]] {
            for offset in 0...line.count {
                var bytes = line
                bytes.insert(contentsOf: lead, at: offset)
                #expect(VisibleText.mayHoldControl(utf8: bytes), "\(lead) at \(offset)")
            }
        }
        // Bytes next to the ones looked for, in every place of a word, are not controls.
        for neighbour: UInt8 in [0x20, 0x7E, 0x0A, 0x09] {
            for offset in 0...16 {
                var bytes = Array("abcdefghijklmnopqrstuvwx".utf8)
                bytes.insert(neighbour, at: offset)
                #expect(!VisibleText.mayHoldControl(utf8: bytes), "\(neighbour) at \(offset)")
            }
        }
    }

    @Test("integers in JSON are written digit by digit as String writes them, at every edge")
    func jsonIntegers() {
        let values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 1_234_567, -9_876_543_210, .max, .min, .max - 1, .min + 1]
        for value in values {
            #expect(JSONText.value(.integer(value)) == String(value))
            #expect(JSONText.object { $0.field("n", Int(value)) } == "{\"n\":\(value)}")
        }
        for value: UInt64 in [0, 7, UInt64(Int64.max), UInt64(Int64.max) + 1, .max] {
            #expect(JSONText.object { $0.field("n", value) } == "{\"n\":\(value)}")
            #expect(JSONText.object { $0.field("n", Optional(value)) } == "{\"n\":\(value)}")
        }
        #expect(JSONText.object { $0.field("n", UInt64?.none) } == "{\"n\":null}")
        #expect(JSONText.object { $0.field("n", UInt(42)) } == "{\"n\":42}")
        #expect(JSONText.object { $0.field("n", Int8(-5)) } == "{\"n\":-5}")
    }

    @Test("durations read as String(format:) writes them, ties and unit boundaries included")
    func durationsMatchFoundation() {
        var nanoseconds: [Int64] = [0, 1, 999, 1_000, 1_049, 1_050, 1_150, 1_250, 12_345, 999_949, 999_950, 999_999, 1_000_000,
                                    1_050_000, 2_250_000, 999_950_000, 999_999_999, 1_000_000_000, 1_005_000_000, 1_015_000_000, 86_400_000_000_000]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 { nanoseconds.append(Int64.random(in: 0...5_000_000_000, using: &generator)) }
        for value in nanoseconds {
            let duration = Duration.nanoseconds(value)
            #expect(EventFormatter.format(duration) == EventFormatter.formatWithFoundation(duration), "\(value) ns")
        }
        // Fractions of a nanosecond take Foundation's path.
        let fraction = Duration(secondsComponent: 0, attosecondsComponent: 1_500_000_000_000)
        #expect(EventFormatter.format(fraction) == "1.5µs")
    }

    @Test("elapsed times and timestamps are zero-padded as %02d and %06d would")
    func paddedNumbers() {
        #expect(EventFormatter.elapsed(nanoseconds: 0) == "+00:00.000")
        #expect(EventFormatter.elapsed(nanoseconds: 61_234_000_000) == "+01:01.234")
        #expect(EventFormatter.elapsed(nanoseconds: 6_000_000_000_000) == "+100:00.000")
        #expect(EventFormatter.elapsed(nanoseconds: -5) == "+00:00.000")
        #expect(TimestampText.format(Date(timeIntervalSince1970: 0.000001)) == "1970-01-01T00:00:00.000001Z")
        // Far from 1970 microseconds are not all representable: whatever the split gives, the
        // text is the format's, and nothing traps.
        for seconds in stride(from: 253_402_300_799.0, to: 253_402_300_800.0, by: 0.0625) {
            let date = Date(timeIntervalSince1970: seconds)
            let total = (date.timeIntervalSince1970 * 1_000_000).rounded()
            var whole = Int(floor(total / 1_000_000))
            var parts = tm()
            gmtime_r(&whole, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(total - Double(whole) * 1_000_000)
            )
            #expect(TimestampText.format(date) == expected, "\(seconds)")
        }
        #expect(TimestampText.format(Date(timeIntervalSince1970: 1_795_000_000.5)) == "2026-11-18T11:06:40.500000Z")
    }

    @Test("JSON strings: plain ASCII as it is, quotes, backslashes, controls and bidi controls escaped, other Unicode kept")
    func jsonStrings() {
        #expect(JSONText.string("plain text 123") == #""plain text 123""#)
        #expect(JSONText.string("a\"b\\c\nd\te\r") == #""a\"b\\c\nd\te\r""#)
        #expect(JSONText.string("\u{1B}[2J\u{202E}é🎉") == #""\u001b[2J\u202eé🎉""#)
        let object = JSONText.object {
            $0.field("seq", 3)
            $0.field("name", "x\"y")
            $0.field("state", StateValue.object(["items": .array([.integer(-1), .bool(true), .null, .string("é")])]))
            $0.field("parent", nil as UInt64?)
        }
        #expect(object == #"{"seq":3,"name":"x\"y","state":{"items":[-1,true,null,"é"]},"parent":null}"#)
    }

    @Test("objects streamed into one buffer: each written in place after the last, fields encoded once written again, arrays of objects nested")
    func jsonObjectsStreamedIntoOneBuffer() {
        let fields = JSONText.buildObject { object in
            object.field("schema_version", 2)
            object.field("id", "a\"b")
        }
        let common = fields.encodedFields
        #expect(String(decoding: common, as: UTF8.self) == #""schema_version":2,"id":"a\"b""#)
        var buffer = Array("prefix ".utf8)
        for row in 0..<2 {
            var object = JSONText.Object(continuing: &buffer)
            #expect(buffer.isEmpty, "the object holds the buffer while it is written")
            object.append(encodedFields: common)
            object.field("row", row)
            object.array("list", of: [1, 2]) { item, number in
                item.field("n", number * (row + 1))
            }
            object.array("none", of: [Int]()) { _, _ in }
            object.close(into: &buffer)
            buffer.append(0x0A)
        }
        let expected = #"""
            prefix {"schema_version":2,"id":"a\"b","row":0,"list":[{"n":1},{"n":2}],"none":[]}
            {"schema_version":2,"id":"a\"b","row":1,"list":[{"n":2},{"n":4}],"none":[]}

            """#
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
        // Encoded fields first or alone, and none at all, keep the commas right.
        var alone: [UInt8] = []
        var object = JSONText.Object(continuing: &alone)
        object.append(encodedFields: [])
        object.append(encodedFields: common)
        object.close(into: &alone)
        #expect(String(decoding: alone, as: UTF8.self) == #"{"schema_version":2,"id":"a\"b"}"#)
    }

    @Test("a value cut to a limit is counted in characters as it reads: a field's name and its colon together")
    func compactCountsCharacters() {
        // U+0D4E (a letter that joins what follows it) makes one character of itself and the colon.
        let reph = StateValue.object(["a\u{0D4E}": .integer(1)])
        #expect(reph.compactDescription(limit: 6) == "{a\u{0D4E}: 1}")
        #expect(reph.compactDescription(limit: 5) == "{a\u{0D4E}: …")
        let list = StateValue.array([.string("abcdef"), .integer(12345), .bool(true)])
        #expect(list.compactDescription(limit: 8) == "[\"abcde…")
        #expect(list.compactDescription(limit: .max) == "[\"abcdef\", 12345, true]")
        var bytes = Array("x = ".utf8)
        list.writeCompact(limit: 8, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x = [\"abcde…")
    }

    @Test("a state's own field named with a leading $ gets one more, whatever follows it")
    func jsonDollarKeys() {
        let state = StateValue.object(["$opaque": .integer(1), "$\u{301}x": .integer(2), "a$": .integer(3)])
        #expect(JSONText.value(state) == "{\"$$opaque\":1,\"$$\u{301}x\":2,\"a$\":3}")
    }

    enum CounterAction: Codable { case increment, setEnabled(Bool), add(sku: String, quantity: Int), move(Int, Int), typeUser(String) }
    struct Point: Codable { var x = 1 }

    @Test("a dispatch's or activity's enum case reads as its payload: no repeated name, no {_0: …}")
    func payloadWithoutNoise() {
        func shown(_ value: some Any, sentAs name: String) -> String {
            StateCapture.capture(value).payloadDescription(sentAs: name, limit: 80)
        }
        #expect(shown(CounterAction.increment, sentAs: "increment") == "")
        #expect(shown(CounterAction.setEnabled(true), sentAs: "setEnabled") == "true")
        #expect(shown(CounterAction.add(sku: "A1", quantity: 2), sentAs: "add") == #"(sku: "A1", quantity: 2)"#)
        #expect(shown(CounterAction.move(1, 2), sentAs: "move") == "(1, 2)")
        // Under another name (an activity, an input named for its relay), the case leads.
        #expect(shown(CounterAction.typeUser("ada"), sentAs: "") == #"typeUser "ada""#)
        #expect(shown(CounterAction.increment, sentAs: "") == "increment")
        #expect(shown(CounterAction.add(sku: "A1", quantity: 2), sentAs: "") == #"add (sku: "A1", quantity: 2)"#)
        // Values that are not enum cases read as before.
        #expect(shown("swift", sentAs: "searchText") == #""swift""#)
        #expect(shown(Point(), sentAs: "moved") == "{x: 1}")
        // Cut at the limit like any value.
        #expect(StateCapture.capture(CounterAction.typeUser(String(repeating: "a", count: 200))).payloadDescription(sentAs: "", limit: 20).count == 20)
    }

    struct Item: Codable { var id: Int; var title: String; var done = false }

    @Test("a whole-list change reads as what changed in it: an element's field, an element added or removed, and how many more")
    func wholeListChangeSummary() {
        func list(_ items: [Item]) -> StateValue { StateCapture.capture(items) }
        let before = [Item(id: 1, title: "Milk"), Item(id: 2, title: "Eggs"), Item(id: 3, title: "Bread")]
        func summary(_ after: [Item]) -> String? {
            ChangeText.text(path: "items", old: list(before), new: list(after), limit: 80)
        }
        var toggled = before
        toggled[1].done = true
        #expect(summary(toggled) == "items[id: 2].done: false → true")
        #expect(summary(before + [Item(id: 5, title: "Tea")]) == #"items +[id: 5] "Tea""#)
        #expect(summary([before[0], before[1]]) == #"items −[id: 3] "Bread""#)
        var renamed = before
        renamed[0].title = "Oat milk"
        #expect(summary(renamed) == #"items[id: 1].title: "Milk" → "Oat milk""#)
        var several = toggled
        several[0].title = "Oat milk"
        several.append(Item(id: 6, title: "Jam"))
        #expect(summary(several)?.hasSuffix("(+2 more)") == true)
        #expect(summary(before) == "items: unchanged")
        // Lists without ids are named by position; scalars are left to `old → new`.
        #expect(ChangeText.text(path: "tags", old: .array([.string("a")]), new: .array([.string("a"), .string("b")]), limit: 80) == #"tags +[1] "b""#)
        #expect(ChangeText.text(path: "count", old: .integer(1), new: .integer(2), limit: 80) == nil)
    }
}
