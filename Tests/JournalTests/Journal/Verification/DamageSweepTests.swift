import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

/// Every way a small journal can be cut short or have one bit flipped, read the way every command
/// reads (open, every event, the states, verify): no crash, no hang, and never a wrong event or
/// state — what is read back is what was recorded, or it is reported as damage (the systemd journal's
/// bit-flip test, applied to ours).
@Suite("Every truncation and every bit flip of a journal")
struct DamageSweepTests {
    static let fixture = Repository.fixture("counter")

    /// What the intact journal holds: every event, and each source's state after every event.
    struct Original {
        var bytes: [UInt8]
        var events: [UInt64: RecordedEvent] = [:]
        var states: [UInt64: StateValue] = [:]

        init() throws {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: DamageSweepTests.fixture)))
            let reader = try JournalReader(path: DamageSweepTests.fixture)
            for event in reader.events() {
                events[event.sequence] = event
                states[event.sequence] = try reader.state(of: event.source.instanceID, at: event.sequence)
            }
        }
    }

    /// Reads `bytes` as a journal and checks what comes back against the original.
    static func check(_ bytes: [UInt8], against original: Original, at path: String, _ what: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        guard let reader = try? JournalReader(path: path) else { return }
        var lastOfSource: [UInt64: UInt64] = [:]
        for event in reader.events() {
            #expect(original.events[event.sequence] == event, "\(what): step \(event.sequence) reads back different")
            lastOfSource[event.source.instanceID] = event.sequence
        }
        // The state at each source's last readable step: it is rebuilt from the whole chain of
        // keyframes, diffs and changes before it, any of which the damage may have hit.
        for (source, sequence) in lastOfSource {
            guard let state = try? reader.state(of: source, at: sequence) else { continue }
            #expect(state == original.states[sequence], "\(what): the state at step \(sequence) is wrong")
        }
        let verification = try reader.verify()
        #expect(verification.goodEvents <= original.events.count, "\(what)")
    }

    @Test("cut at every byte")
    func everyTruncation() throws {
        let original = try Original()
        let directory = TemporaryDirectory()
        for length in 0..<original.bytes.count {
            try Self.check(Array(original.bytes.prefix(length)), against: original, at: directory.file("cut.rewind"), "cut at \(length)")
        }
    }

    @Test("every bit flipped")
    func everyBitFlip() throws {
        let original = try Original()
        let directory = TemporaryDirectory()
        for offset in original.bytes.indices {
            for bit in 0..<8 {
                var flipped = original.bytes
                flipped[offset] ^= 1 << bit
                try Self.check(flipped, against: original, at: directory.file("flipped.rewind"), "bit \(bit) of byte \(offset) flipped")
            }
        }
    }
}
