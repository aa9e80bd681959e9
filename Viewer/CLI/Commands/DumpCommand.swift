import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

/// `rewind dump`: an operator takes a flight recorder's window from outside its process.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Write a flight recorder's ring as a journal: the window it holds now, from outside its process.",
        discussion: """
            The ring is named by its path, or by the process that records into it (its PID: the \
            ring is the file it has open with the ring's signature). The dump is an ordinary \
            journal whose header says it was taken from outside (trigger "external"), written \
            beside the ring under a name no other dump takes, or at -o. It holds the whole ring, \
            or with --age its last seconds (up to the newest block's time); the events the process \
            still has queued or in its open block are not in it.

            Example:  rewind dump /var/tmp/shop.rewind-ring
                      rewind dump 4242 -o incident.rewind --reason "checkout hung" --age 60
            """
    )

    @Argument(help: "The ring file, or the PID of the process recording into one.", completion: .file(extensions: ["rewind-ring"]))
    var target: String
    @Option(name: .shortAndLong, help: "Where to write the dump (never over an existing file).", completion: .file(extensions: ["rewind"]))
    var output: String?
    @Option(help: "Why, kept in the dump's header.") var reason = "rewind dump"
    @Option(help: "Keep only the ring's last this many seconds, by the newest block's time (default: all of it).") var age: Double?

    func validate() throws {
        if let age, !(age > 0) || !age.isFinite { throw ValidationError("--age must be a number of seconds above 0") }
    }

    func run() throws {
        let ring = try Self.ringPath(of: target)
        let dump: (path: String, events: Int)
        do {
            // Past ten thousand years is all of it, and stays within a Duration's nanoseconds.
            let kept: Duration = age.map { .seconds(min($0, 3e11)) } ?? .seconds(Int64.max)
            dump = try RingDump.dump(ringAt: ring, age: kept, output: output, trigger: .external, reason: reason, step: nil)
        } catch {
            throw CommandFailure(error.description)
        }
        Output().line("wrote \(VisibleText.escaped(dump.path)): \(dump.events) events from \(VisibleText.escaped(ring))")
    }

    /// Whether what is at a path is a ring, any user's: a file with the ring's signature.
    private static func isRing(_ existing: RingDump.Existing) -> Bool {
        switch existing {
        case .none, .other: false
        case .closed, .inUse, .unclosed, .untrusted: true
        }
    }

    /// The ring `target` names: itself, or the one ring the process `target` has open.
    static func ringPath(of target: String) throws -> String {
        guard !target.isEmpty, target.allSatisfy(\.isASCII), target.allSatisfy(\.isNumber), let pid = Int32(target) else { return target }
        let folder = "/proc/\(pid)/fd"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw CommandFailure("no process \(pid) whose files this user may see (a PID names the process recording into a ring)")
        }
        var rings: [String] = []
        for name in descriptors {
            guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)"), path.hasPrefix("/"),
                !rings.contains(path), Self.isRing(RingDump.existingRing(at: path))
            else { continue }
            rings.append(path)
        }
        switch rings.count {
        case 0: throw CommandFailure("process \(pid) has no flight recorder's ring open")
        case 1: return rings[0]
        default: throw CommandFailure("process \(pid) has \(rings.count) rings open; name one: \(rings.map(VisibleText.escaped).joined(separator: ", "))")
        }
    }
}
