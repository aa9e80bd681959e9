import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

/// A walk over a whole journal (`verify`, `recover`, opening a file without its index) reads each
/// block as an outline, building only the values a state needs; a state rebuild reads one source's
/// values. A block must read the same whichever reader reads it: accepted by all or refused by
/// all, and agreeing on what it holds — or `verify` would call a block sound that `log` refuses.
@Suite("A block reads the same to every reader")
struct BlockOutlineTests {
    static let fixtures = ["counter", "todo", "demo", "flask", "ricemill", "unio"].map { name in
        Repository.fixture(name)
    }

    /// Every events block's payload (uncompressed, so that changes reach the record reader rather
    /// than stopping at the checksum).
    static func payloads(of path: String) throws -> [[UInt8]] {
        let reader = try JournalReader(path: path)
        return try reader.blocks.map { block in try reader.payload(at: block.offset, frame: block.frame).get() }
    }

    /// Reads `payload` as a full decode, as an outline and as each source's state rebuild, and
    /// checks they agree.
    static func expectAgreement(_ payload: [UInt8], _ what: @autoclosure () -> String) {
        let full = try? BlockDecoding.events(in: payload)
        let outline = try? BlockDecoding.outline(of: payload, keepingStateRecords: true)
        #expect((full == nil) == (outline == nil), "\(what()): full decode \(full == nil ? "refuses" : "accepts"), outline \(outline == nil ? "refuses" : "accepts")")
        guard let full, let outline else { return }
        #expect(outline.eventCount == full.events.count, "\(what())")
        #expect(outline.sources == full.sources, "\(what())")
        var summaries: [UInt64: JournalBlock.SourceSpan] = [:]
        for event in full.events {
            summaries[event.source.instanceID, default: .init(eventCount: 0, firstSequence: event.sequence, lastSequence: event.sequence)].add(event.sequence)
        }
        #expect(outline.summaries == summaries, "\(what())")
        let records = full.events.compactMap { event in event.stateRecord.map { (event.source, event.sequence, $0) } }
        #expect(outline.stateRecords.map(\.record) == records.map(\.2), "\(what())")
        #expect(outline.stateRecords.map(\.sequence) == records.map(\.1), "\(what())")
        for source in Set(full.sources.map(\.instanceID)) {
            let steps = try? BlockDecoding.stateSteps(in: payload, source: source, through: .max)
            #expect(steps != nil, "\(what()): the state rebuild of source \(source) refuses a block the others accept")
            let expected = full.events.filter { $0.source.instanceID == source }.compactMap(\.stateStep)
            #expect(steps == expected, "\(what()): source \(source)'s state steps differ")
        }
    }

    @Test("the fixtures' blocks, whole")
    func wholeBlocks() throws {
        for path in Self.fixtures {
            for (index, payload) in try Self.payloads(of: path).enumerated() {
                Self.expectAgreement(payload, "\(path) block \(index)")
                #expect((try? BlockDecoding.outline(of: payload, keepingStateRecords: true)) != nil, "\(path) block \(index) reads")
            }
        }
    }

    @Test("every byte of every block changed, and every block cut short")
    func everyChange() throws {
        for path in Self.fixtures {
            for (index, payload) in try Self.payloads(of: path).enumerated() {
                for offset in payload.indices {
                    // A low bit (a count or reference one off), a high bit (a varint that goes on),
                    // and a byte no tag or kind has.
                    for change in [{ (byte: UInt8) in byte ^ 0x01 }, { $0 ^ 0x80 }, { _ in 0xFF }] {
                        var changed = payload
                        changed[offset] = change(payload[offset])
                        Self.expectAgreement(changed, "\(path) block \(index), byte \(offset) changed")
                    }
                }
                for length in 0..<payload.count {
                    Self.expectAgreement(Array(payload.prefix(length)), "\(path) block \(index) cut at \(length)")
                }
            }
        }
    }
}
