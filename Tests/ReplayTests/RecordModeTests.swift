import CombineOperators
import Foundation
@_spi(Tooling) import Rewind
import RewindSamples
import RewindTesting
import Ricemill
import TestSupport
import Testing

/// Record mode never destroys the journal a test depends on.
@Suite("Record mode")
struct RecordModeTests {
    let directory = TemporaryDirectory()

    /// The cart session of ``AsyncReplayTests``; with `twoCarts`, a second cart records beside it.
    func recordCarts(twoCarts: Bool = false) throws -> String {
        let path = directory.file(twoCarts ? "carts.rewind" : "cart.rewind")
        let journal = try JournalLogger(path: path)
        let scheduler = VirtualTimeScheduler()
        let cart = Cart(scheduler: scheduler)
        cart.set(logger: journal)
        let other = Cart(scheduler: scheduler)
        if twoCarts { other.set(logger: journal) }
        cart.add(2)
        other.add(5)
        cart.checkout()
        scheduler.advance(by: .milliseconds(300))
        journal.close()
        return path
    }

    static func rerecord(_ path: String, binding source: String = "Cart", dropping: Bool = false) throws -> ReplayReport {
        let clock = VirtualTimeScheduler()
        let replay = try Replay(journal: path)
        replay.clock = .virtual(clock)
        try replay.bind(source, to: Cart(scheduler: clock, orderID: "ORD-9999").replayableTarget)
        return try replay.rerecord(droppingUnboundSources: dropping)
    }

    @Test("re-records of one journal running at once all succeed, one after another, and leave a whole journal")
    func concurrentRerecords() throws {
        let path = try recordCarts()
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do { _ = try Self.rerecord(path) } catch { failures.withLock { $0.append("\(error)") } }
        }
        #expect(failures.withLock { $0 } == [])
        let reader = try JournalReader(path: path)
        #expect(try reader.verify().damage.isEmpty)
        let states = reader.events().compactMap(\.stateRecord)
        #expect(!states.isEmpty)
        let last = try #require(Array(reader.events()).last)
        let final = try #require(try reader.state(of: last.source.instanceID, at: last.sequence))
        #expect(final.compactDescription(limit: 200).contains("ORD-9999"), "today's code was recorded")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cart.rewind"], "no temporary file is left")
    }

    @Test("a re-record that would drop a source no unit is bound to is refused, naming it, and the journal is kept")
    func unboundSourcesAreNotDropped() throws {
        let path = try recordCarts(twoCarts: true)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let reader = try JournalReader(path: path)
        let carts = reader.sources.map(\.source)
        #expect(carts.count == 2)
        let error = #expect(throws: ReplayError.self) { try Self.rerecord(path, binding: "Cart#\(carts[0].instanceID)") }
        #expect("\(error!)".contains("would drop the recorded events of Cart#\(carts[1].instanceID)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        // Said on purpose, the other cart is dropped.
        _ = try Self.rerecord(path, binding: "Cart#\(carts[0].instanceID)", dropping: true)
        #expect(try JournalReader(path: path).sources.count == 1)
    }

    @Test("a re-recorded Ricemill session keeps its dispatches, and re-recording it again changes nothing", arguments: [1, 2])
    func rerecordKeepsDispatches(rounds: Int) throws {
        let path = directory.file("ricemill-\(rounds).rewind")
        let journal = try JournalLogger(path: path)
        DemoSession.runRicemillCounter(logger: journal)
        journal.close()
        // What a reader compares: each event's kind, name and value, in order (a live unit is not
        // released during a re-record, and call sites are where the replay sent from).
        func shape(_ path: String) throws -> [String] {
            try JournalReader(path: path).events().filter { $0.kind != .released }
                .map { "\($0.kind) \($0.name) \($0.path ?? "") \($0.value?.description ?? "")" }
        }
        let recorded = try shape(path)
        #expect(recorded.contains { $0.hasPrefix("willDispatch increment") })
        for _ in 0..<rounds {
            let replay = try Replay(journal: path)
            try replay.bind("RicemillCounterSample", to: RicemillCounterSample().replayTarget)
            _ = try replay.rerecord()
            #expect(try shape(path) == recorded)
        }
    }
}
