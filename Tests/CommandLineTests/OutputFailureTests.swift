import Foundation
import TemporaryFiles
import Testing

/// Output errors are never silent, and outputs are only ever regular files written whole.
@Suite("Output failures")
struct OutputFailureTests {
    static let journal = "Fixtures/todo.rewind"

    @Test("a command whose standard output fails (/dev/full) exits 2 with one line naming the output", arguments: [
        ["log", journal], ["log", journal, "--json"], ["export", journal, "--format", "json"], ["info", journal],
        ["show", journal, "--at", "5"], ["verify", journal],
    ])
    func standardOutputFull(arguments: [String]) throws {
        let result = try CommandRunner.runShell("\"$REWIND\" \(arguments.joined(separator: " ")) > /dev/full")
        #expect(result.status == 2, "\(arguments)")
        #expect(result.standardError == "rewind: cannot write standard output: No space left on device\n", "\(arguments)")
    }

    @Test("export -o onto a disk that fills up exits 2 and leaves no half-written file, nor a changed one")
    func exportOntoFullDisk() throws {
        let directory = TemporaryDirectory()
        let fresh = directory.file("fresh.json"), existing = directory.file("existing.json")
        try "earlier export\n".write(toFile: existing, atomically: true, encoding: .utf8)
        // A file-size limit of 8 KiB stands in for a full disk: writes past it fail with EFBIG.
        for output in [fresh, existing] {
            let result = try CommandRunner.runShell("ulimit -f 8; trap '' XFSZ; \"$REWIND\" export \(Self.journal) --format json -o \(output)")
            #expect(result.status == 2)
            #expect(result.standardError.hasPrefix("rewind: cannot write \(output): File too large"), "\(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: fresh))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "earlier export\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["existing.json"], "no partial file is left beside it")
    }

    @Test("export -o and recover -o refuse devices, FIFOs and symbolic links, and never change their mode", arguments: ["export", "recover"])
    func onlyRegularFiles(command: String) throws {
        let directory = TemporaryDirectory()
        let target = directory.file("target.json")
        try "kept\n".write(toFile: target, atomically: true, encoding: .utf8)
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
