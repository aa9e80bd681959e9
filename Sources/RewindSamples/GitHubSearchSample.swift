import Foundation
@preconcurrency import OpenCombine
import Unio

/// The Unio README's GitHub repository search, without the network: a view stream that debounces
/// the search text and asks an API stream, which answers from a fixed catalogue after a latency.
/// Both run on a `SessionScheduler`: real time in an app (and in the replay tests' recordings), a
/// virtual clock in the demo and in replays. Used by `rewind demo`, the fixtures and the tests.
public enum GitHub {
    /// A repository as the search API describes it.
    public struct Repository: Codable, Equatable, Sendable {
        public let id: Int
        public let fullName: String
        public let stars: Int

        public init(id: Int, fullName: String, stars: Int) {
            self.id = id
            self.fullName = fullName
            self.stars = stars
        }
    }

    /// A page of search results.
    public struct ItemsResponse: Codable, Equatable, Sendable {
        public let totalCount: Int
        public let items: [Repository]
    }

    /// Why a search failed.
    public struct SearchError: Error, Equatable, CustomStringConvertible {
        public let query: String
        public var description: String { "the search for '\(query)' failed" }
    }

    /// What the fake API knows.
    public static let catalogue: [Repository] = [
        Repository(id: 1, fullName: "apple/swift", stars: 67_000),
        Repository(id: 2, fullName: "apple/swift-log", stars: 3_500),
        Repository(id: 3, fullName: "apple/swift-collections", stars: 3_700),
        Repository(id: 4, fullName: "ReactiveX/RxSwift", stars: 24_300),
        Repository(id: 5, fullName: "OpenCombine/OpenCombine", stars: 2_700),
        Repository(id: 6, fullName: "cats-oss/Unio", stars: 150),
        Repository(id: 7, fullName: "marty-suzuki/Ricemill", stars: 60),
    ]
}

/// The search API as a stream: a query in, a response (or an error) out, after `latency` on the
/// scheduler. A query containing "fail" fails, to show the error path.
public final class GitHubSearchAPIStream: UnioStream<GitHubSearchAPIStream>, @unchecked Sendable {
    // Unchecked: a stream's wrappers and state are thread-safe; see `PrimitiveStream`.
    public typealias State = NoState

    /// The query to search for.
    public struct Input: InputType {
        public let searchRepository = PublishRelay<String>()
        public init() {}
    }

    /// Responses and errors.
    public struct Output: OutputType {
        public let searchResponse: Observable<GitHub.ItemsResponse>
        public let searchError: Observable<any Error>
    }

    /// The clock and the answer's delay.
    public struct Extra: ExtraType {
        public let scheduler: SessionScheduler
        public let latency: SessionScheduler.SchedulerTimeType.Stride

        public init(scheduler: SessionScheduler, latency: SessionScheduler.SchedulerTimeType.Stride = .milliseconds(200)) {
            self.scheduler = scheduler
            self.latency = latency
        }
    }

    /// An API stream on `scheduler`.
    public convenience init(scheduler: SessionScheduler) {
        self.init(input: Input(), state: State(), extra: Extra(scheduler: scheduler))
    }

    public static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
        let extra = dependency.extra
        let results = PublishRelay<Result<GitHub.ItemsResponse, GitHub.SearchError>>()
        dependency.inputObservables.searchRepository
            .delay(for: extra.latency, scheduler: extra.scheduler)
            .map { query -> Result<GitHub.ItemsResponse, GitHub.SearchError> in
                if query.contains("fail") { return .failure(GitHub.SearchError(query: query)) }
                let found = GitHub.catalogue.filter { $0.fullName.localizedCaseInsensitiveContains(query) }
                return .success(GitHub.ItemsResponse(totalCount: found.count, items: found))
            }
            .bind(to: results)
            .disposed(by: disposeBag)

        return Output(
            searchResponse: results.compactMap { try? $0.get() }.asObservable(),
            searchError: results.compactMap { result -> (any Error)? in
                if case .failure(let error) = result { return error }
                return nil
            }.asObservable()
        )
    }
}

/// The search screen's stream: search text in (debounced by 300 ms, empty text ignored), the found
/// repositories and errors out.
public final class GitHubSearchViewStream: UnioStream<GitHubSearchViewStream>, @unchecked Sendable {
    // Unchecked: a stream's wrappers and state are thread-safe; see `PrimitiveStream`.

    /// What the search bar sends.
    public struct Input: InputType {
        public let searchText = PublishRelay<String?>()
        public init() {}
    }

    /// What the list shows.
    public struct Output: OutputType {
        public let repositories: BehaviorRelay<[GitHub.Repository]>
        public let error: Observable<any Error>
    }

    /// The found repositories and the last query sent to the API.
    public struct State: StateType {
        public let repositories = BehaviorRelay<[GitHub.Repository]>(value: [])
        public let lastQuery = BehaviorRelay<String?>(value: nil)
        public init() {}
    }

    /// The API stream and the clock.
    public struct Extra: ExtraType {
        public let apiStream: GitHubSearchAPIStream
        public let scheduler: SessionScheduler

        public init(apiStream: GitHubSearchAPIStream, scheduler: SessionScheduler) {
            self.apiStream = apiStream
            self.scheduler = scheduler
        }
    }

    /// A search stream with its own API stream, both on `scheduler`.
    public convenience init(scheduler: SessionScheduler) {
        self.init(input: Input(), state: State(), extra: Extra(apiStream: GitHubSearchAPIStream(scheduler: scheduler), scheduler: scheduler))
    }

    public static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
        let state = dependency.state
        let apiStream = dependency.extra.apiStream

        apiStream.output.searchResponse
            .map { $0.items }
            .bind(to: state.repositories)
            .disposed(by: disposeBag)

        // One chain rather than a shared stream with two subscribers: OpenCombine hands a value to
        // several subscribers in no fixed order, and this keeps the session the same every run.
        dependency.inputObservables.searchText
            .debounce(for: .milliseconds(300), scheduler: dependency.extra.scheduler)
            .flatMap { text -> Observable<String> in
                guard let text, !text.isEmpty else { return .empty() }
                return .just(text)
            }
            .handleEvents(receiveOutput: { state.lastQuery.accept($0) })
            .bind(to: apiStream.input.searchRepository)
            .disposed(by: disposeBag)

        return Output(repositories: state.repositories, error: apiStream.output.searchError)
    }
}
