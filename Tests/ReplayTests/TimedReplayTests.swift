import CombineOperators
import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import RewindSamples
import RewindTesting
import Testing
import TestSupport
import Unio

@Suite("Replaying a session recorded in real time")
struct TimedReplayTests {
    /// Records the search sample on a real clock: three quick keystrokes (one search after the
    /// debounce), then another query. Waits for each answer, never sleeps.
    func recordRealTimeSession(to path: String) async throws {
        let journal = try JournalLogger(path: path)
        let queue = DispatchQueue(label: "search")
        let scheduler = SessionScheduler.realTime(queue: queue)
        let api = GitHubSearchAPIStream(scheduler: scheduler)
        api.set(logger: journal)
        let search = GitHubSearchViewStream(input: .init(), state: .init(), extra: .init(apiStream: api, scheduler: scheduler))
        search.set(logger: journal)

        var subscription: Disposable?
        let answers = AsyncStream<[String]> { continuation in
            subscription = search.output.repositories.subscribe(onNext: { continuation.yield($0.map(\.fullName)) })
        }
        var iterator = answers.makeAsyncIterator()
        #expect(await iterator.next() == [])
        search.input.searchText("s")
        search.input.searchText("sw")
        search.input.searchText("swift-log")
        #expect(await iterator.next() == ["apple/swift-log"])
        search.input.searchText("rx")
        #expect(await iterator.next() == ["ReactiveX/RxSwift"])
        // Everything the queue was doing when the answer came is logged once it is idle.
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        subscription?.cancel()
        journal.close()
    }

    @Test("a debounced search replays on a virtual clock: no divergence, the same every time, far faster than recorded")
    func debouncedSearch() async throws {
        let temporary = TemporaryDirectory()
        let path = temporary.file("realtime.rewind")
        try await recordRealTimeSession(to: path)

        let reader = try JournalReader(path: path)
        let times = reader.events().map(\.monotonicNanoseconds)
        let recordedSpan = Duration.nanoseconds(Int64(times.max()! - times.min()!))
        #expect(recordedSpan > .milliseconds(1_000), "two debounced searches with their answers: over a second of real time")

        var reports: [String] = []
        var replayTimes: [Duration] = []
        for _ in 0..<2 {
            let clock = VirtualTimeScheduler()
            let live = GitHubSearchViewStream(scheduler: .virtual(clock))
            let started = ContinuousClock.now
            let report = try #require(expectReplay(of: path, driving: ["GitHubSearchViewStream": live.replayTarget], clock: clock))
            replayTimes.append(ContinuousClock.now - started)
            reports.append(report.description)
            #expect(report.inputsReplayed == 4)
            #expect(live.output.repositories.value.map(\.fullName) == ["ReactiveX/RxSwift"])
            #expect(clock.now.nanoseconds >= 1_000_000_000, "the virtual clock covered the recorded time")
        }
        #expect(reports[0] == reports[1])
        // Not a speed target: a replay that waited in real time would take the recorded span.
        #expect(replayTimes.allSatisfy { $0 < recordedSpan / 4 }, "replays took \(replayTimes), the session \(recordedSpan)")
    }
}
