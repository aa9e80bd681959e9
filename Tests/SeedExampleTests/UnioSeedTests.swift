@preconcurrency import OpenCombine
import ReadmeChecking
import RewindSamples
import Testing
import Unio

// The Unio seed's examples (002), as written. Where the seed leaves a piece out or cannot compile
// as printed (`let apiStream: GitHubSearchAPIStream()` is not Swift), the piece is written outside
// the marked regions. The API stream the seed's view stream sends to is a small one here.

/// The API stream the seed's view stream drives: a query in, the matching repositories out.
final class GitHubSearchAPIStream: UnioStream<GitHubSearchAPIStream> {
    convenience init() {
        self.init(input: Input(), state: State(), extra: Extra())
    }

    typealias State = NoState
    struct Extra: ExtraType {}

    struct Input: InputType {
        let searchText = PublishRelay<String?>()
    }

    struct Output: OutputType {
        let searchResponse: Observable<SearchResponse>
    }

    struct SearchResponse {
        let items: [GitHub.Repository]
    }

    static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
        let response = dependency.inputObservables.searchText
            .map { text -> SearchResponse in
                let query = text ?? ""
                return SearchResponse(items: GitHub.catalogue.filter { $0.fullName.contains(query) })
            }
        return Output(searchResponse: response)
    }
}

/// The seed's "Input" and "Output" sections.
enum Components {
    // seed:begin
    struct Input: InputType {
        let searchText = PublishRelay<String?>()
        let buttonTap = PublishSubject<Void>()
    }
    // seed:end

    // seed:begin
    struct Output: OutputType {
        let repositories: BehaviorRelay<[GitHub.Repository]>
        let isEnabled: BehaviorSubject<Bool>
        let error: Observable<Error>
    }
    // seed:end

    enum ComputedOutput {
        // seed:begin
        struct Output: OutputType {
            let isEnabled: Computed<Bool>
        }
        // seed:end
    }
}

// seed:begin
final class GitHubSearchViewStream: UnioStream<GitHubSearchViewStream>, GitHubSearchViewStreamType {

    convenience init() {
        self.init(input: Input(), state: State(), extra: Extra())
    }

    typealias State = NoState

    struct Input: InputType {
        let searchText = PublishRelay<String?>()
    }

    struct Output: OutputType {
        let repositories: Observable<[GitHub.Repository]>
    }

    struct Extra: ExtraType {
// seed:end
        let apiStream = GitHubSearchAPIStream()
// seed:begin
    }

    static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
        let apiStream = dependency.extra.apiStream

        dependency.inputObservables.searchText
            .bind(to: apiStream.input.searchText)
            .disposed(by: disposeBag)

        let repositories = apiStream.output.searchResponse
            .map { $0.items }

        return Output(repositories: repositories)
    }
}
// seed:end

// seed:begin
protocol GitHubSearchViewStreamType: AnyObject {
    var input: InputWrapper<GitHubSearchViewStream.Input> { get }
    var output: OutputWrapper<GitHubSearchViewStream.Output> { get }
}
// seed:end

@Suite("The Unio seed's examples")
struct UnioSeedTests {
    @Test("the view stream: a search text in, the API stream's repositories out")
    func viewStream() {
        let viewStream: GitHubSearchViewStreamType = GitHubSearchViewStream()
        var found: [[String]] = []
        let subscription = viewStream.output.repositories.subscribe(onNext: { found.append($0.map(\.fullName)) })
        viewStream.input.searchText("Unio")
        #expect(found == [["cats-oss/Unio"]])
        subscription.dispose()
    }

    @Test("wrapped input and output: accept and AnyObserver in; observables, Property and ThrowableProperty out")
    func wrappers() {
        let input = InputWrapper(Components.Input())
        var texts: [String?] = []
        let texting = Components.Input().searchText.subscribe(onNext: { texts.append($0) })
        // seed:begin
        input.searchText("query")  // accesses `func accept(_:)`
        input.buttonTap.onNext(()) // accesses `AnyObserver`
        // seed:end
        input.buttonTap.on(.completed)
        texting.dispose()

        let output = OutputWrapper(Components.Output(
            repositories: BehaviorRelay(value: [GitHub.catalogue[0]]), isEnabled: BehaviorSubject(value: true), error: .empty()
        ))
        var printed: [String] = []
        let subscriptions = [
            output.repositories
                .subscribe(onNext: { printed.append("\($0.map(\.fullName))") }),
            output.isEnabled
                .subscribe(onNext: { printed.append("\($0)") }),
            output.error
                .subscribe(onNext: { printed.append("\($0)") }),
        ]
        // seed:begin
        let p: Property<[GitHub.Repository]> = output.repositories
        p.value

        let t: ThrowableProperty<Bool> = output.isEnabled
        try? t.throwableValue()
        // seed:end
        #expect(printed == [#"["apple/swift"]"#, "true"])
        #expect(p.value.count == 1 && (try? t.throwableValue()) == true)
        subscriptions.forEach { $0.dispose() }
    }

    @Test("a computed output is read each time")
    func computed() {
        nonisolated(unsafe) var _isEnabled = false
        // Unsafe: read and written on this test's thread only.
        let output = OutputWrapper(Components.ComputedOutput.Output(isEnabled: Computed<Bool> { _isEnabled }))
        #expect(output.isEnabled == false)
        _isEnabled = true
        #expect(output.isEnabled == true)
    }

    @Test("the code above is the seed's, as written")
    func asWritten() throws {
        try SeedText.expectRegions(of: #filePath, in: "002_576158ce439d4801.txt")
    }
}
