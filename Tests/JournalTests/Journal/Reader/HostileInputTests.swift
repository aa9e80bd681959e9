import Foundation
@testable @_spi(Fuzzing) @_spi(Tooling) import Rewind
import Testing
import TestSupport

/// Crafted bytes that once crashed the reader (issue 14, items 1 and 2).
@Suite("Hostile journal input")
struct HostileInputTests {
    @Test("a string whose length runs past the end is an error, not a crash")
    func stringPastTheEnd() throws {
        // Length 5 with 4 bytes after it: the old check counted the length field's own byte.
        var reader = ByteReader([5, 97, 98, 99, 100])
        #expect(throws: JournalFormatError.self) { try reader.string() }
        var fitting = ByteReader([4, 97, 98, 99, 100])
        #expect(try fitting.string() == "abcd")
    }

    @Test("a block frame whose first step or time is above its last is not a frame")
    func invertedRanges() {
        func frame(first: UInt64, last: UInt64, firstWall: Int64 = 0, lastWall: Int64 = 0) -> BlockFrame {
            BlockFrame(type: .events, compressedLength: 1, uncompressedLength: 1, eventCount: 1, firstSequence: first, lastSequence: last, firstWallNanoseconds: firstWall, lastWallNanoseconds: lastWall, payloadCRC: 0)
        }
        #expect(BlockFrame.decode(frame(first: 1, last: 10).encoded(), at: 0) != nil)
        #expect(BlockFrame.decode(frame(first: 10, last: 1).encoded(), at: 0) == nil)
        // Found by the fuzzer: the journal's time span was formed as first...last and trapped.
        #expect(BlockFrame.decode(frame(first: 1, last: 1, firstWall: 5, lastWall: 7).encoded(), at: 0) != nil)
        #expect(BlockFrame.decode(frame(first: 1, last: 1, firstWall: 7, lastWall: 5).encoded(), at: 0) == nil)
    }
}

extension HostileInputTests {
    @Test("a diff that does not fit the state before it gives no state, not a wrong one")
    func misfittingDiff() {
        let state = StateValue.object(["count": .integer(1)])
        let misfit = StateStep.record(.diff(StateDiff(changes: [StateChange(path: StatePath([.key("missing")]), operation: .removed(.null))])))
        #expect(misfit.applied(to: state) == nil)
        let fitting = StateStep.record(.diff(StateDiff(changes: [StateChange(path: StatePath([.key("count")]), operation: .changed(from: .null, to: .integer(2)))])))
        #expect(fitting.applied(to: state) == .object(["count": .integer(2)]))
    }
}

extension HostileInputTests {
    static let regressions = Repository.path("Fuzz/Regressions")

    @Test("every input the fuzzer ever failed on reads without a crash (Fuzz/Regressions)")
    func fuzzerRegressions() throws {
        let directory = TemporaryDirectory()
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.regressions).sorted()
        #expect(!names.isEmpty)
        for name in names {
            // As the fuzzer reads its inputs: a whole file, or a block payload after a mode byte.
            let input = Array(try Data(contentsOf: URL(fileURLWithPath: Self.regressions + "/" + name)))
            let file = input.first == 0x89 ? input : JournalFuzzing.journal(wrappingPayload: Array(input.dropFirst()))
            let path = directory.file(name + ".rewind")
            try Data(file).write(to: URL(fileURLWithPath: path))
            guard let reader = try? JournalReader(path: path) else { continue }
            // What the fuzzer's harness does with each input.
            _ = (reader.lostEventCount, reader.timeSpan, reader.sequenceRange, reader.sources)
            for event in reader.events() { _ = try? reader.state(of: event.source.instanceID, at: event.sequence) }
            _ = try reader.verify()
        }
    }
}
