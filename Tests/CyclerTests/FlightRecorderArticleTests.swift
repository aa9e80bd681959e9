import Cycler
import Foundation
import ReadmeChecking
import Rewind
import Testing

/// The article "Keeping the last minutes: the flight recorder", run: its blocks appear below, in
/// order, inside a shop whose total goes negative.
@Suite("The flight recorder article's examples")
struct FlightRecorderArticleTests {
    struct Cart: Codable { var items: [String] = []; var total = 0 }

    final class Shop: CyclerType, Sendable {
        let state: Storage<Cart> = .init(.init())
    }

    @Test("start, dump on a negative total, assert, and find the previous run's dump; the article's blocks are these lines")
    func articleExamples() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-article-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ringPath = folder + "/shop.rewind-ring"
        let shop = Shop()

        let recorder = try FlightRecorder(path: ringPath)
        shop.set(logger: recorder)  // or CycleLoggingSystem.bootstrap(recorder) for every unit

        shop.commit("refund") { $0.update($0.value.total - 5, \.total) }
        let cart = shop.state.value
        if cart.total < 0, let dump = try recorder.dump(reason: "negative total \(cart.total)") {
            print("the last minutes are in \(dump)")
            let why = try JournalReader(path: dump).header.dump
            #expect(why?.reason == "negative total -5" && why?.summary.hasPrefix(#"call: "negative total -5" at step "#) == true)
        }
        try recorder.dump(unless: cart.total >= 0, "negative total \(cart.total)")
        let dumps = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".rewind") }
        let triggers = try dumps.map { try JournalReader(path: folder + "/" + $0).header.dump?.trigger }
        #expect(Set(triggers) == [.call, .assertion])

        var configuration = FlightRecorder.Configuration()
        configuration.conditions = [try Condition(parsing: "total < 0")]
        configuration.tail = .seconds(2)  // keep recording two more seconds, then write
        let watching = try FlightRecorder(path: folder + "/watched.rewind-ring", configuration: configuration)
        let watched = Shop()
        watched.set(logger: watching)
        watched.commit("refund") { $0.update($0.value.total - 5, \.total) }
        watched.commit("refund") { $0.update($0.value.total - 5, \.total) }
        // Closing in the tail writes the dump then.
        watching.close()
        let watchedDumps = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("watched-") && $0.hasSuffix(".rewind") }
        #expect(watchedDumps.count == 1)
        let condition = try JournalReader(path: folder + "/" + watchedDumps[0])
        #expect(condition.header.dump?.trigger == .condition && condition.events().filter { $0.kind == .didMutate }.count == 2)

        configuration.rateLimit = .dumps(1, per: .seconds(30)).and(5, per: .seconds(3600))
        #expect(configuration.rateLimit.windows == [.init(dumps: 1, per: .seconds(30)), .init(dumps: 5, per: .seconds(3600))])

        if let crash = recorder.previousRunDump {
            print("the previous run ended without closing its recorder: \(crash)")
        }
        #expect(recorder.previousRunDump == nil, "a new ring: nothing was left there")
        recorder.close()
        try DocumentedCode.expectBlocks(ofArticle: "KeepingTheLastMinutes", appearIn: #filePath)
    }
}
