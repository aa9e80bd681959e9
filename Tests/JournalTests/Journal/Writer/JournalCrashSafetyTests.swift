import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

@Suite("Journal crash safety")
struct JournalCrashSafetyTests {
    struct Counter: Codable, Equatable { var count = 0; var step = 1; var label = "crash" }

    final class CounterModel: CyclerType, Sendable {
        let state: Storage<Counter> = .init(.init())
    }

    /// Reads the crash recorder's reports until its `syncs`-th "synced N" (or its end); returns the
    /// last N: every commit up to it is on disk.
    static func lastSynced(by child: ChildProcess.Running, after syncs: Int) -> Int {
        var lastSynced = 0
        var seen = 0
        while seen < syncs, let line = child.line() {
            if line.hasPrefix("synced "), let count = Int(line.dropFirst(7)) {
                lastSynced = count
                seen += 1
            }
        }
        return lastSynced
    }

    static var recorderPath: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("journal-crash-recorder").path
    }

    @Test("a recorder killed with SIGKILL at random moments leaves a journal with every synced event", arguments: 0..<20)
    func killedRecorder(round: Int) throws {
        let recorder = Self.recorderPath
        try #require(FileManager.default.isExecutableFile(atPath: recorder), "build the journal-crash-recorder product first")
        let directory = TemporaryDirectory()
        let path = directory.file("crash-\(round).rewind")
        let child = try ChildProcess.Running(recorder, [path])

        // Kill it right after a random number of sync reports: the child keeps committing, so the
        // moment it dies is anywhere in its writing cycle.
        let syncsBeforeKill = 1 + (round * 7) % 5
        let lastSynced = Self.lastSynced(by: child, after: syncsBeforeKill)
        kill(child.process.processIdentifier, SIGKILL)
        child.process.waitUntilExit()
        #expect(child.process.terminationReason == .uncaughtSignal)
        try #require(lastSynced > 0)

        let reader = try JournalReader(path: path)
        let sequences = Set(reader.allEvents().map(\.sequence))
        // Event 1 is the counter's `created`; each commit adds willMutate, change and didMutate.
        let syncedThrough = UInt64(1 + 3 * lastSynced)
        let missing = (1...syncedThrough).filter { !sequences.contains($0) }
        #expect(missing.isEmpty, "missing \(missing.count) synced events, first \(missing.first ?? 0)")
        let source = try #require(reader.sources.first?.source.instanceID)
        #expect(try reader.state(of: source, at: syncedThrough) == StateCapture.capture(Counter(count: lastSynced)))
        // Whatever the kill tore is reported, never read as events.
        #expect(reader.damage.allSatisfy { $0.byteRange.upperBound == reader.fileSize })
    }

    static func smallJournal(at path: String) throws -> [RecordedEvent] {
        var configuration = JournalConfiguration()
        configuration.blockSize = 300
        configuration.deterministic = true
        let journal = try JournalLogger(path: path, configuration: configuration)
        let model = CounterModel()
        model.set(logger: journal)
        for step in 1...12 {
            model.dispatch("step") { context in
                context.commit("add") { $0.update($0.value.count + step, \.count) }
            }
        }
        journal.close()
        return try JournalReader(path: path).allEvents()
    }

    @Test("changing any single byte never crashes the reader and never yields a wrong event")
    func everySingleByteChange() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("small.rewind")
        let original = try Self.smallJournal(at: path)
        let bySequence = Dictionary(uniqueKeysWithValues: original.map { ($0.sequence, $0) })
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 500 && bytes.count < 8_000)
        let damagedPath = directory.file("damaged.rewind")
        var silentLosses = 0
        for position in bytes.indices {
            for change: UInt8 in [0xFF, 0x01] {
                var damaged = bytes
                damaged[position] ^= change
                try Data(damaged).write(to: URL(fileURLWithPath: damagedPath))
                guard let reader = try? JournalReader(path: damagedPath) else { continue }
                let events = reader.allEvents()
                for event in events {
                    #expect(bySequence[event.sequence] == event, "byte \(position): a changed event was read")
                }
                if events.count < original.count && reader.damage.isEmpty { silentLosses += 1 }
                for event in events where event.carriesState {
                    _ = try? reader.state(of: event.source.instanceID, at: event.sequence)
                }
            }
        }
        #expect(silentLosses == 0)
    }

    @Test("a torn tail, a flipped byte in a block and a cut index are reported precisely")
    func damageReports() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("small.rewind")
        let original = try Self.smallJournal(at: path)
        let clean = try JournalReader(path: path)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let blocks = clean.blocks
        #expect(blocks.count >= 3)

        // Torn tail: the file ends inside the last events block.
        let last = blocks[blocks.count - 1]
        let tornPath = directory.file("torn.rewind")
        try Data(bytes[0..<(last.offset + 70)]).write(to: URL(fileURLWithPath: tornPath))
        let torn = try JournalReader(path: tornPath)
        #expect(!torn.hasIndex)
        #expect(torn.damage == [JournalDamage(byteRange: last.offset..<(last.offset + 70), sequences: last.firstSequence...last.lastSequence, reason: "the last block is cut short (torn tail)")])
        #expect(torn.allEvents() == Array(original.prefix { $0.sequence < last.firstSequence }))

        // A flipped byte inside the second block's payload.
        let second = blocks[1]
        var flipped = bytes
        flipped[second.offset + 70] ^= 0x40
        let flippedPath = directory.file("flipped.rewind")
        try Data(flipped).write(to: URL(fileURLWithPath: flippedPath))
        let damaged = try JournalReader(path: flippedPath)
        let read = damaged.allEvents()
        #expect(damaged.damage.map(\.byteRange) == [second.offset..<(second.offset + second.frame.totalLength)])
        #expect(damaged.damage.first?.sequences == second.firstSequence...second.lastSequence)
        #expect(read == original.filter { !(second.firstSequence...second.lastSequence).contains($0.sequence) })
        // A block after the damaged one still gives states: each block starts with keyframes.
        let source = try #require(read.last?.source.instanceID)
        #expect(try damaged.state(of: source, at: read.last!.sequence) == clean.state(of: source, at: read.last!.sequence))

        // A cut index: the blocks are walked instead, nothing is lost.
        let cutPath = directory.file("cut.rewind")
        try Data(bytes.dropLast(30)).write(to: URL(fileURLWithPath: cutPath))
        let cut = try JournalReader(path: cutPath)
        #expect(!cut.hasIndex)
        #expect(cut.allEvents() == original)
        #expect(cut.damage.count == 1 && cut.damage[0].sequences == nil)
    }

    @Test("files that are not journals, or newer ones, give clear errors")
    func badFiles() throws {
        let directory = TemporaryDirectory()
        #expect(throws: JournalReadError.fileNotFound(directory.file("missing.rewind"))) { try JournalReader(path: directory.file("missing.rewind")) }
        #expect(throws: JournalReadError.isDirectory(directory.path)) { try JournalReader(path: directory.path) }
        _ = FileManager.default.createFile(atPath: directory.file("empty.rewind"), contents: Data())
        #expect(throws: JournalReadError.empty(directory.file("empty.rewind"))) { try JournalReader(path: directory.file("empty.rewind")) }
        _ = FileManager.default.createFile(atPath: directory.file("notes.txt"), contents: Data("hello, this is text\n".utf8))
        #expect(throws: JournalReadError.notAJournal(directory.file("notes.txt"))) { try JournalReader(path: directory.file("notes.txt")) }
        var header = JournalHeader(formatVersion: 9, createdWallNanoseconds: 0, createdMonotonicNanoseconds: 0, writerVersion: "9.0").encoded()
        header += [UInt8](repeating: 0, count: 10)
        _ = FileManager.default.createFile(atPath: directory.file("future.rewind"), contents: Data(header))
        #expect(throws: JournalReadError.newerFormat(directory.file("future.rewind"), version: 9)) { try JournalReader(path: directory.file("future.rewind")) }
        for error in [JournalReadError.empty("x"), .notAJournal("x"), .newerFormat("x", version: 9)] {
            #expect(!error.description.contains("\n"))
        }
    }
}
