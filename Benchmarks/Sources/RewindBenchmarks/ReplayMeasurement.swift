import Cycler
import Foundation
@_spi(Tooling) import Rewind

/// Replay speed: a counter session of `sends` replayable actions is recorded, then replayed into a
/// fresh view model — every input re-sent, every state compared — as `expectReplay` does.
enum ReplayMeasurement {
    struct Result: Codable {
        var journalEvents: Int
        var inputsReplayed: Int
        var statesCompared: Int
        var seconds: Double
        var eventsPerSecond: Double
        var inputsPerSecond: Double
        var faithful: Bool
    }

    static func run(directory: String, sends: Int = 100_000) throws -> Result {
        let path = directory + "/replay-counter.rewind"
        var configuration = JournalConfiguration()
        configuration.replaceExisting = true
        let journal = try JournalLogger(path: path, configuration: configuration)
        let recorded = ReplayCounter()
        recorded.set(logger: journal)
        for index in 0..<sends {
            recorded.send(index % 10 == 0 ? .add(3) : .increment)
        }
        journal.close()

        let start = EventTime.monotonicNow()
        let replay = try Replay(journal: path)
        try replay.bind("ReplayCounter", to: ReplayCounter().replayTarget)
        let report = replay.run()
        let seconds = Double(EventTime.monotonicNow() - start) / 1e9
        let events = replay.reader.eventCount
        return Result(
            journalEvents: events, inputsReplayed: report.inputsReplayed, statesCompared: report.statesCompared,
            seconds: seconds, eventsPerSecond: Double(events) / seconds, inputsPerSecond: Double(report.inputsReplayed) / seconds,
            faithful: report.passes()
        )
    }

    static func line(_ result: Result) -> String {
        String(format: "replay of a %d-event counter session (%d actions re-sent, %d states compared): %.2f s, %.0f events/s, %.0f inputs/s%@",
               result.journalEvents, result.inputsReplayed, result.statesCompared, result.seconds, result.eventsPerSecond, result.inputsPerSecond,
               result.faithful ? "" : " — NOT FAITHFUL")
    }
}

/// The counter the replay measurement records and replays.
final class ReplayCounter: ReplayableCycler {
    enum Action: Codable { case increment, add(Int) }
    struct State: Codable { var count = 0; var step = 1; var isEnabled = true }
    let state: Storage<State> = .init(.init())

    func handle(_ action: Action) {
        switch action {
        case .increment: commit("increment") { $0.update($0.value.count + 1, \.count) }
        case .add(let amount): commit("add") { $0.update($0.value.count + amount, \.count) }
        }
    }
}
