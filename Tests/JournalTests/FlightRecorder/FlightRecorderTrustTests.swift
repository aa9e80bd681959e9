import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Synchronization
import Testing
import TestSupport

/// What a flight recorder trusts at its ring's path: a ring by its signature only, of this user's
/// own, that nobody else may write (issue 63, "let in where they don't belong").
@Suite("Flight recorder: what is at the ring's path")
struct FlightRecorderTrustTests {
    /// A ring left unclosed by a recorder that wrote `count` orders, at `path`.
    static func unclosedRing(at path: String, count: Int = 300) throws {
        var configuration = FlightRecorderTests.configuration()
        configuration.dumpSignal = nil
        let recorder = try FlightRecorder(path: path, configuration: configuration)
        let shop = FlightRecorderTests.ShopModel()
        shop.set(logger: recorder)
        FlightRecorderTests.order(shop, count: count)
        recorder.close()
        // Closed, then marked unclosed: a previous run that ended without closing.
        let descriptor = open(path, O_RDWR)
        defer { close(descriptor) }
        var header = JournalReader.read(descriptor, at: 0, count: JournalFormat.fixedHeaderLength)
        guard case .success(let fixed) = JournalHeader.decodeFixedPart(header) else { throw CocoaError(.fileReadCorruptFile) }
        header = fixed.header.encoded(signature: JournalFormat.ringMagic, flags: 0)
        _ = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test(
        "a file of zeros, an empty file and a text file are not rings: kept, byte for byte, and the recorder does not start",
        arguments: [Data(count: 4096), Data(), Data("2026-12-02 app started\n".utf8)])
    func onlyTheSignatureMakesARing(contents: Data) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("disk.img")
        try contents.write(to: URL(fileURLWithPath: path))
        #expect(RingDump.existingRing(at: path) == .other)
        #expect(throws: JournalWriteError(path: path, operation: "create", code: EEXIST)) { try FlightRecorder(path: path) }
        #expect(Self.contents(path) == contents)
    }

    // Only root can give a file away; without it, the mode rule below is checked still.
    @Test("a ring another user owns is neither dumped nor recorded into; the refusal says why in one line", .enabled(if: geteuid() == 0))
    func foreignRingIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shop.rewind-ring")
        try Self.unclosedRing(at: path)
        #expect(chown(path, 65534, 65534) == 0)
        chmod(path, 0o600)
        let planted = try #require(Self.contents(path))
        let dumps = Mutex<[String]>([])
        var configuration = FlightRecorderTests.configuration()
        configuration.onDump = { path in dumps.withLock { $0.append(path) } }
        let refusal = #expect(throws: JournalWriteError.self) { try FlightRecorder(path: path, configuration: configuration) }
        #expect(refusal?.operation == "trust" && refusal?.code == EPERM)
        let line = refusal?.description ?? ""
        #expect(line.contains("belongs to another user") && !line.contains("\n"), "\(line)")
        #expect(dumps.withLock { $0 }.isEmpty)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["shop.rewind-ring"], "no dump, no temporary file: \(left)")
        #expect(Self.contents(path) == planted)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_uid == 65534)
    }

    @Test("a ring of this user's that group or others may write is refused too; made private, it is dumped and taken")
    func ringWritableByOthersIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shop.rewind-ring")
        try Self.unclosedRing(at: path)
        #expect(chmod(path, 0o666) == 0)
        let refusal = #expect(throws: JournalWriteError.self) { try FlightRecorder(path: path, configuration: FlightRecorderTests.configuration()) }
        #expect(refusal?.operation == "trust" && refusal?.code == EACCES)
        #expect(refusal?.description.contains("group or others may write it") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["shop.rewind-ring"])

        #expect(chmod(path, 0o600) == 0)
        let recorder = try FlightRecorder(path: path, configuration: FlightRecorderTests.configuration())
        recorder.close()
        #expect(recorder.previousRunDump != nil)
    }

    @Test("a ring-sized temporary file left by a process killed while it made its ring is removed at the next start; a live process's is kept")
    func leftoverTemporaryIsRemoved() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shop.rewind-ring")
        // No process has this number: Linux's pid_max is at most 2^22.
        let dead = directory.file(".shop.rewind-ring.99999999-7.partial")
        let alive = directory.file(".shop.rewind-ring.1-7.partial")
        // A dump's temporary beside the ring, of the same shape but for its name: never touched.
        let dumpTemporary = directory.file(".shop.rewind-ring.2026-12-02.rewind.99999999-7.partial")
        for leftover in [dead, alive, dumpTemporary] {
            try Data(count: 4096).write(to: URL(fileURLWithPath: leftover))
            // Made two minutes ago: a start killed that long ago.
            var times = [timeval(tv_sec: time(nil) - 120, tv_usec: 0), timeval(tv_sec: time(nil) - 120, tv_usec: 0)]
            #expect(utimes(leftover, &times) == 0)
        }
        let recorder = try FlightRecorder(path: path, configuration: FlightRecorderTests.configuration())
        recorder.close()
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: alive), "process 1 is alive")
        #expect(FileManager.default.fileExists(atPath: dumpTemporary))
    }

    @Test("the recorder's ring is a new file of its own (0600, this user's): a ring it replaces is never written into")
    func ringIsANewFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shop.rewind-ring")
        try Self.unclosedRing(at: path)
        // A second name for the old ring's file: whoever holds it must learn nothing new.
        let otherName = directory.file("old.rewind-ring")
        #expect(link(path, otherName) == 0)
        let before = try #require(Self.contents(otherName))
        let recorder = try FlightRecorder(path: path, configuration: FlightRecorderTests.configuration())
        let shop = FlightRecorderTests.ShopModel()
        shop.set(logger: recorder)
        FlightRecorderTests.order(shop, count: 500, from: 10_000)
        recorder.close()
        #expect(Self.contents(otherName) == before)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_uid == geteuid() && status.st_mode & 0o777 == 0o600 && status.st_nlink == 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        #expect(names.isEmpty, "no temporary name left: \(names)")
        #expect(try JournalReader(path: path).allEvents().count > 0)
    }
}

