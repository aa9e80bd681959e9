import Flask
import Foundation
@_spi(Tooling) import Rewind
import RewindSamples
import Testing

extension FlaskTests {
    /// The original's low-level API and the names its own test suite uses.
    @Suite("Flask's low-level API")
    struct LowLevelAPITests {
        typealias AppState = FlaskSample.AppState
        typealias EnvMixers = FlaskSample.EnvMixers

        final class Owner {}

        @Test("instance(attachedTo:mixing:), getReactor(at:), applyMixer, and ReactorManager's reactors, purge and purgeAll")
        func reactorsAndMixers() {
            ReactorManager.purgeAll()
            #expect(ReactorManager.reactors.isEmpty)
            let app = FlaskSample.AppReactiveSubstance()
            var owner: Owner? = Owner()
            var counters: [Int] = []
            let reactor = Flask.instance(attachedTo: owner!, mixing: app)
            reactor.handler = { _, reaction in
                reaction.on(AppState.prop.counter) { change in
                    let new: Int? = change.newValue()
                    counters.append(new ?? -1)
                }
            }
            #expect(ReactorManager.reactors.count == 1)
            Flask.applyMixer(EnvMixers.login, payload: ["username": "ada"])
            #expect(app.state.counter == 1 && counters == [1])
            Flask.getReactor(at: owner!).mixing(app) { $0.prop.counter = 5 }.andReact()
            #expect(counters == [1, 5])

            owner = nil
            Flask.purgeFlasks()
            #expect(ReactorManager.reactors.isEmpty, "purge drops reactors whose owners are gone")

            let kept = Owner()
            Flask.instance(attachedTo: kept, mixing: [app])
            #expect(ReactorManager.reactors.count == 1)
            ReactorManager.purge()
            #expect(ReactorManager.reactors.count == 1, "purge keeps the reactors of live owners")
            ReactorManager.purgeAll()
            #expect(ReactorManager.reactors.isEmpty)
        }

        @Test("a reactor that unbinds hears of no more changes")
        func unbind() {
            let app = FlaskSample.AppReactiveSubstance()
            let owner = Owner()
            var reactions = 0
            let reactor = Flask.reactor(attachedTo: owner, mixing: app)
            reactor.handler = { _, _ in reactions += 1 }
            Flask.substances(reactTo: EnvMixers.login, payload: ["username": "ada"])
            reactor.unbind()
            Flask.substances(reactTo: EnvMixers.login, payload: ["username": "bob"])
            #expect(reactions == 1 && app.state.counter == 2)
        }

        @Test("a change gives typed old and new values and its substance")
        func typedChange() {
            let app = FlaskSample.AppReactiveSubstance()
            let owner = Owner()
            var seen: [String] = []
            Flask.reactor(attachedTo: owner, mixing: app).handler = { _, reaction in
                reaction.on(AppState.prop.counter) { change in
                    let old: Int? = change.oldValue()
                    let new: Int? = change.newValue()
                    let wrongType: String? = change.newValue()
                    seen.append("\(old ?? -1) → \(new ?? -1), as text \(wrongType ?? "nil"), same substance \(change.substance() === app)")
                }
            }
            Flask.substances(reactTo: EnvMixers.login, payload: ["username": "ada"])
            #expect(seen == ["0 → 1, as text nil, same substance true"])
            Flask.detachReactor(from: owner)
        }

        @Test("reduceChanges compares state dictionaries: nil against values, objects by identity; and a substance's last mix")
        func reduceChanges() {
            let object = NSObject()
            #expect(FlaskReaction.reduceChanges(["key": Flask.Nil], ["key": Flask.Nil]).isEmpty)
            #expect(FlaskReaction.reduceChanges(["key": Flask.Nil], ["key": 1]).count == 1)
            #expect(FlaskReaction.reduceChanges(["key": 1], ["key": Flask.Nil]).count == 1)
            #expect(FlaskReaction.reduceChanges(["key": object], ["key": object]).isEmpty)
            #expect(FlaskReaction.reduceChanges(["key": object], ["key": NSObject()]).count == 1)
            #expect(FlaskReaction.reduceChanges([:], ["key": NSDictionary()]).count == 1)
            let changes = FlaskReaction.reduceChanges(["count": 1, "title": "a"], ["count": 2, "title": "a"])
            #expect(changes.keys.sorted() == ["count"] && changes["count"] == .some(2))

            let app = FlaskSample.AppReactiveSubstance()
            Flask.substances(reactTo: EnvMixers.login, payload: ["username": "ada"])
            let last = FlaskReaction.reduceChanges(substance: app)
            #expect(last.keys.sorted() == ["counter", "title"])
            #expect(last["title"] == .some("signed in as ada"))
        }

