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
        let dumpPath = try recorder.dump(reason: "total went \"wrong\"")
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
    }
}
