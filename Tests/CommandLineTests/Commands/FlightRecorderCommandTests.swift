import Cycler
import Foundation
import Rewind
import TestSupport
import Testing

@Suite("rewind on a flight recorder's ring and its dumps")
struct FlightRecorderCommandTests {
    struct Cart: Codable, Equatable { var items: [String] = []; var total = 0 }

    final class CartModel: CyclerType, Sendable {
        let state: Storage<Cart> = .init(.init())
    }

    @Test("info says what a ring holds and why a dump was made (text and schema-checked JSON); log and verify read both")
    func infoLogAndVerify() throws {
        let directory = TemporaryDirectory()
        let ringPath = directory.file("cart.rewind-ring")
        var configuration = FlightRecorder.Configuration()
        configuration.maximumBytes = 128 << 10
        configuration.journal.blockSize = 4 * 1024
        let recorder = try FlightRecorder(path: ringPath, configuration: configuration)
        let cart = CartModel()
        cart.set(logger: recorder)
        for number in 0..<4_000 {
            cart.commit("add") { state in
                state.update(state.value.items.suffix(10) + ["item \(UInt64(number) &* 0x9E37_79B9_7F4A_7C15)"], \.items)
                state.update(state.value.total + 1, \.total)
            }
        }
        let dumpPath = try #require(try recorder.dump(reason: "total went \"wrong\""))
        // The ring is read while its recorder is still open, as an operator would.
        let ringInfo = try CommandRunner.run(["info", ringPath])
        recorder.close()
        #expect(ringInfo.status == 0, "\(ringInfo.transcript)")
        #expect(ringInfo.standardOutput.contains("(128.0 KiB)"))
        #expect(ringInfo.standardOutput.contains("Ring        a flight recorder's ring:") && ringInfo.standardOutput.contains("open (its process"))
        #expect(ringInfo.standardOutput.contains("Integrity   clean"))

        let dumpInfo = try CommandRunner.run(["info", dumpPath])
        #expect(dumpInfo.status == 0, "\(dumpInfo.transcript)")
        #expect(dumpInfo.standardOutput.contains(#"Dump        call: "total went \"wrong\"" at step "#), "\(dumpInfo.standardOutput)")
        #expect(!dumpInfo.standardOutput.contains("Ring "))

        let check = try JSONSchemaCheck(file: JSONOutputTests.schemas + "info.schema.json")
        for path in [ringPath, dumpPath] {
            let json = try CommandRunner.run(["info", path, "--json"])
            let value = try JSONValue.parse(json.standardOutput)
            #expect(check.problems(value).isEmpty, "\(check.problems(value))")
            guard case .object(let fields) = value else { Issue.record("not an object"); continue }
            if path == ringPath {
                guard case .object(let ring) = fields["ring"] else { Issue.record("no ring"); continue }
                #expect(ring["closed"] == .bool(true) && ring["size_bytes"] == .integer(128 << 10))
                #expect(fields["dump"] == .null)
            } else {
                guard case .object(let dump) = fields["dump"] else { Issue.record("no dump"); continue }
                #expect(dump["trigger"] == .string("call") && dump["reason"] == .string(#"total went "wrong""#))
                #expect(fields["ring"] == .null && fields["has_index"] == .bool(true))
            }
            let log = try CommandRunner.run(["log", path, "--json"])
            #expect(log.status == 0 && log.standardOutput.split(separator: "\n").count > 100, "\(log.standardError)")
            let verify = try CommandRunner.run(["verify", path, "--deep"])
            #expect(verify.status == 0, "\(verify.transcript)")
        }

        // From outside: by the ring's path, at -o, never over a file; anything else is refused.
        let external = directory.file("incident.rewind")
        let dumped = try CommandRunner.run(["dump", ringPath, "-o", external, "--reason", "checkout hung"])
        #expect(dumped.status == 0 && dumped.standardOutput.hasPrefix("wrote \(external): "), "\(dumped.transcript)")
        let taken = try JournalReader(path: external)
        #expect(taken.header.dump?.trigger == .external && taken.header.dump?.reason == "checkout hung" && taken.eventCount > 0)
        let again = try CommandRunner.run(["dump", ringPath, "-o", external])
        #expect(again.status == 2 && again.standardError.contains("already there"), "\(again.transcript)")
        let notARing = try CommandRunner.run(["dump", dumpPath])
        #expect(notARing.status == 2 && notARing.standardError.contains("is not a flight recorder's ring"), "\(notARing.transcript)")
        let watch = try CommandRunner.run(["watch", ringPath, "total > 0"])
        #expect(watch.status == 2 && watch.standardError.contains("is a flight recorder's ring"), "\(watch.transcript)")
        let beside = try CommandRunner.run(["dump", ringPath])
        #expect(beside.status == 0 && beside.standardOutput.contains("/cart-"), "\(beside.transcript)")
        // --age keeps the ring's last seconds: here a microsecond, the newest block's.
        let recent = directory.file("recent.rewind")
        let aged = try CommandRunner.run(["dump", ringPath, "-o", recent, "--age", "0.000001"])
        #expect(aged.status == 0, "\(aged.transcript)")
        let recentReader = try JournalReader(path: recent)
        #expect(recentReader.eventCount > 0 && recentReader.eventCount < taken.eventCount)
        #expect(recentReader.sequenceRange?.upperBound == taken.sequenceRange?.upperBound)
        let noAge = try CommandRunner.run(["dump", ringPath, "--age", "0"])
        #expect(noAge.status == 2 && noAge.standardError.contains("--age"), "\(noAge.transcript)")
    }

