import Foundation
@_spi(Tooling) import Rewind
import RewindSamples
import Testing
import Unio

/// A small deterministic generator, so that the "random" steps are the same on every run.
struct SeededSteps {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next(in range: ClosedRange<UInt64>) -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return range.lowerBound + (state >> 33) % (range.upperBound - range.lowerBound + 1)
    }
}

@Suite("Restoring recorded states into live units")
struct RestoreTests {
    /// Restores `target` at random steps of `source` and checks it then has the recorded state.
    func checkRandomSteps(journal: String, source: String, target: any ReplayTarget, seed: UInt64) throws {
        let replay = try Replay(journal: journal)
        let summary = try #require(replay.reader.sources.first { $0.source.matches(source) })
        var steps = SeededSteps(seed: seed)
        for _ in 0..<25 {
            let step = steps.next(in: summary.sequences)
            guard let recorded = try replay.reader.state(of: summary.source.instanceID, at: step) else { continue }
            try replay.restore(target, to: step, of: source)
            #expect(target.currentState() == recorded, "\(journal) step \(step)")
        }
    }

    @Test("a Cycler view model restored at random steps has the recorded state")
    func cycler() throws {
        try checkRandomSteps(journal: "Fixtures/counter.rewind", source: "CounterSample", target: CounterSample().replayTarget, seed: 7)
    }

    @Test("a Ricemill machine's store restored at random steps has the recorded state")
    func ricemill() throws {
        try checkRandomSteps(journal: "Fixtures/ricemill.rewind", source: "RicemillCounterSample", target: RicemillCounterSample().replayTarget, seed: 11)
    }

    @Test("a Unio stream's state restored at random steps has the recorded state")
    func unio() throws {
        let stream = GitHubSearchViewStream(scheduler: .virtual(VirtualTimeScheduler()))
        try checkRandomSteps(journal: "Fixtures/unio.rewind", source: "GitHubSearchViewStream", target: stream.replayTarget, seed: 13)
    }

    @Test("a restored unit carries on from the restored state")
    func carriesOn() throws {
        let replay = try Replay(journal: "Fixtures/counter.rewind")
        let counter = CounterSample()
        let step = try #require(replay.reader.events().first { $0.kind == .didDispatch && $0.name == "setStep" }).sequence
        try replay.restore(counter.replayTarget, to: step, of: "CounterSample")
        let before = counter.state.value
        counter.increment()
        #expect(counter.state.value.count == before.count + before.step)
    }
}
