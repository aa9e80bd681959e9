import CombineOperators
import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import RewindSamples
import RewindTesting
import Ricemill
import Testing
import Unio

/// The fixtures were recorded by `rewind demo`; replaying them against today's code must reach every
/// recorded state. (Flask's replay is among the Flask tests, which share the process's flux.)
@Suite("Replaying the fixtures")
struct ReplayFixtureTests {
    @Test("Cycler: the counter's actions replay to the recorded states")
    func cycler() throws {
        let report = try #require(expectReplay(of: "Fixtures/counter.rewind", driving: ["CounterSample": CounterSample().replayTarget]))
        #expect(report.inputsReplayed == 14 && report.stepsRestored == 0)
    }

    @Test("Ricemill: the counter's input values replay to the recorded store states")
    func ricemill() throws {
        let report = try #require(expectReplay(of: "Fixtures/ricemill.rewind", driving: ["RicemillCounterSample": RicemillCounterSample().replayTarget]))
        #expect(report.inputsReplayed == 10 && report.statesCompared > 10)
    }

    @Test("Unio: the search replays on a virtual clock, its debounced API calls happening again by themselves")
    func unio() throws {
        let clock = VirtualTimeScheduler()
        let search = GitHubSearchViewStream(scheduler: .virtual(clock))
        let errors = search.output.error.subscribe(onNext: { _ in })
        defer { errors.cancel() }
        let report = try #require(expectReplay(of: "Fixtures/unio.rewind", driving: ["GitHubSearchViewStream": search.replayTarget], clock: clock))
        #expect(report.inputsReplayed == 6)
        #expect(search.output.repositories.value.map(\.fullName) == ["ReactiveX/RxSwift"])
    }
}
