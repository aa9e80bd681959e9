import Cycler
import Flask
import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import Ricemill
import Unio

/// A recording that plants a distinct secret value in every shape a unit can record one: state
/// fields (plain, nested, in lists, as dictionary keys, `@Secret`, a dictionary keyed by a
/// `String` enum), enum payloads, names the word rule covers (`tokens`, `secretKey`,
/// `passwordHash`, `tokenReceived`), and the payloads of dispatches, inputs, outputs, activities
/// and mixers whose *names* are secret. The leak tests look for every value in every output.
enum SecretPlantingSession {
    /// Every planted value; none may appear anywhere.
    static var secrets: [String] { planted.map(\.value) }

    /// The planted values, each with a name saying where it went.
    static let planted: [(shape: String, value: String)] = [
        ("state field password", "pw-field-1111"),
        ("nested field token", "nested-token-2222"),
        ("array element field apiKey", "array-apikey-3333"),
        ("dictionary value under key password", "dictkey-pw-4444"),
        ("@Secret field", "secret-wrapper-5555"),
        ("enum payload setToken", "enum-payload-6666"),
        ("field tokens", "tokens-plural-7777"),
        ("field secretKey", "secretkey-8888"),
        ("field passwordHash", "hash-9999"),
        ("enum case tokenReceived", "received-1212"),
        ("[Field: String] keyed by case password", "enumkey-1313"),
        ("Cycler dispatch setPassword payload", "cycler-setpw-1414"),
        ("Cycler dispatch setToken array payload", "cycler-settoken-1515"),
        ("Cycler activity tokenReceived", "cycler-activity-1616"),
        ("Cycler replayable action setPassword", "cycler-action-1717"),
        ("Ricemill input password", "ricemill-pw-1818"),
        ("Ricemill input setToken", "ricemill-settoken-1919"),
        ("Ricemill input apiKey", "ricemill-apikey-2020"),
        ("Ricemill bindable apiKey", "ricemill-bound-2121"),
        ("Ricemill output token", "ricemill-out-2323"),
        ("Unio input password", "unio-pw-2424"),
        ("Unio input apiKey", "unio-apikey-2525"),
        ("Unio output secret", "unio-out-2626"),
        ("Flask mixer setPassword payload", "flask-mixer-2727"),
        ("error carrying a token", "error-token-2828"),
    ]

    static func value(_ shape: String) -> String {
        planted.first { $0.shape == shape }!.value
    }

    // MARK: Cycler

    enum Field: String, Codable, Hashable { case password, nickname }

    struct Credentials: Codable, Equatable { var user = "ada"; var token = "" }
    struct Key: Codable, Equatable { var label = "k"; var apiKey = "" }
    struct Failure: Error, Codable, Equatable { var token: String }

    enum Status: Codable, Equatable {
        case idle
        case setToken(String)
        case tokenReceived(String)
    }

    struct LoginState: Codable {
        var user = "ada"
        var password = ""
        var credentials = Credentials()
        var keys: [Key] = []
        var byKey: [String: String] = [:]
        @Secret var wrapped = ""
        var status = Status.idle
        var tokens: [String] = []
        var secretKey = ""
        var passwordHash = ""
        var fields: [Field: String] = [:]
        var lastError: Failure?
    }

    enum Activity { case tokenReceived(String) }

    final class LoginCycler: CyclerType {
        typealias Activity = SecretPlantingSession.Activity
        let state: Storage<LoginState> = .init(.init())

        func run() {
            dispatch("setPassword", with: value("Cycler dispatch setPassword payload")) { context, password in
                context.commit { $0.update(password + "-stored", \.password) }
            }
            dispatch("setToken", with: [value("Cycler dispatch setToken array payload")]) { context, _ in
                context.commit { storage in
                    storage.update {
                        $0.password = value("state field password")
                        $0.credentials.token = value("nested field token")
                        $0.keys = [Key(label: "main", apiKey: value("array element field apiKey"))]
                        $0.byKey = ["password": value("dictionary value under key password"), "plain": "visible"]
                        $0.wrapped = value("@Secret field")
                        $0.status = .setToken(value("enum payload setToken"))
                        $0.tokens = [value("field tokens")]
                        $0.secretKey = value("field secretKey")
                        $0.passwordHash = value("field passwordHash")
                        $0.fields = [.password: value("[Field: String] keyed by case password"), .nickname: "countess"]
                        $0.lastError = Failure(token: value("error carrying a token"))
                    }
                }
                context.commit { $0.update(.tokenReceived(value("enum case tokenReceived")), \.status) }
                context.emit(.tokenReceived(value("Cycler activity tokenReceived")))
            }
        }
    }

    enum LoginAction: Codable, Sendable { case setPassword(String) }

    final class ReplayableLogin: ReplayableCycler {
        typealias Action = LoginAction
        let state: Storage<LoginState> = .init(.init())

