import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

/// The journal's event-kind codes are a table of their own, pinned to the format document's: a
/// reordered or new case of `Event.Category` can never change what a file means.
@Suite("Event kind codes")
struct KindCodeTests {
    /// docs/JOURNAL_FORMAT.md's "Kinds:" list, as code → name.
    static func documentedCodes() throws -> [UInt8: String] {
        let text = try String(contentsOfFile: Repository.path("docs/JOURNAL_FORMAT.md"), encoding: .utf8)
        let start = try #require(text.range(of: "Kinds: "))
        let end = try #require(text[start.upperBound...].range(of: ".\n"))
        var codes: [UInt8: String] = [:]
        for match in text[start.upperBound..<end.lowerBound].matches(of: /`(\d+)` (\w+)/) {
            codes[UInt8(match.output.1)!] = String(match.output.2)
        }
        return codes
    }

    @Test("each kind writes the code the format document gives it, and reads back from it; the next free code is the one after the last")
    func codesAreTheDocumented() throws {
        let documented = try Self.documentedCodes()
        #expect(documented.count == Event.Category.allCases.count)
        for kind in Event.Category.allCases {
            // What a record of the kind starts with, written by the one writer of records.
            var record = WireRecord(dropped: DroppedRange(count: 1, sequences: 1...1), time: EventTime(wallNanoseconds: 0, monotonicNanoseconds: 0))
            record.kind = kind
            record.body = kind == .dropped ? record.body : .none
            var writer = ByteWriter()
            var strings = StringTable()
            var clock = RecordClock(monotonicBase: 0, wallBase: 0)
            record.write(to: &writer, strings: &strings, clock: &clock)
            let code = writer.bytes[0] & 0x0F
            #expect(documented[code] == kind.rawValue, "\(kind) writes \(code), which the document gives to \(documented[code] ?? "nothing")")
            #expect(WireRecord.KindCode.kind(writer.bytes[0]) == kind)
        }
        #expect(WireRecord.KindCode.nextFree == documented.keys.max()! + 1)
        for code in WireRecord.KindCode.nextFree...15 { #expect(WireRecord.KindCode.kind(code) == nil) }
    }
}
