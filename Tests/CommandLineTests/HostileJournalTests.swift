import Foundation
@_spi(Fuzzing) @_spi(Tooling) import Rewind
import TestSupport
import Testing

/// Journals made to hurt: every recorded string hostile, length and count fields at their extremes,
/// damage in every part of the file — through every command, as a user would run them. Each must
/// end with exit 0, 1 or 2 (never a crash), write no control character but `\n` and `\t`, and
/// `info` must say what `verify` says.
@Suite("rewind commands on hostile journals")
struct HostileJournalTests {
    /// A terminal title, a clipboard write (OSC 52), a screen clear, a right-to-left override and a
    /// C1 control: each would act on a terminal if it reached one raw.
    static let hostile = "\u{1B}]0;owned\u{07}\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J\u{202E}txt.exe\u{9B}"

    /// Every command that reads a journal, with the arguments each needs.
    static func commands(for path: String, at step: UInt64, output: String) -> [[String]] {
        [
            ["info", path], ["info", path, "--json"], ["verify", path], ["log", path], ["log", path, "--json"],
            ["log", path, "--grep", "owned"], ["show", path, "--at", String(step)], ["show", path, "--at", String(step), "--json"],
            ["export", path, "--format", "jsonl"], ["export", path, "--format", "json"], ["blame", path, "name"],
            ["diff", path, String(step), String(step + 1)], ["diff", path, path], ["recover", path, "-o", output],
        ]
    }

    /// Runs every command on `path` and checks the promises every command keeps.
    static func expectSafe(_ path: String, _ what: String) throws {
        let step = (try? JournalReader(path: path).sequenceRange?.lowerBound) ?? 1
        let output = path + ".recovered"
        defer { try? FileManager.default.removeItem(atPath: output) }
        for arguments in commands(for: path, at: step, output: output) {
            let result = try CommandRunner.run(arguments)
            let name = "\(what): rewind \(arguments[0])"
            #expect([0, 1, 2].contains(result.status), "\(name) ended with \(result.status): \(result.standardError)")
            let written = result.standardOutput + result.standardError
            let control = written.unicodeScalars.first { $0 != "\n" && $0 != "\t" && VisibleText.isControl($0) }
            #expect(control == nil, "\(name) wrote U+\(String(control?.value ?? 0, radix: 16))")
        }
        try expectInfoAgreesWithVerify(path, what)
    }

