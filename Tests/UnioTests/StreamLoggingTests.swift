@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import RewindSamples
import Testing
import Unio

func summary(_ event: Event) -> String {
    let options = CaptureOptions.current
    let source = event.source.typeName
    switch event.kind {
    case .willDispatch(let input):
        return "\(source) willDispatch \(event.name)" + (input.map { " " + $0.tree(options: options).compactDescription(limit: 120) } ?? "")
    case .didDispatch:
        return "\(source) didDispatch \(event.name)"
    case .change(let path, let value, _):
        return "\(source) change \(path) = \(value.tree(options: options).compactDescription(limit: 120))"
    case .activity(let value):
        return "\(source) activity \(event.name) \(value.tree(options: options).compactDescription(limit: 120))"
    case .created(let state):
        return "\(source) created " + (state.map { $0.tree(options: options).compactDescription(limit: 120) } ?? "")
    default:
        return "\(source) \(event.kind.name)"
    }
}

@Suite("Unio streams, logged")
struct StreamLoggingTests {
    @Test("the search example debounces on the virtual clock: only the settled text is searched")
    func debouncedSearch() {
        let scheduler = VirtualTimeScheduler()
        let search = GitHubSearchViewStream(scheduler: .virtual(scheduler))
        var shown: [[String]] = []
        let subscription = search.output.repositories.subscribe(onNext: { shown.append($0.map(\.fullName)) })
        search.input.searchText("s")
        scheduler.advance(by: .milliseconds(100))
        search.input.searchText("sw")
        scheduler.advance(by: .milliseconds(299))
        #expect(shown == [[]], "nothing searched before the text settles for 300 ms")
        search.input.searchText("swift-log")
        scheduler.advance(by: .milliseconds(300))
        #expect(shown == [[]], "searched now; the answer takes 200 ms")
        scheduler.advance(by: .milliseconds(200))
        #expect(shown == [[], ["apple/swift-log"]])
        search.input.searchText(nil)
        scheduler.advance(by: .seconds(1))
        #expect(shown.count == 2, "an empty search text is ignored")
        subscription.cancel()
        #expect(scheduler.now.nanoseconds == 1_899_000_000)
    }

    @Test("the exact events of a search: inputs, the API dispatch, state changes and outputs")
    func exactEvents() {
        let logger = InMemoryLogger()
        let scheduler = VirtualTimeScheduler()
        let api = GitHubSearchAPIStream(scheduler: .virtual(scheduler))
        api.set(logger: logger)
        let search = GitHubSearchViewStream(input: .init(), state: .init(), extra: .init(apiStream: api, scheduler: .virtual(scheduler)))
        search.set(logger: logger)
        let errors = search.output.error.subscribe(onNext: { _ in })
        search.input.searchText("unio")
        scheduler.advance(by: .seconds(1))
        search.input.searchText("fail")
        scheduler.advance(by: .seconds(1))
        errors.cancel()

        #expect(logger.eventsInSequenceOrder.map(summary) == [
            "GitHubSearchAPIStream created {}",
            "GitHubSearchViewStream created {repositories: [], lastQuery: nil}",
            #"GitHubSearchViewStream willDispatch searchText "unio""#,
            "GitHubSearchViewStream didDispatch searchText",
            // The debounce fires 300 ms later, as an effect of the search text: the view stream's
            // change is one commit, logged when the effect ends (after the API dispatch it made).
            #"GitHubSearchAPIStream willDispatch searchRepository "unio""#,
            "GitHubSearchAPIStream didDispatch searchRepository",
            "GitHubSearchViewStream willMutate",
            #"GitHubSearchViewStream change lastQuery = "unio""#,
            "GitHubSearchViewStream didMutate",
            // The answer 200 ms later, as an effect of the API dispatch.
            #"GitHubSearchAPIStream activity searchResponse {totalCount: 1, items: [{id: 6, fullName: "cats-oss/Unio", stars: 150}]}"#,
            "GitHubSearchViewStream willMutate",
            #"GitHubSearchViewStream change repositories = [{id: 6, fullName: "cats-oss/Unio", stars: 150}]"#,
            "GitHubSearchViewStream didMutate",
            #"GitHubSearchViewStream willDispatch searchText "fail""#,
            "GitHubSearchViewStream didDispatch searchText",
            #"GitHubSearchAPIStream willDispatch searchRepository "fail""#,
            "GitHubSearchAPIStream didDispatch searchRepository",
            "GitHubSearchViewStream willMutate",
            #"GitHubSearchViewStream change lastQuery = "fail""#,
            "GitHubSearchViewStream didMutate",
            #"GitHubSearchAPIStream activity searchError {query: "fail"}"#,
            #"GitHubSearchViewStream activity error {query: "fail"}"#,
        ])
        // Each effect names its cause: the debounced search the search text, the answer the API
        // dispatch that asked.
        let events = logger.eventsInSequenceOrder
        let searchText = events.filter { $0.kind.category == .willDispatch && $0.name == "searchText" }
        let apiDispatches = events.filter { $0.kind.category == .willDispatch && $0.name == "searchRepository" }
        #expect(apiDispatches.map(\.parent) == searchText.map(\.sequence))
        let answer = events.first { $0.kind.category == .activity && $0.name == "searchResponse" }
        #expect(answer?.parent == apiDispatches.first?.sequence)
    }

    @Test("changes caused inside a dispatch carry it as their parent; a released stream says so")
    func parentsAndRelease() {
        let logger = InMemoryLogger()
        weak var released: ProbeStream?
        do {
            let stream = makeProbe()
            released = stream
            stream.set(logger: logger)
            stream.input.count(7)
            stream.input.tap.onNext()
        }
        #expect(released == nil)
        let events = logger.eventsInSequenceOrder
        #expect(events.map(summary) == [
            "ProbeStream created {total: 0, taps: 0}",
            "ProbeStream willDispatch count 7", "ProbeStream willMutate", "ProbeStream change total = 7", "ProbeStream didMutate", "ProbeStream didDispatch count",
            "ProbeStream willDispatch tap", "ProbeStream willMutate", "ProbeStream change taps = 1", "ProbeStream didMutate", "ProbeStream didDispatch tap",
            "ProbeStream released",
        ])
        #expect(events[2...4].allSatisfy { $0.parent == events[1].sequence })
        #expect(events[7...9].allSatisfy { $0.parent == events[6].sequence })
    }
}
