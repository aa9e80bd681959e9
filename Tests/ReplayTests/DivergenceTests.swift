import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) @testable import Rewind
import ReadmeChecking
import RewindSamples
import RewindTesting
import Ricemill
import Testing

/// The Ricemill counter with one deliberate change: decrement no longer stops at zero.
final class CounterWithoutFloor: Machine<CounterWithoutFloor> {
    typealias Input = RicemillCounterSample.Input
    typealias Store = RicemillCounterSample.Store
    typealias Extra = RicemillCounterSample.Extra
    typealias Output = Store

    convenience init() {
        self.init(input: Input(), store: Store(), extra: Extra())
    }

    static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
        var cancellables: [AnyCancellable] = []
        input.increment.map { _ in store.count + 1 }
            .merge(with: input.decrement.map { _ in store.count - 1 })
            .assign(to: \.count, on: store)
            .store(in: &cancellables)
        input.$isOn.assign(to: \.isIncrementEnabled, on: store).store(in: &cancellables)
        input.$isOn.combineLatest(store.$count).map { $0 && $1 > 0 }
            .assign(to: \.isDecrementEnabled, on: store).store(in: &cancellables)
        input.$isOn.map { $0 ? "Enabled" : "Disabled" }.assign(to: \.toggleText, on: store).store(in: &cancellables)
        return Polished(cancellables: cancellables)
    }
}

@Suite("Replay divergence")
struct DivergenceTests {
    @Test("changed logic: the replay stops at the first step whose state differs, with the input and a readable diff")
    func changedLogic() throws {
        let replay = try Replay(journal: "Fixtures/ricemill.rewind")
        try replay.bind("RicemillCounterSample", to: CounterWithoutFloor().replayTarget)
        let report = replay.run()
        let divergence = try #require(report.divergence)

        // The recording's last decrement found the count at zero and left it there.
        let events = Array(replay.reader.events())
        let lastDecrement = try #require(events.last { $0.kind == .willDispatch && $0.name == "decrement" })
        let itsEnd = try #require(events.first { $0.kind == .didDispatch && $0.parent == lastDecrement.sequence })
        #expect(divergence.step == itsEnd.sequence)
        #expect(divergence.input == RecordedInput(name: "decrement", value: nil, step: lastDecrement.sequence))
        #expect(divergence.difference.changes.map(\.path.description) == ["count"])
        let text = divergence.description
        #expect(text.contains("replay diverged at step \(itsEnd.sequence) (RicemillCounterSample#1, didDispatch decrement)"))
        #expect(text.contains("-   count: 0") && text.contains("+   count: -1"), "\(text)")
        #expect(report.inputsReplayed == 10)
    }

    @Test("the replay article shows the report this divergence prints")
    func readmeShowsTheReport() throws {
        let replay = try Replay(journal: "Fixtures/ricemill.rewind")
        try replay.bind("RicemillCounterSample", to: CounterWithoutFloor().replayTarget)
        let report = replay.run().description
        let article = try DocumentedCode.article("ReplayingASession")
        #expect(article.contains(report), "ReplayingASession.md should show:\n\(report)")
    }

    @Test("errors that stop a replay from running are thrown, not reported as divergences")
    func errors() throws {
        #expect(throws: ReplayError.self) { try Replay(journal: "Fixtures/no-such-file.rewind") }
        let replay = try Replay(journal: "Fixtures/ricemill.rewind")
        #expect(throws: ReplayError.unknownSource("NoSuchMachine", known: ["RicemillCounterSample#1"])) {
            try replay.bind("NoSuchMachine", to: RicemillCounterSample().replayTarget)
        }
    }
}

@Suite("A divergence's report")
struct DivergenceReportTests {
    @Test("a difference in 800 list elements is reported with its context and a count, not 800 lines")
    func reportScalesWithTheDifference() {
        let recorded = StateValue.object(["items": .array((0..<800).map { .object(["id": .integer(Int64($0)), "quantity": .integer(1)]) })])
        let live = StateValue.object(["items": .array((0..<800).map { .object(["id": .integer(Int64($0)), "quantity": .integer(2)]) })])
        let divergence = Divergence(step: 12, event: "didMutate load", source: "Cart#1", input: nil, recorded: recorded, live: live, difference: StateDiff(from: recorded, to: live))
        let lines = divergence.description.components(separatedBy: "\n")
        #expect(lines.count <= Divergence.shownLines + 4, "\(lines.count) lines")
        #expect(lines.last?.contains("more lines left out; 800 paths differ in all: items[0].quantity") == true, "\(lines.last ?? "")")
        // A small difference is whole.
        let one = Divergence(step: 3, event: "x", source: "Cart#1", input: nil, recorded: .object(["n": .integer(1)]), live: .object(["n": .integer(2)]), difference: StateDiff(from: .object(["n": .integer(1)]), to: .object(["n": .integer(2)])))
        #expect(!one.description.contains("left out"))
    }
}