    static func expectInfoAgreesWithVerify(_ path: String, _ what: String) throws {
        let verify = try CommandRunner.run(["verify", path])
        let info = try CommandRunner.run(["info", path, "--json"])
        guard verify.status != 2 else { return }  // not a journal at all: both refuse it
        let object = try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any]
        #expect(object?["clean"] as? Bool == (verify.status == 0), "\(what): info says clean=\(object?["clean"] ?? "?"), verify exits \(verify.status)")
    }

    @Test("every recorded string hostile: framework, type, label, name, description, call site, path, keys, values")
    func hostileStrings() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("hostile.rewind")
        let journal = try JournalLogger(path: path)
        let hostile = Self.hostile
        let channel = EventChannel(source: EventSource(framework: .init(rawValue: hostile), typeName: hostile, label: hostile))
        let site = CallSite(file: "\u{1B}]0;file\u{07}\u{202E}.swift", function: "\u{1B}[2Jfunction()", line: 7)
        let state = ["name": hostile, hostile: "key", "list": hostile]
        channel.emit(.created(state: LoggedValue(state)), name: hostile, description: hostile, callSite: site, to: journal)
        channel.emit(.willDispatch(input: LoggedValue(hostile)), name: hostile, description: hostile, callSite: site, to: journal)
        var changed = state
        changed["name"] = hostile + "2"
        channel.emit(.change(path: ChangedPath(name: "name"), value: LoggedValue(hostile + "2"), state: LoggedValue(changed)), name: hostile, callSite: site, to: journal)
        channel.emit(.change(path: ChangedPath(name: hostile), value: LoggedValue(hostile), state: nil), name: hostile, callSite: site, to: journal)
        channel.emit(.activity(LoggedValue(hostile)), name: hostile, description: hostile, callSite: site, to: journal)
        journal.close()
        try Self.expectSafe(path, "hostile strings")
        // Escaped, not dropped: the reader sees what was recorded.
        for arguments in [["info", path], ["log", path]] {
            let output = try CommandRunner.run(arguments).standardOutput
            #expect(output.contains("\\u{1B}]0;owned") && output.contains("\\u{202E}"), "rewind \(arguments[0])")
        }
    }

    @Test("a flight recorder's ring of hostile strings — as written, then torn inside a block, then cut short — is read safely by every command")
    func hostileRing() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("hostile.rewind-ring")
        var configuration = FlightRecorder.Configuration()
        configuration.maximumBytes = 64 << 10
        configuration.journal.blockSize = 2 * 1024
        let recorder = try FlightRecorder(path: path, configuration: configuration)
        let hostile = Self.hostile
        let channel = EventChannel(source: EventSource(framework: .init(rawValue: hostile), typeName: hostile, label: hostile))
        let site = CallSite(file: "\u{1B}]0;file\u{07}\u{202E}.swift", function: "\u{1B}[2Jfunction()", line: 7)
        channel.emit(.created(state: LoggedValue(["name": hostile])), name: hostile, description: hostile, callSite: site, to: recorder)
        // Text that compresses little, so that the ring goes round.
        for number in 0..<1_500 {
            let code = Self.code(number)
            channel.emit(.replace(state: LoggedValue(["name": hostile + code, hostile: code])), name: hostile, callSite: site, to: recorder)
        }
        recorder.close()
        let ring = try JournalReader(path: path)
        // These replaces change all of the state, so every step is a keyframe: blocks still seal
        // by size, the ring goes round, and it keeps a run of whole blocks ending at the last event.
        let window = try #require(ring.ring)
        #expect(window.blockCount > 4 && ring.eventCount > 100 && ring.eventCount < 1_501, "\(window), \(ring.eventCount) events, \(recorder.statistics)")
        let last = try #require(try ring.events(inBlock: ring.blocks.count - 1).last)
        let lastState = try ring.state(of: last.source.instanceID, at: last.sequence)
        #expect(String(describing: lastState).contains(Self.code(1_499)), "\(String(describing: lastState))")
        try Self.expectSafe(path, "hostile ring")

        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        for offset in stride(from: bytes.count / 3, to: bytes.count / 3 + 64, by: 1) { bytes[offset] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try Self.expectSafe(path, "torn hostile ring")
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: path))
        try Self.expectSafe(path, "cut hostile ring")
    }

    /// Text that compresses little, different for each number.
    private static func code(_ number: Int) -> String {
        (0..<10).map { String((UInt64(number) &* 31 &+ UInt64($0)) &* 0x9E37_79B9_7F4A_7C15, radix: 36) }.joined()
    }

    @Test("length, count and reference fields at their extremes")
    func extremeFields() throws {
        let directory = TemporaryDirectory()
        // The largest varint (2^64 - 1), and the largest that is still a valid Int.
        let largest: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        let largestInt: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        // A well-formed block: one string, one source, time bases, one activity record.
        let strings: [UInt8] = [1, 1, 0x61]
        let sources: [UInt8] = [1, 1, 0, 0, 0]
        let bases: [UInt8] = [0, 0]
        let activity: [UInt8] = [6, 2, 0, 0, 0, 0, 0, 0, 0, 0]
        let payloads: [String: [UInt8]] = [
            "well-formed": strings + sources + bases + activity,
            "string count": largest + [1, 0x61],
            "string length": [1] + largest + [0x61],
            "string length past the end": [1, 5, 0x61],
            "source count": strings + largestInt + [1, 0, 0, 0],
            "source string reference": strings + [1, 1] + largest + [0, 0] + bases,
            "label reference": strings + [1, 1, 0, 0] + largest + bases,
            "sequence delta": strings + sources + bases + [6] + largest + [0, 0, 0, 0, 0, 0, 0, 0, 0],
            "time bases": strings + sources + largest + largest + activity,
            "source reference": strings + sources + bases + [6, 2, 0, 0] + largest + [0, 0, 0, 0, 0, 0],
            "line": strings + sources + bases + [6, 2, 0, 0, 0, 0, 0, 0] + largest + [0, 0],
            "parent delta": strings + sources + bases + [0x16, 2, 0, 0, 0, 0, 0, 0, 0] + largest + [0],
            "array count": strings + sources + bases + [6, 2, 0, 0, 0, 0, 0, 0, 0, 7] + largest,
            "object count": strings + sources + bases + [6, 2, 0, 0, 0, 0, 0, 0, 0, 8] + largest,
            "nesting": strings + sources + bases + [6, 2, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 7, count: 600).flatMap { [$0, 1] },
            "diff change count": strings + sources + bases + [0x46, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2] + largest,
            "diff path length": strings + sources + bases + [0x46, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2] + largest,
            "diff index": strings + sources + bases + [0x46, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 1, 1] + largest + [0, 0],
            "dropped range": strings + sources + bases + [9, 2, 0, 0, 0, 0, 0, 0, 0] + largest + largest + [0],
            "duration": strings + sources + bases + [1, 2, 0, 0, 0, 0, 0, 0, 0] + largest,
        ]
        for (name, payload) in payloads.sorted(by: { $0.key < $1.key }) {
            let path = directory.file("\(name.replacingOccurrences(of: " ", with: "-")).rewind")
            try Data(JournalFuzzing.journal(wrappingPayload: payload)).write(to: URL(fileURLWithPath: path))
            try Self.expectSafe(path, name)
        }
        // The well-formed one reads back as one event: the crafted bytes are the real layout.
        #expect(try JournalReader(path: directory.file("well-formed.rewind")).eventCount == 1)
    }

    @Test("export and recover refuse to write onto the journal they read, under any name")
    func outputOntoInput() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todo.rewind")
        try FileManager.default.copyItem(atPath: CommandRunner.repositoryRoot + "/Fixtures/todo.rewind", toPath: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.createSymbolicLink(atPath: directory.file("link.rewind"), withDestinationPath: path)
        for output in [path, directory.file("./todo.rewind"), directory.file("link.rewind")] {
            for arguments in [["export", path, "--format", "jsonl", "-o", output], ["recover", path, "-o", output]] {
                let result = try CommandRunner.run(arguments)
                #expect(result.status == 2, "rewind \(arguments.joined(separator: " "))")
                #expect(result.standardError.contains("is the journal being read"))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    @Test("show on a damaged journal says so, as log, export and blame do")
    func showWarnsAboutDamage() throws {
        let result = try CommandRunner.run(["show", "Fixtures/counter-flipped-byte.rewind", "--at", "60"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("is damaged"))
    }

    @Test("damage anywhere in the file: info says what verify says")
    func damageEverywhere() throws {
        let directory = TemporaryDirectory()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: CommandRunner.repositoryRoot + "/Fixtures/counter.rewind")))
        // One flip every 23 bytes reaches the header, every block's frame and payload, the index
        // and the trailer; the library-level sweep (DamageSweepTests) takes every bit.
        for offset in stride(from: 0, to: bytes.count, by: 23) {
            var flipped = bytes
            flipped[offset] ^= 0x10
            let path = directory.file("flipped-\(offset).rewind")
            try Data(flipped).write(to: URL(fileURLWithPath: path))
            try Self.expectInfoAgreesWithVerify(path, "byte \(offset) flipped")
        }
        try Self.expectSafe(CommandRunner.repositoryRoot + "/Fixtures/counter-flipped-byte.rewind", "counter-flipped-byte")
        try Self.expectSafe(CommandRunner.repositoryRoot + "/Fixtures/todo-torn-tail.rewind", "todo-torn-tail")
    }

    @Test("every whole journal in Fuzz/Regressions (deep states, huge blocks, misordered diffs) goes through every command safely")
    func fuzzerRegressions() throws {
        let directory = CommandRunner.repositoryRoot + "/Fuzz/Regressions"
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names.count >= 6)
        let copies = TemporaryDirectory()
        for name in names {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            guard bytes.first == 0x89 else { continue }
            let path = copies.file(name + ".rewind")
            try bytes.write(to: URL(fileURLWithPath: path))
            try Self.expectSafe(path, name)
        }
    }
}
