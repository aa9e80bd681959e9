import Foundation
@_spi(Tooling) import Rewind
import TestSupport
import Testing

/// Output errors are never silent, and outputs are only ever regular files written whole.
@Suite("Output failures")
struct OutputFailureTests {
    static let journal = "Fixtures/todo.rewind"

    @Test("a command whose standard output fails (/dev/full) exits 2 with one line naming the output", arguments: [
        ["log", journal], ["log", journal, "--json"], ["export", journal, "--format", "json"], ["info", journal],
        ["show", journal, "--at", "5"], ["verify", journal], ["--help"], ["--version"], ["log", "--help"],
    ])
    func standardOutputFull(arguments: [String]) throws {
        let result = try CommandRunner.runShell("\"$REWIND\" \(arguments.joined(separator: " ")) > /dev/full")
        #expect(result.status == 2, "\(arguments)")
        #expect(result.standardError == "rewind: cannot write standard output: No space left on device\n", "\(arguments)")
    }

    /// Whether the tests run under ThreadSanitizer (and so the `rewind` they run): its runtime
    /// cannot start under a file-size limit.
    static let underThreadSanitizer = dlsym(nil, "__tsan_init") != nil

    /// A 64 KiB tmpfs, when this machine lets the tests mount one.
    static let smallDisk: String? = {
        let directory = NSTemporaryDirectory() + "rewind-full-disk-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return mount("tmpfs", directory, "tmpfs", 0, "size=64k") == 0 ? directory : nil
    }()

