import Flask
import ReadmeChecking
import Rewind
import Testing

// The README's Flask examples (the seed's Redux and Fluxor styles), compiled and run here; a test
// below checks that the README's code blocks appear in this file line for line (in order).

/// What the examples print, kept for the tests: this `print` shadows the standard one in this file.
private let printed = Locked<[String]>([])
private func print(_ line: String) {
    printed.withLock { $0.append(line) }
}

struct CounterState: State {
    enum prop: StateProp {
        case counter, text
    }

    var counter = 0
    var text = ""
}

final class CounterScreen: FlaskReactor {
    let substance = Flask.newSubstance(definedBy: CounterState.self)
    func flaskReactions(reaction: FlaskReaction) {
        reaction.on(CounterState.prop.counter) { change in
            print("counter = \(substance.state.counter)")
        }
        reaction.on(CounterState.prop.text) { change in
            print("text = \(substance.state.text)")
        }
    }

    func viewDidLoad() {
        Flask.attachReactor(to: self, mixing: [substance])
        produceTestReaction()
    }

    func produceTestReaction() {
        Flask.getReactor(attachedTo: self)
            .mixing(substance) { substance in
                substance.prop.counter = 10
            }.with(substance) { substance in
                substance.prop.text = "changed!"
            }.andReact()
    }
}

enum EnvMixers: SubstanceMixer {
    case Login
    case Logout
}

struct AppState: State {
    enum prop: StateProp {
        case counter, title
    }

    var counter = 0
    var title = ""
}

final class AppReactiveSubstance: ReactiveSubstance<AppState, EnvMixers>, @unchecked Sendable {
    override func defineMixers() {
        define(mix: .Login) { [unowned self] payload, react, abort in
            self.prop.title = "signed"
            self.prop.counter += 1
            react()
        }
    }
}

enum Subs {
    static let appReactive = AppReactiveSubstance()
}

final class SessionScreen: FlaskReactor {
    func flaskReactions(reaction: FlaskReaction) {
        reaction.on(AppState.prop.title) { change in
            print("global title = \(Subs.appReactive.state.title)")
        }
    }

    func viewDidLoad() {
        Flask.attachReactor(to: self, mixing: [Subs.appReactive])
        produceTestReaction()
    }

    func produceTestReaction() {
        Flask.substances(reactTo: EnvMixers.Login, payload: ["username": "foo"])
    }
}

extension FlaskTests {
    @Suite("Flask README examples")
    struct ReadmeExampleTests {
        @Test("Redux style: chained mixes react once per changed key")
        func reduxStyle() {
            printed.withLock { $0 = [] }
            let screen = CounterScreen()
            screen.viewDidLoad()
            #expect(printed.withLock { $0 } == ["counter = 10", "text = changed!"])
            Flask.detachReactor(from: screen)
        }

        @Test("Fluxor style: a process-wide mixer reaches the reactive substance and its reactors")
        func fluxorStyle() {
            printed.withLock { $0 = [] }
            let screen = SessionScreen()
            screen.viewDidLoad()
            #expect(printed.withLock { $0 } == ["global title = signed"])
            #expect(Subs.appReactive.state.counter >= 1)
            Flask.detachReactor(from: screen)
        }

        @Test("every Swift block of the README's Flask section is in this file, line for line, in order")
        func readmeMatchesThisFile() throws {
            try DocumentedCode.expectBlocks(ofArticle: "Flask", appearIn: #filePath)
        }
    }
}