/// A crash the program sees coming dumps with every step before it and says why (issue 63).
@Suite("Flight recorder: the recorder's own precondition")
struct FlightRecorderPreconditionTests {
    @Test("a failed recorder.precondition records its message, dumps every commit before it — unsynced ones too — at its step, then traps")
    func preconditionDumpsBeforeItTraps() throws {
        let directory = TemporaryDirectory()
        let ring = directory.file("app.rewind-ring")
        // Synced every 500 commits: the last 250 before the failure were only handed over.
        let child = try FlightRecorderTriggerTests.child(ring: ring, ["--precondition-at", "3250"])
        var dumps: [String] = []
        while let line = child.line() {
            if line.hasPrefix("dumped ") { dumps.append(String(line.dropFirst(7))) }
        }
        child.process.waitUntilExit()
        #expect(child.process.terminationReason == .uncaughtSignal && [SIGILL, SIGTRAP].contains(child.process.terminationStatus))
        try #require(dumps.count == 1, "\(dumps)")
        let dump = try JournalReader(path: dumps[0])
        let why = try #require(dump.header.dump)
        #expect(why.trigger == .assertion && why.reason == "the count reached 3250")
        let events = dump.allEvents()
        let message = try #require(events.last)
        #expect(message.kind == .log && message.logLevel == .critical && message.description == "the count reached 3250")
        #expect(why.step == message.sequence, "the dump opens at the message")
        // Event 1 is the counter's `created`; each commit adds willMutate, change and didMutate.
        let commits = events.filter { $0.kind == .didMutate }.count
        let lastState = events.last { $0.kind == .change }
        #expect(lastState?.value == .integer(3_250), "the broken step is in the dump: \(String(describing: lastState?.value)), \(commits) commits")
        // The ring is marked as crashed as well: the next start dumps it too, with the message.
        let next = try FlightRecorder(path: ring, configuration: FlightRecorderTests.configuration())
        next.close()
        let previous = try JournalReader(path: try #require(next.previousRunDump))
        #expect(previous.header.dump?.trigger == .crash && previous.allEvents().last?.description == "the count reached 3250")
        #expect(previous.header.dump?.step == previous.allEvents().last?.sequence, "a crash's dump opens at its last step")
    }
}

/// The dump signal and the app's own handler for it (issue 63).
@Suite("Flight recorder: the dump signal beside the app's handler")
struct FlightRecorderSignalChainTests {
    @Test("the app's own SIGUSR2 handler still sees each signal while the recorder dumps on it, and has it alone once the recorder closes")
    func appHandlerIsChainedAndRestored() throws {
        let directory = TemporaryDirectory()
        let child = try FlightRecorderTriggerTests.child(ring: directory.file("app.rewind-ring"), ["--own-usr2", "--close-at", "3000"])
        defer {
            kill(child.process.processIdentifier, SIGKILL)
            child.process.waitUntilExit()
        }
        var lines: [String] = []
        var signalledAfterClose = false
        // Bounded: the child exits ten seconds after it closed its recorder.
        while let line = child.line() {
            lines.append(line)
            if line == "synced 1000" { kill(child.process.processIdentifier, SIGUSR2) }
            if line == "closed" {
                kill(child.process.processIdentifier, SIGUSR2)
                signalledAfterClose = true
            }
            if line == "app saw usr2 2" { break }
        }
        #expect(signalledAfterClose)
        let dumps = lines.filter { $0.hasPrefix("dumped ") }
        #expect(dumps.count == 1, "one dump, while recording: \(lines.filter { !$0.hasPrefix("synced") })")
        #expect(lines.contains("app saw usr2 1") && lines.contains("app saw usr2 2"), "\(lines.filter { !$0.hasPrefix("synced") })")
        if let first = lines.firstIndex(of: "app saw usr2 1"), let closed = lines.firstIndex(of: "closed") {
            #expect(first < closed, "the signal sent while recording reached the app's handler too")
        }
    }
}