        func handle(_ action: LoginAction) {
            switch action {
            case .setPassword(let password): commit("store") { $0.update(password, \.password) }
            }
        }
    }

    // MARK: Ricemill

    enum LoginResolver: ResolverType {
        struct Input: Ricemill.InputType {
            let password = PassthroughSubject<String, Never>()
            let setToken = PassthroughSubject<String, Never>()
            let apiKey = PassthroughSubject<String, Never>()
        }
        final class Output: Ricemill.OutputType {
            let token: AnyPublisher<String, Never>
            init(token: AnyPublisher<String, Never>) { self.token = token }
        }
        final class Store: StoreType {
            @Published var attempts = 0
        }
        struct Extra: Ricemill.ExtraType {}

        static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
            var cancellables: [AnyCancellable] = []
            input.password.merge(with: input.setToken).merge(with: input.apiKey)
                .map { _ in store.attempts + 1 }
                .assign(to: \.attempts, on: store)
                .store(in: &cancellables)
            let output = Output(token: store.$attempts.filter { $0 == 3 }.map { _ in value("Ricemill output token") }.eraseToAnyPublisher())
            return Polished(output: output, cancellables: cancellables)
        }
    }

    final class BindableLogin: Machine<BindableLogin> {
        typealias Output = Store
        final class Input: BindableInputType {
            @Published var apiKey = ""
            init() {}
        }
        final class Store: StoredOutputType {
            @Published var length = 0
            init() {}
        }
        struct Extra: Ricemill.ExtraType {}

        static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
            var cancellables: [AnyCancellable] = []
            input.$apiKey.map(\.count).assign(to: \.length, on: store).store(in: &cancellables)
            return Polished(cancellables: cancellables)
        }
    }

    // MARK: Unio

    final class LoginStream: UnioStream<LoginStream>, @unchecked Sendable {
        // Unchecked: a stream's wrappers and state are thread-safe; see `PrimitiveStream`.
        struct Input: Unio.InputType {
            let password = PublishRelay<String>()
            let apiKey = PublishRelay<String>()
        }
        struct Output: Unio.OutputType {
            let secret: Observable<String>
        }
        struct State: StateType {
            let sent = BehaviorRelay<Int>(value: 0)
        }
        struct Extra: Unio.ExtraType {}

        static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
            let state = dependency.state
            let inputs = dependency.inputObservables
            let sent = Observable.merge(inputs.password, inputs.apiKey).map { _ in state.sent.value + 1 }.share()
            sent.bind(to: state.sent).disposed(by: disposeBag)
            return Output(secret: sent.filter { $0 == 2 }.map { _ in value("Unio output secret") }.asObservable())
        }
    }

    // MARK: Flask

    enum LoginMixers: SubstanceMixer { case setPassword }

    struct FlaskLoginState: State {
        enum prop: StateProp { case attempts }
        var attempts = 0
    }

    final class FlaskLogin: ReactiveSubstance<FlaskLoginState, LoginMixers>, @unchecked Sendable {
        // Unchecked: as `ReactiveSubstance`.
        override func defineMixers() {
            define(mix: .setPassword) { [unowned self] _, react, _ in
                self.prop.attempts += 1
                react()
            }
        }
    }

    // MARK: The session

    /// Records the whole session to `logger`, every unit attached to it.
    static func record(to logger: any CycleLogging) {
        let cycler = LoginCycler()
        cycler.set(logger: logger)
        cycler.run()

        let replayable = ReplayableLogin()
        replayable.set(logger: logger)
        replayable.send(.setPassword(value("Cycler replayable action setPassword")))

        let machine = AnyResolverBasedMachine(input: LoginResolver.Input(), store: LoginResolver.Store(), extra: LoginResolver.Extra(), resolver: LoginResolver.self)
        machine.set(logger: logger)
        let tokens = machine.output.token.sink { _ in }
        machine.input.password.send(value("Ricemill input password"))
        machine.input.setToken.send(value("Ricemill input setToken"))
        machine.input.apiKey.send(value("Ricemill input apiKey"))
        tokens.cancel()

        let bindable = BindableLogin(input: .init(), store: .init(), extra: .init())
        bindable.set(logger: logger)
        bindable.input.apiKey.wrappedValue = value("Ricemill bindable apiKey")

        let stream = LoginStream(input: .init(), state: .init(), extra: .init())
        stream.set(logger: logger)
        let secrets = stream.output.secret.subscribe(onNext: { _ in })
        stream.input.password(value("Unio input password"))
        stream.input.apiKey(value("Unio input apiKey"))
        secrets.cancel()

        let substance = FlaskLogin(name: "login")
        substance.set(logger: logger)
        Flask.substances(reactTo: LoginMixers.setPassword, payload: ["password": value("Flask mixer setPassword payload"), "user": "ada"])
        Flask.bus.performInFluxQueue {}
        withExtendedLifetime((cycler, replayable, machine, bindable, stream, substance)) {}
    }
}
