@preconcurrency import OpenCombine
import ReadmeChecking
import Rewind
import RewindSamples
import Testing
import Unio

// The README's Unio example, compiled and run here; a test below checks that the README's code
// blocks appear in this file line for line (in order).

final class RepositorySearchStream: UnioStream<RepositorySearchStream> {
    convenience init(scheduler: SessionScheduler) {
        let apiStream = GitHubSearchAPIStream(scheduler: scheduler)
        self.init(input: Input(), state: State(), extra: Extra(apiStream: apiStream, scheduler: scheduler))
    }

    typealias State = NoState

    struct Input: InputType {
        let searchText = PublishRelay<String?>()
    }

    struct Output: OutputType {
        let repositories: Observable<[GitHub.Repository]>
    }

    struct Extra: ExtraType {
        let apiStream: GitHubSearchAPIStream
        let scheduler: SessionScheduler
    }

    static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
        let apiStream = dependency.extra.apiStream

        dependency.inputObservables.searchText
            .debounce(for: .milliseconds(300), scheduler: dependency.extra.scheduler)
            .compactMap { $0 }
            .filter { !$0.isEmpty }
            .bind(to: apiStream.input.searchRepository)
            .disposed(by: disposeBag)

        let repositories = apiStream.output.searchResponse
            .map { $0.items }

        return Output(repositories: repositories.asObservable())
    }
}

@Suite("Unio README example")
struct UnioReadmeExampleTests {
    @Test("the README's usage runs as it says")
    func usage() {
        let clock = VirtualTimeScheduler()
        let stream = RepositorySearchStream(scheduler: .virtual(clock))
        stream.set(logger: ConsoleLogger())
        var found: [[String]] = []
        let subscription = stream.output.repositories.subscribe(onNext: { found.append($0.map(\.fullName)) })
        stream.input.searchText("rx")
        stream.input.searchText("swift-log")
        clock.advance(by: .milliseconds(500))   // the 300 ms debounce, then the API's 200 ms
        subscription.cancel()
        #expect(found == [["apple/swift-log"]])
    }

    @Test("every Swift block of the README's Unio section is in this file, line for line, in order")
    func readmeMatchesThisFile() throws {
        try DocumentedCode.expectBlocks(ofArticle: "Unio", appearIn: #filePath)
    }
}