        @Test("SubstanceSerializer round-trips a state; objects map to nil")
        func serializer() throws {
            struct Archived: State {
                var counter = 0
                var text = ""
                var map: FlaskDictRef?
                var object = FlaskNSRef(nil)
            }
            var state = Archived()
            state.counter = 666
            state.text = "hello world"
            state.map = FlaskDictRef(["foo": "bar", "nest": ["foo": "bar", "object": NSObject()] as [String: Any]])
            state.object = FlaskNSRef(NSObject())
            let json = try SubstanceSerializer.jsonFromState(state)
            let decoded: Archived = try SubstanceSerializer.stateFromJson(json)
            #expect(decoded.counter == 666 && decoded.text == "hello world")
            #expect(decoded.map?["foo"] as? String == "bar")
            let nest = try #require(decoded.map?["nest"] as? FlaskDictRef)
            #expect(nest["foo"] as? String == "bar")
            #expect(nest["object"] is NSNull, "an object is archived as null")
            #expect(decoded.object.object == nil)
        }

        @Test("a FlaskDictRef nests: count, keys, dotted paths, Flask.Null")
        func dictionaryReferences() {
            let reference = FlaskDictRef([
                "foo": "bar",
                "nest": ["nest": ["foo2": "bar2"], "optional": "some", "none": Flask.Null] as [String: Any],
                "array": [1, 2, 3],
            ])
            let nest = reference["nest"] as? FlaskDictRef
            #expect(reference.count() == 3 && nest?.count() == 3)
            #expect(nest?["optional"] as? String == "some")
            #expect(nest?.keys().contains("none") == true && nest?["none"] as? NSNull == Flask.Null)
            #expect(reference["nest.nest.foo2"] as? String == "bar2")
            #expect((reference["array"] as? [Int])?.count == 3)
        }

        @Test("FluxNotifier: callbacks by mixer while their object lives; Flask's mixers are posted too")
        func notifier() {
            var owner: Owner? = Owner()
            var received: [String] = []
            FluxNotifier.addCallback(forMixer: "test", object: owner) { notification in
                received.append("\(notification.mixer) \(notification.payload?["foo"] as? String ?? "-")")
            }
            FluxNotifier.addCallback(forMixer: EnvMixers.logout.rawValue, object: owner) { _ in received.append("logout") }
            FluxNotifier.postNotification(forMixer: "test", payload: ["foo": "bar"])
            let app = FlaskSample.AppReactiveSubstance()
            Flask.substances(reactTo: EnvMixers.logout)
            #expect(received == ["test bar", "logout"] && app.state.title == "signed out")

            owner = nil
            FluxNotifier.postNotification(forMixer: "test", payload: nil)
            #expect(received.count == 2, "the observer went with its object")

            let other = Owner()
            FluxNotifier.addCallback(forMixer: "test", object: other) { _ in received.append("other") }
            FluxNotifier.removeObservers(forObject: other)
            FluxNotifier.postNotification(forMixer: "test", payload: nil)
            #expect(received.count == 2)
        }

        @Test("lock(withMixer:payload:autorelease:) releases itself after its mixer's reactions; purgeFluxQueue drops what waited")
        func autoreleaseAndPurge() {
            let app = FlaskSample.AppReactiveSubstance()
            var released = 0
            let lock = Flask.lock(withMixer: EnvMixers.login, payload: ["username": "ada"], autorelease: true)
            lock.onRelease = { _ in released += 1 }
            #expect(!Flask.bus.isLocked && app.state.counter == 1)
            // The mixer ran (and the lock released itself) before `onRelease` was set; as with the
            // original, which applied the mixer asynchronously, the handler still runs, once.
            #expect(released == 1)
            lock.release()
            #expect(released == 1)

            // A second autoreleasing lock whose mixer changes nothing (bob is signed out: logout
            // leaves the title as it is… after one logout) releases itself too, and says so.
            Flask.substances(reactTo: EnvMixers.logout)
            var payloads: [String] = []
            let quiet = Flask.lock(withMixer: EnvMixers.logout, autorelease: true)
            quiet.onRelease = { payload in payloads.append("\(payload ?? "none")") }
            #expect(payloads == ["none"] && !Flask.bus.isLocked)

            let held = Flask.lock(withMixer: EnvMixers.login, payload: ["username": "bob"])
            #expect(Flask.bus.isLocked && app.state.counter == 2)
            Flask.substances(reactTo: EnvMixers.logout)
            #expect(Flask.bus.pendingCount == 1)
            Flask.purgeFluxQueue()
            #expect(Flask.bus.pendingCount == 0)
            held.release()
            #expect(app.state.title == "signed in as bob", "the purged logout never ran")
        }

        @Test("rollbackState runs its completion after the rollback, on the flux")
        func rollbackCompletion() {
            let app = FlaskSample.AppReactiveSubstance()
            app.captureState()
            Flask.substances(reactTo: EnvMixers.login, payload: ["username": "ada"])
            var counterInCompletion: Int?
            Flask.bus.performInFluxQueue {
                #expect(app.state.counter == 1)
                app.rollbackState { counterInCompletion = app.state.counter }
            }
            #expect(counterInCompletion == 0)
        }
    }
}
