import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Synchronization
import TestSupport
import Testing

/// A full disk and an occupied path, as an app meets them: the app is told, nothing is lost
/// silently, and the file stays readable up to its last good block.
@Suite("Journal write failures")
struct WriteFailureTests {
    typealias CounterModel = JournalWriterTests.CounterModel

    /// A 256 KiB tmpfs, when this machine lets the tests mount one (root in a container that
    /// allows it); the injected-error test covers the same ground everywhere else.
    static let smallDisk: String? = {
        let directory = NSTemporaryDirectory() + "rewind-small-disk-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return mount("tmpfs", directory, "tmpfs", 0, "size=256k") == 0 ? directory : nil
    }()

    /// Records commits until the journal fails, then checks what the app was told against what
    /// the file holds.
    static func recordUntilFull(at path: String, configuration base: JournalConfiguration) throws {
        let failures = Mutex<[JournalWriteError]>([])
        var configuration = base
        configuration.blockSize = 2 * 1024
        configuration.onFailure = { error in failures.withLock { $0.append(error) } }
        let journal = try JournalLogger(path: path, configuration: configuration)
        let model = CounterModel()
        model.set(logger: journal)
        var syncError: JournalWriteError?
        var logged = 1  // the created event
        for _ in 1...400 {
            for _ in 0..<50 {
                model.commit("add") { $0.update($0.value.count + 1, \.count) }
                logged += 3  // willMutate, change, didMutate
            }
            do { try journal.sync() } catch {
                syncError = error
                break
            }
        }
        let failure = try #require(syncError, "the journal never failed")
        #expect(failure.code == ENOSPC)
        // Later calls keep reporting it; the callback fired once.
        #expect(throws: JournalWriteError.self) { try journal.flush() }
        journal.close()
        #expect(failures.withLock { $0 } == [failure])
        let statistics = journal.statistics
        #expect(statistics.failure == failure)
        // What the statistics say is on disk is what a reader finds there.
        let reader = try JournalReader(path: path)
        #expect(reader.eventCount == statistics.eventsWritten)
        #expect(statistics.eventsLost > 0)
        #expect(statistics.eventsWritten + statistics.eventsLost == logged)
        // The half-written block was cut off: nothing damaged, only the index is missing.
        let verification = try reader.verify()
        #expect(verification.damage.isEmpty)
        #expect(verification.indexProblem != nil)
    }

    @Test("a write error is reported by sync, flush, onFailure and statistics (injected ENOSPC), blocks compressed on their own thread or not", arguments: [true, false])
    func injectedFullDisk(compressesOnOwnThread: Bool) throws {
        let directory = TemporaryDirectory()
        var configuration = JournalConfiguration()
        configuration.compressesOnOwnThread = compressesOnOwnThread
        configuration.sizeLimitForTesting = 40 * 1024
        try Self.recordUntilFull(at: directory.file("full.rewind"), configuration: configuration)
    }

    @Test(
        "an app logging into its journal through swift-log, the failure it is told of too, goes on when the disk fills (ulimit -f)",
        // ThreadSanitizer's runtime faults (SIGBUS) under a file size limit; GNU timeout bounds a hang.
        .enabled(if: !isThreadSanitized && FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout"))
    )
    func fullDiskWhileLogging() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("full.rewind")
        let recorder = JournalCrashSafetyTests.recorderPath
        try #require(FileManager.default.isExecutableFile(atPath: recorder), "build the journal-crash-recorder product first")
        // 64 blocks of 512 bytes: the file stops growing a few thousand commits in. SIGXFSZ is
        // ignored, so that a write past the limit fails (EFBIG) as a full disk's does. A recorder
        // that hangs is ended after two minutes, and says nothing more.
        let child = try ChildProcess.run(
            "/bin/sh", ["-c", "ulimit -f 64; trap '' XFSZ; exec timeout 120 \"$0\" \"$1\" --log-failures --stop-at 30000", recorder, path],
            in: directory.path, environment: ["SWIFT_BACKTRACE": "enable=no"]
        )
        #expect(child.termination == .exited(0), "\(child.termination): \(child.standardError.prefix(500))")
        #expect(child.standardOutput.contains("failed: "), "the app was told: \(child.standardOutput.prefix(500))")
        #expect(child.standardOutput.hasSuffix("finished 30000\n"), "\(child.standardOutput.suffix(300))")
        // What reached the disk before it filled reads back: the counter's first steps, in order.
        let reader = try JournalReader(path: path)
        let sequences = reader.allEvents().map(\.sequence)
        #expect(sequences.count > 100 && sequences == Array(1...UInt64(sequences.count)), "\(sequences.count) events")
    }

    @Test("a real full disk (256 KiB tmpfs) is reported the same way", .enabled(if: WriteFailureTests.smallDisk != nil))
    func realFullDisk() throws {
        let disk = try #require(Self.smallDisk)
        defer {
            umount2(disk, Int32(MNT_DETACH))
            try? FileManager.default.removeItem(atPath: disk)
        }
        try Self.recordUntilFull(at: disk + "/full.rewind", configuration: JournalConfiguration())
    }

    @Test("an existing file is not replaced unless asked, and a symbolic link is never followed")
    func existingFilesAndLinks() throws {
        let directory = TemporaryDirectory()
        let existing = directory.file("earlier.rewind")
        try Data("an earlier recording".utf8).write(to: URL(fileURLWithPath: existing))
        #expect(throws: JournalWriteError(path: existing, operation: "create", code: EEXIST)) { try JournalLogger(path: existing) }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "an earlier recording")

        var replacing = JournalConfiguration()
        replacing.replaceExisting = true
        try JournalLogger(path: existing, configuration: replacing).close()
        #expect(try JournalReader(path: existing).eventCount == 0)

        // A link to a file the attacker wants truncated, and a dangling link to where they want a file.
        let target = directory.file("precious.txt")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: target))
        let link = directory.file("link.rewind")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: JournalWriteError(path: link, operation: "create", code: ELOOP)) { try JournalLogger(path: link, configuration: replacing) }
        #expect(throws: JournalWriteError.self) { try JournalLogger(path: link) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")
        let dangling = directory.file("dangling.rewind")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory.file("planted.rewind"))
        #expect(throws: JournalWriteError.self) { try JournalLogger(path: dangling) }
        #expect(!FileManager.default.fileExists(atPath: directory.file("planted.rewind")))
    }
}
