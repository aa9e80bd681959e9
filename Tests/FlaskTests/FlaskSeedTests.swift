import Flask
import Foundation
import ReadmeChecking
import Testing

// The Flask seed's examples (001), as written. The seed declares `AppState` three times, so each
// section sits in its own namespace; its view controllers (UIKit) are plain owners here, and its
// XCTest expectations are counters.

/// "Substance" and "Reactive substance".
enum Basics {
    // seed:begin
    struct AppState : State {
        enum prop : StateProp{
            case counter
        }
        var counter = 0
    }
    // seed:end

    // seed:begin
    class Feed : Substance<AppState> {}
    // seed:end

    // seed:begin
    enum Mixers : SubstanceMixer {
        case Login
    }
    // seed:end

    // seed:begin
    class App : ReactiveSubstance<AppState,Mixers> {
        override func defineMixers(){
            define(mix: . Login) { (payload, react, abort)  in
                self.prop.counter = self.prop.counter + 1
                react()
            }
        }
    }
    // seed:end
}

/// The Fluxor style's manifest and substance.
enum Fluxor {
    // seed:begin
    enum EnvMixers : SubstanceMixer {
        case Login
        case Logout
    }
    // seed:end

    // seed:begin
    class Subs {
        static let appReactive = AppReactiveSubstance()
    }
    // seed:end

    // seed:begin
    struct AppState : State {
        enum prop : StateProp{
            case counter, title
        }
        var counter = 0
        var title = ""
    }
    // seed:end

    // seed:begin
    class AppReactiveSubstance : ReactiveSubstance<AppState,EnvMixers> {
        override func defineMixers(){
            define(mix: .Login) { (payload, react, abort)  in
                self.prop.title = "signed"
                react()
            }
        }
    }
    // seed:end
}

/// "NSObjects and dictionaries".
enum References {
    // seed:begin
    struct myState : State{
       var object = FlaskRef( NSObject() )
    }
    // seed:end

    // seed:begin
    struct AppState : State {
        enum prop : StateProp{
            case info
        }
        var info:FlaskDictRef?
    }
    // seed:end
}

/// "Archiving": a substance that customises where and when it archives.
final class ArchivedCounter: Substance<Basics.AppState>, @unchecked Sendable {
    // Unchecked: as `Substance`.
    // seed:begin
    override func archiveKeySpace()->String{
        return "1"
    }
    override func archiveKey()->String{
        return "Fx.\(archiveKeySpace()).\(name())"
    }
    override func archiveDelay()->Double{
        return 2.0
    }
    // seed:end
}

final class TestOwner {}

extension FlaskTests {
    @Suite("The Flask seed's examples")
    struct SeedExamples {
        typealias AppState = Basics.AppState
        typealias EnvMixers = Fluxor.EnvMixers

        let substance = Basics.App()
        let owner = TestOwner()

        @Test("substances, mixers, a reactor's handler, chain reactions and locks")
        func substancesAndReactors() {
            var fulfilled = 0
            // seed:begin
            let reactor = Flask.reactor(attachedTo:owner,mixing:substance)
            reactor.handler={owner, reaction in
                reaction.on(AppState.prop.counter, { (change) in
            // seed:end
                    fulfilled += 1
                })
            }
            Flask.substances(reactTo: Basics.Mixers.Login)
            #expect(substance.state.counter == 1 && fulfilled == 1)

            let feed = Basics.Feed()
            // seed:begin
            let lock = Flask.lock()
            // seed:end
            reactor.mix(substance) { $0.prop.counter = 10 }.mix(feed) { $0.prop.counter = 3 }.react()
            #expect(substance.state.counter == 1, "the mix waits for the lock")
            // seed:begin
            lock.release()
            // seed:end
            #expect(substance.state.counter == 10 && feed.state.counter == 3 && fulfilled == 2)
            Flask.detachReactor(from: owner)
        }

        @Test("the Fluxor style: a global mixer reaches the shared reactive substance")
        func fluxor() {
            // The seed's view controller attaches a reactor mixing it, which makes the shared substance.
            let screen = TestOwner()
            Flask.reactor(attachedTo: screen, mixing: [Fluxor.Subs.appReactive])
            // seed:begin
            Flask.substances(reactTo:EnvMixers.Login, payload:["username":"foo"])
            // seed:end
            #expect(Fluxor.Subs.appReactive.state.title == "signed")
        }

        @Test("a FlaskDictRef's nested keys are observed with dotted paths")
        func dictionaryReferences() {
            let substance = Flask.newSubstance(definedBy: References.AppState.self)
            var printed: [String] = []
            let reactor = Flask.reactor(attachedTo: owner, mixing: substance)
            reactor.handler = { _, reaction in
                // seed:begin
                reaction.on("info.nest.data", { (change) in
                     print(change.newValue()!)
                // seed:end
                     printed.append("\(change.newValue()!)")
                })
            }
            // seed:begin
            reactor.mix(substance){ (substance) in
                let data:NSDictionary = [
                    "foo":"bar",
                    "nest":[
                        "data":"some"
                    ]
                ]
                substance.prop.info = FlaskDictRef(data)
            }.react()
            // seed:end
            #expect(printed == ["some"])
            Flask.detachReactor(from: owner)
            _ = References.myState()
        }

        @Test("archiving customised by overrides")
        func archiving() {
            let counter = ArchivedCounter(name: "seed-archive-\(UUID().uuidString)")
            #expect(counter.archiveKey() == "Fx.1.\(counter.name())" && counter.archiveDelay() == 2.0)
        }

        @Test("the code above is the seed's, as written")
        func asWritten() throws {
            try SeedText.expectRegions(of: #filePath, in: "001_cf85f2f992b5261c.txt")
        }
    }
}
