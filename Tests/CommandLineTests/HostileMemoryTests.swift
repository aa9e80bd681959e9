import Foundation
@_spi(Fuzzing) @_spi(Tooling) import Rewind
import TestSupport
import Testing

/// Journals a few hundred kilobytes long whose blocks each decode to hundreds of megabytes of
/// values (millions of one-field objects: a dictionary's storage for every two values): readers
/// hold one such block at a time — never one being read beside others read ahead or cached — so
/// that a reader's memory is bounded by what one block may hold (issue 63: a 196 KB journal took
/// 2.5 GB). Each command must answer or refuse within the address space it is given.
@Suite("rewind commands on journals made to exhaust memory")
struct HostileMemoryTests {
    /// A block's string table ("a"), one source and its time bases: what every payload starts with.
    static let prefix: [UInt8] = [1, 1, 0x61] + [1, 1, 0, 0, 0] + [0, 0]
    /// An activity record of the one source, before its value.
    static let activity: [UInt8] = [6, 2, 0, 0, 0, 0, 0, 0, 0]

    static func varint(_ value: Int) -> [UInt8] {
        var value = UInt64(value), bytes: [UInt8] = []
        repeat {
            bytes.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return bytes
    }

    /// A list of `count` copies of `element`'s bytes.
    static func list(_ count: Int, of element: [UInt8]) -> [UInt8] {
        var bytes = [7] + varint(count)
        bytes.reserveCapacity(bytes.count + count * element.count)
        for _ in 0..<count { bytes += element }
        return bytes
    }

    /// A journal of `blocks` copies of one events block holding one activity whose value is
    /// `value`'s bytes. One event is claimed, so every reader decodes each block, whole or not.
    static func journal(of value: [UInt8], blocks: Int) -> [UInt8] {
        let single = JournalFuzzing.journal(wrappingPayload: prefix + activity + value, claimingEvents: 1)
        // The header's length is its bytes 10 and 11 (docs/JOURNAL_FORMAT.md); the block follows.
        let headerLength = Int(single[10]) | Int(single[11]) << 8
        return Array(single[..<headerLength]) + Array(repeating: single[headerLength...], count: blocks).joined()
    }

    static let shapes: [(name: String, value: [UInt8], blocks: Int)] = [
        // Each block about 200 MB decoded; four of them would be 800 MB together.
        ("a million one-field objects in each of four blocks", list(1_000_000, of: [8, 1, 0, 0]), 4),
        // Counts that claim all a block may hold, nested as deep as a reader goes, with the bytes
        // to make them plausible after them: room reserved up front for what never comes.
        ("claimed counts, nested", (0..<63).flatMap { _ in [7] + varint(7_999_000) } + [UInt8](repeating: 0, count: 8_100_000), 1),
        ("claimed object sizes, nested", (0..<63).flatMap { _ in [8] + varint(3_999_000) + [0] } + [UInt8](repeating: 0, count: 8_100_000), 1)
    ]

    /// Whether `ulimit -v` holds here (Linux; not macOS).
    static let addressSpaceCanBeLimited = (try? CommandRunner.runShell("ulimit -v 524288").status) == 0

    @Test(
        "each is read within 512 MiB of address space by info, verify, log, export and show",
        .enabled(if: addressSpaceCanBeLimited), arguments: shapes.indices
    )
    func boundedMemory(shape: Int) throws {
        let (name, value, blocks) = Self.shapes[shape]
        let directory = TemporaryDirectory()
        let path = directory.file("hostile.rewind")
        let bytes = Self.journal(of: value, blocks: blocks)
        #expect(bytes.count < 200_000, "\(name): \(bytes.count) bytes")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let commands = [["info", path], ["verify", path], ["log", path, "--json"], ["export", path, "--format", "jsonl"], ["show", path, "--at", "1", "--json"]]
        for command in commands {
            let quoted = command.map { "'\($0)'" }.joined(separator: " ")
            let result = try CommandRunner.runShell("ulimit -v 524288 || exit 99; exec \"$REWIND\" \(quoted) > /dev/null")
            #expect([0, 1, 2].contains(result.status), "\(name): rewind \(command[0]) ended with \(result.status): \(result.standardError.prefix(300))")
            #expect(result.standardError.filter { $0 == "\n" }.count <= 2, "\(name): rewind \(command[0]): \(result.standardError.prefix(300))")
        }
    }
}