    @Test("log of a condition's dump says why on standard error, and its JSON puts the dump on the step the condition became true at, schema-checked")
    func logShowsTheTrigger() throws {
        let directory = TemporaryDirectory()
        let made = DispatchSemaphore(value: 0)
        var configuration = FlightRecorder.Configuration()
        configuration.maximumBytes = 128 << 10
        configuration.conditions = [try Condition(parsing: "total > 30")]
        configuration.onDump = { _ in made.signal() }
        let recorder = try FlightRecorder(path: directory.file("cart.rewind-ring"), configuration: configuration)
        let cart = CartModel()
        cart.set(logger: recorder)
        for _ in 0..<50 { cart.commit("add") { $0.update($0.value.total + 1, \.total) } }
        try recorder.sync()
        #expect(made.wait(timeout: .now() + .seconds(600)) == .success)
        recorder.close()
        let dumpName = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".rewind") })
        let dumpPath = directory.file(dumpName)
        let step = try #require(try JournalReader(path: dumpPath).header.dump?.step)

        let text = try CommandRunner.run(["log", dumpPath])
        #expect(text.status == 0 && text.standardError.contains(#"is a flight recorder's dump: condition: "total > 30 on "#), "\(text.standardError)")
        let json = try CommandRunner.run(["log", dumpPath, "--json"])
        let check = try JSONSchemaCheck(file: JSONOutputTests.schemas + "event.schema.json")
        var marked: [Int64] = []
        for line in json.standardOutput.split(separator: "\n") {
            let value = try JSONValue.parse(String(line))
            #expect(check.problems(value).isEmpty, "\(check.problems(value))")
            guard case .object(let fields) = value, case .object(let dump) = fields["dump"], case .integer(let seq) = fields["seq"] else { continue }
            #expect(dump["trigger"] == .string("condition") && dump["step"] == .integer(Int64(step)))
            marked.append(seq)
        }
        #expect(marked == [Int64(step)], "the dump is on its step only")
    }

    @Test("rewind dump PID finds the ring a running process records into and takes its window")
    func dumpByProcess() throws {
        let recorder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("journal-crash-recorder").path
        try #require(FileManager.default.isExecutableFile(atPath: recorder), "build the journal-crash-recorder product first")
        let directory = TemporaryDirectory()
        let ringPath = directory.file("live.rewind-ring")
        let child = try ChildProcess.Running(recorder, ["--ring", ringPath])
        let process = child.process
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // Once it has synced a few times, its ring holds blocks.
        var syncs = 0
        while syncs < 3, let line = child.line() {
            if line.hasPrefix("synced ") { syncs += 1 }
        }
        let dumpPath = directory.file("by-pid.rewind")
        let dumped = try CommandRunner.run(["dump", String(process.processIdentifier), "-o", dumpPath])
        #expect(dumped.status == 0 && dumped.standardOutput.contains("from \(ringPath)"), "\(dumped.transcript)")
        #expect(try JournalReader(path: dumpPath).eventCount > 0)
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        try sleeper.run()
        defer {
            kill(sleeper.processIdentifier, SIGKILL)
            sleeper.waitUntilExit()
        }
        let nobody = try CommandRunner.run(["dump", String(sleeper.processIdentifier)])
        #expect(nobody.status == 2 && nobody.standardError.contains("has no flight recorder's ring open"), "\(nobody.transcript)")
    }
}