    /// Exports the demo (about 100 KB of JSON) to a fresh file and over an earlier export in
    /// `directory`, with `prefix` (shell) before the command; checks nothing half-written is left.
    static func expectWholeOrNothing(in directory: String, error: String, prefix: String = "") throws {
        let fresh = directory + "/fresh.json", existing = directory + "/existing.json"
        try "earlier export\n".write(toFile: existing, atomically: false, encoding: .utf8)
        for output in [fresh, existing] {
            let result = try CommandRunner.runShell("\(prefix)\"$REWIND\" export Fixtures/demo.rewind --format json -o \(output)")
            #expect(result.status == 2)
            #expect(result.standardError == "rewind: cannot write \(output): \(error)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: fresh))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "earlier export\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["existing.json"], "no partial file is left beside it")
    }

    @Test("export -o onto a full disk (a 64 KiB tmpfs) exits 2 and leaves no half-written file, nor a changed one", .enabled(if: smallDisk != nil))
    func exportOntoFullDisk() throws {
        let disk = try #require(Self.smallDisk)
        defer { umount2(disk, Int32(MNT_DETACH)); rmdir(disk) }
        try Self.expectWholeOrNothing(in: disk, error: "No space left on device")
    }

    @Test("export -o past a file-size limit exits 2 and leaves no half-written file, nor a changed one", .enabled(if: !underThreadSanitizer))
    func exportPastFileSizeLimit() throws {
        let directory = TemporaryDirectory()
        // A limit of 8 KiB stands in for a full disk where no tmpfs can be mounted: writes past it
        // fail with EFBIG.
        try Self.expectWholeOrNothing(in: directory.path, error: "File too large", prefix: "ulimit -f 8; trap '' XFSZ; ")
    }

    @Test("export -o and recover -o refuse devices, FIFOs and symbolic links, and never change their mode", arguments: ["export", "recover"])
    func onlyRegularFiles(command: String) throws {
        let directory = TemporaryDirectory()
        let target = directory.file("target.json")
        try "kept\n".write(toFile: target, atomically: false, encoding: .utf8)
        let link = directory.file("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let fifo = directory.file("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        var before = stat()
        stat("/dev/null", &before)
        let format = command == "export" ? ["--format", "json"] : []
        for (output, what) in [("/dev/null", "it is a character device, not a regular file"), (fifo, "it is a FIFO, not a regular file"),
                               (link, "it is a symbolic link, and outputs are never written through one")] {
            let result = try CommandRunner.run([command, Self.journal] + format + ["-o", output])
            #expect(result.status == 2, "\(command) -o \(output)")
            #expect(result.standardError == "rewind: cannot write \(output): \(what)\n")
        }
        var after = stat()
        stat("/dev/null", &after)
        #expect(after.st_mode == before.st_mode, "/dev/null keeps its mode")
        var fifoStatus = stat()
        stat(fifo, &fifoStatus)
        #expect(fifoStatus.st_mode & 0o777 == 0o644)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
    }

    @Test("export -o writes the whole document, private to its owner")
    func exportWritesWhole() throws {
        let directory = TemporaryDirectory()
        let output = directory.file("todo.json")
        let result = try CommandRunner.run(["export", Self.journal, "--format", "json", "-o", output])
        #expect(result.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        #expect((document?["events"] as? [Any])?.isEmpty == false)
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}

/// Journal paths that are not journal files get one clear line and exit 2, at once.
@Suite("Paths that are not journals")
struct NonJournalPathTests {
    @Test("a FIFO and a device are named for what they are; nothing waits on them")
    func nonRegularFiles() throws {
        let directory = TemporaryDirectory()
        let fifo = directory.file("pipe.rewind")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a FIFO"), ("/dev/zero", "a character device")] {
            for command in [["info", path], ["log", path], ["verify", path], ["show", path, "--at", "1"]] {
                let result = try CommandRunner.run(command)
                #expect(result.status == 2, "\(command)")
                #expect(result.standardError == "rewind: \(path) is \(kind), not a journal (give the path of a .rewind file)\n", "\(command)")
            }
        }
    }

    @Test("an error quoting a typed path stays one line, its control characters shown, not sent")
    func typedPathsAreEscaped() throws {
        let result = try CommandRunner.run(["info", "x\nFORGED\u{1B}[8mhidden"])
        #expect(result.status == 2)
        #expect(result.standardError == "rewind: no such file: x\\nFORGED\\u{1B}[8mhidden (check the path; journals end in .rewind)\n")
    }
}

/// Blame follows elements as the viewer does.
@Suite("Blame by id")
struct BlameByIDTests {
    @Test("blame reads the viewer's items[id: N] syntax, and never reports an index shift as a change")
    func demoItems() throws {
        let byPosition = try CommandRunner.run(["blame", "Fixtures/demo.rewind", "items[1].done"])
        #expect(byPosition.status == 0)
        #expect(!byPosition.standardOutput.contains("#103"), "prepending an item moved another one to items[1]: not a change of done")
        #expect(byPosition.standardOutput.contains("1 step moved another element to items[1].done"))
        let byID = try CommandRunner.run(["blame", "Fixtures/demo.rewind", "items[id: 1].done"])
        #expect(byID.status == 0)
        let steps = byID.standardOutput.split(separator: "\n").map { $0.prefix(while: { $0 != " " }) }
        #expect(steps == ["#78", "#120"], "\(byID.standardOutput)")
        let malformed = try CommandRunner.run(["blame", "Fixtures/demo.rewind", "items[id: 1.done"])
        #expect(malformed.status == 2)
        #expect(malformed.standardError.hasPrefix("rewind: malformed key path 'items[id: 1.done'"))
    }
}

/// Large values read in time linear in their size.
@Suite("Large values")
struct LargeValueTests {
    // Alone this takes about 3 s in a debug build; a quadratic reader would take hours. The limit
    // leaves room for the whole suite running in parallel on a loaded 2-core machine, where one
    // run went past a minute.
    @Test("log and log --grep of a recording holding a 100,000-element list run in linear time", .timeLimit(.minutes(10)))
    func longList() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("long.rewind")
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Long"))
        let list = Array(0..<100_000)
        channel.emit(.created(state: LoggedValue(["items": list])), callSite: CallSite(), parent: nil, to: journal)
        channel.emit(.activity(LoggedValue(list)), name: "loaded", callSite: CallSite(), parent: nil, to: journal)
        channel.emit(.replace(state: LoggedValue(["items": list.reversed()])), callSite: CallSite(), parent: nil, to: journal)
        journal.close()
        let log = try CommandRunner.run(["log", path])
        #expect(log.status == 0 && log.standardOutput.contains("loaded"))
        let grep = try CommandRunner.run(["log", path, "--grep", "99998, 99999"])
        #expect(grep.status == 0 && grep.standardOutput.contains("loaded"), "\(grep.standardError)")
    }
}
