import Flask
import Foundation
@_spi(Tooling) import Rewind
import RewindSamples
import Testing
import TestSupport

/// All Flask tests share the process's flux, its reactors and its mixer registry, so they run one
/// at a time (other suites never touch Flask).
@Suite("Flask", .serialized)
struct FlaskTests {
    typealias AppState = FlaskSample.AppState
    typealias EnvMixers = FlaskSample.EnvMixers

    final class Owner {}

    struct Info: Codable {
        struct Nest: Codable { var foo = "bar" }
        var counter = 10
        var nest = Nest()
    }

    struct NestedState: State {
        var info = Info()
        var dict: FlaskDictRef?
        var _scratch = 0
        var object = FlaskRef<Owner>(nil)
    }

    @Test("a reactor's handler gets the changed keys with their old and new values")
    func oldAndNewValues() {
        let substance = Flask.newSubstance(definedBy: AppState.self)
        let owner = Owner()
        var seen: [String] = []
        let reactor = Flask.reactor(attachedTo: owner, mixing: substance)
        reactor.handler = { _, reaction in
            reaction.on(AppState.prop.counter) { change in
                seen.append("counter \(change.oldValue() as? Int ?? -1) → \(change.newValue() as? Int ?? -1)")
            }
            reaction.on("title") { change in
                seen.append("title \(change.oldValue() as? String ?? "?") → \(change.newValue() as? String ?? "?")")
            }
        }
        reactor.mix(substance) { $0.prop.counter = 5 }.react()
        reactor.mix(substance) { $0.prop.title = "hi" }.react()
        #expect(seen == ["counter 0 → 5", #"title  → hi"#])
        #expect(substance.state.counter == 5 && substance.state.title == "hi")
        Flask.detachReactor(from: owner)
    }

    @Test("a reactor lives as long as its owner: released with it, kept by a strong one")
    func ownerLifetime() {
        let substance = Flask.newSubstance(definedBy: AppState.self)
        weak var weakReactor: Reactor<Owner>?
        var calls = 0
        var owner: Owner? = Owner()
        do {
            let reactor = Flask.reactor(attachedTo: owner!, mixing: substance)
            reactor.handler = { _, _ in calls += 1 }
            weakReactor = reactor
        }
        Flask.getReactor(attachedTo: owner!).mix(substance) { $0.prop.counter += 1 }.react()
        #expect(calls == 1)
        #expect(weakReactor != nil, "the owner keeps its reactor")

        owner = nil
        Flask.getReactor(attachedTo: Owner()).mix(substance) { $0.prop.counter += 1 }.react()
        #expect(calls == 1, "no reaction once the owner is gone")
        #expect(weakReactor == nil, "the reactor was released")
    }

    @Test("chained mixes of two substances react together; an aborted chain changes nothing")
    func chainReactions() {
        let first = Flask.newSubstance(definedBy: AppState.self)
        let second = Flask.newSubstance(definedBy: FlaskSample.ProfileState.self)
        let owner = Owner()
        var reactions: [String] = []
        Flask.reactor(attachedTo: owner, mixing: [first, second]).handler = { _, reaction in
            if let reaction = reaction.at(first) { reactions.append("first \(reaction.changedKeys)") }
            if let reaction = reaction.at(second) { reactions.append("second \(reaction.changedKeys)") }
        }
        Flask.getReactor(attachedTo: owner)
            .mixing(first) { $0.prop.counter = 10 }
            .with(second) { $0.prop.name = "ada" }
            .and(first) { $0.prop.title = "text" }
            .andReact()
        #expect(reactions == [#"first ["counter", "title"]"#, #"second ["name"]"#])

        Flask.getReactor(attachedTo: owner).mix(first) { $0.prop.counter = 99 }.mix(second) { $0.prop.posts = 3 }.andAbort()
        #expect(reactions.count == 2, "an abort reaches no reactor")
        #expect(first.state.counter == 10 && second.state.posts == 0)
        Flask.detachReactor(from: owner)
    }

    @Test("a mixer that aborts leaves the state alone and reaches no reactor")
    func mixerAbort() {
        let app = FlaskSample.AppReactiveSubstance()
        let screen = FlaskSample.Screen()
        Flask.attachReactor(to: screen, mixing: [app])
        Flask.substances(reactTo: EnvMixers.login, payload: [:])
        #expect(app.state.counter == 0 && screen.received.isEmpty)
        Flask.substances(reactTo: EnvMixers.login, payload: ["username": "ada"])
        #expect(app.state.counter == 1 && screen.received == ["FlaskSample.AppReactiveSubstance: counter, title"])
        Flask.detachReactor(from: screen)
    }

    @Test("internal properties change the state but cause no reaction")
    func internalProperties() {
        let substance = Flask.newSubstance(definedBy: NestedState.self)
        let owner = Owner()
        var reactions = 0
        Flask.reactor(attachedTo: owner, mixing: substance).handler = { _, _ in reactions += 1 }
        Flask.getReactor(attachedTo: owner).mix(substance) { $0.prop._scratch = 5 }.react()
        #expect(substance.state._scratch == 5)
        #expect(reactions == 0)
        Flask.detachReactor(from: owner)
    }

    @Test("nested keys of structs and of dictionary references, and object references")
    func nestedKeys() {
        let substance = Flask.newSubstance(definedBy: NestedState.self)
        let owner = Owner()
        var seen: [String: String] = [:]
        Flask.reactor(attachedTo: owner, mixing: substance).handler = { _, reaction in
            for key in ["info", "info.counter", "info.nest.foo", "dict.nest.data", "dict.foo", "object"] {
                reaction.on(key) { change in
                    let new: Any? = change.newValue()
                    seen[key] = "\(new ?? "nil")"
                }
            }
        }
        Flask.getReactor(attachedTo: owner).mix(substance) { substance in
            substance.prop.info.counter = 90
            substance.prop.info.nest.foo = "mutated"
        }.react()
        #expect(seen["info.counter"] == "90" && seen["info.nest.foo"] == "mutated" && seen["info"] != nil)

        seen = [:]
        Flask.getReactor(attachedTo: owner).mix(substance) { substance in
            substance.prop.dict = FlaskDictRef(["foo": "bar", "nest": ["data": "some"]])
        }.react()
        #expect(seen["dict.nest.data"] == "some" && seen["dict.foo"] == "bar")

        seen = [:]
        Flask.getReactor(attachedTo: owner).mix(substance) { substance in
            substance.prop.dict = FlaskDictRef(["foo": "bar", "nest": ["data": "changed"]])
        }.react()
        #expect(seen["dict.nest.data"] == "changed" && seen["dict.foo"] == nil)

        seen = [:]
        let pointee = Owner()
        Flask.getReactor(attachedTo: owner).mix(substance) { $0.prop.object = FlaskRef(pointee) }.react()
        #expect(seen["object"] != nil && substance.state.object.object === pointee)
        Flask.detachReactor(from: owner)
    }

    @Test("a locked flux queues mixers and runs them in order once released; onRelease is called")
    func locks() {
        let app = FlaskSample.AppReactiveSubstance()
        let screen = FlaskSample.Screen()
        Flask.attachReactor(to: screen, mixing: [app])
        let lock = Flask.lock()
        var released: [String] = []
        lock.onRelease = { payload in released.append("\(payload ?? "nil")") }
        Flask.substances(reactTo: EnvMixers.login, payload: ["username": "ada"])
        Flask.substances(reactTo: EnvMixers.logout)
        Flask.substances(reactTo: EnvMixers.login, payload: ["username": "grace"])
        #expect(app.state.counter == 0 && Flux.bus.pendingCount == 3)
        lock.release(payload: "done")
        lock.release(payload: "twice")
        #expect(released == ["done"])
        #expect(app.state.counter == 2 && app.state.title == "signed in as grace")
        #expect(screen.received == [
            "FlaskSample.AppReactiveSubstance: counter, title", "FlaskSample.AppReactiveSubstance: title",
            "FlaskSample.AppReactiveSubstance: counter, title",
        ])
        Flask.detachReactor(from: screen)
    }

    @Test("a lock made with a mixer lets that mixer run, and its reaction releases the lock")
    func lockWithMixer() {
        let app = FlaskSample.AppReactiveSubstance()
        let owner = Owner()
        var order: [String] = []
        Flask.reactor(attachedTo: owner, mixing: app).handler = { _, reaction in
            reaction.on(AppState.prop.title) { change in order.append(change.newValue() ?? "") }
            if let lock = reaction.onLock {
                order.append("releasing")
                lock.release()
            }
        }
        let lock = Flask.lock(withMixer: EnvMixers.logout)
        #expect(!Flux.bus.isLocked && order == ["signed out", "releasing"])
        _ = lock

        let held = Flask.lock()
        Flask.substances(reactTo: EnvMixers.login, payload: ["username": "ada"])
        Flask.lock(withMixer: EnvMixers.login, payload: ["username": "bob"])
        #expect(order == ["signed out", "releasing", "signed in as bob", "releasing"], "the lock's own mixer runs past the other lock")
        #expect(Flux.bus.isLocked && Flux.bus.pendingCount == 1)
        held.release()
        #expect(order.last == "signed in as ada")
        Flask.removeLocks()
        Flask.detachReactor(from: owner)
    }

    @Test("locks and mixes from many threads at once: every mix runs, once, and the flux ends free")
    func concurrentLocks() async {
        let substance = Flask.newSubstance(definedBy: AppState.self)
        let reactor = Flask.getReactor(attachedTo: Owner())
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<50 {
                        if (worker + step) % 7 == 0 {
                            let lock = Flask.lock()
                            reactor.mix(substance) { $0.prop.counter += 1 }.react()
                            lock.release()
                        } else {
                            reactor.mix(substance) { $0.prop.counter += 1 }.react()
                        }
                    }
                }
            }
        }
        #expect(substance.state.counter == 400)
        #expect(!Flux.bus.isLocked && Flux.bus.pendingCount == 0)
    }

    @Test("rollback puts back the captured state and reactors see it")
    func rollback() {
        let substance = Flask.newSubstance(definedBy: AppState.self)
        let owner = Owner()
        var titles: [String] = []
        Flask.reactor(attachedTo: owner, mixing: substance).handler = { _, reaction in
            reaction.on(AppState.prop.title) { titles.append($0.newValue() ?? "") }
        }
        substance.captureState()
        Flask.getReactor(attachedTo: owner).mix(substance) { $0.prop.title = "draft" }.react()
        substance.rollbackState()
        #expect(substance.state.title == "")
        #expect(titles == ["draft", ""])
        Flask.detachReactor(from: owner)
    }

    @Test("archiving round trip through a JSON file store in a temporary directory")
    func archiving() throws {
        let temporary = TemporaryDirectory()
        let directory = URL(fileURLWithPath: temporary.file("flask"))
        let previous = Flask.archiveStore
        Flask.archiveStore = JSONFileArchiveStore(directory: directory)
        defer { Flask.archiveStore = previous }

        let name = "archived-\(UUID().uuidString)"
        let substance = Flask.newSubstance(definedBy: NestedState.self, named: name, archive: true)
        Flask.getReactor(attachedTo: Owner()).mix(substance) { substance in
            substance.prop.info.nest.foo = "mutated"
            substance.prop.dict = FlaskDictRef(["deep": ["value": 3]])
        }.react()
        substance.archiveNow()
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("Fx.1.\(name).json").path))

        let restored = Flask.newSubstance(definedBy: NestedState.self, named: name, archive: true)
        #expect(restored.state.info.nest.foo == "mutated")
        #expect(restored.state.dict?["deep.value"] as? Int == 3)
        let fresh = Flask.newSubstance(definedBy: NestedState.self, named: name, archive: false)
        #expect(fresh.state.info.nest.foo == "bar", "without archive, the default state")
    }

    /// Archives in memory and tells when something was written.
    final class SignallingStore: ArchiveStore, @unchecked Sendable {
        // Unchecked: `stored` is `Locked`; the continuation is thread-safe.
        let stored = Locked<[String: Data]>([:])
        let writeCount = Locked(0)
        let writes: AsyncStream<String>
        private let continuation: AsyncStream<String>.Continuation

        init() {
            (writes, continuation) = AsyncStream.makeStream()
        }

        func data(forKey key: String) -> Data? { stored.withLock { $0[key] } }

        func setData(_ data: Data?, forKey key: String) {
            stored.withLock { $0[key] = data }
            writeCount.withLock { $0 += 1 }
            continuation.yield(key)
        }
    }

    final class QuickArchivedState: Substance<AppState>, @unchecked Sendable {
        override func archiveDelay() -> Double { 0.05 }
        override func archiveKeySpace() -> String { "test" }
    }

    @Test("changes are archived after the archive delay, once for changes in between, under the overridable key")
    func delayedArchive() async throws {
        let store = SignallingStore()
        let previous = Flask.archiveStore
        Flask.archiveStore = store
        let substance = QuickArchivedState(name: "quick", archive: true)
        Flask.archiveStore = previous
        let reactor = Flask.getReactor(attachedTo: Owner())
        reactor.mix(substance) { $0.prop.counter = 1 }.react()
        reactor.mix(substance) { $0.prop.counter = 2 }.react()
        var writes = store.writes.makeAsyncIterator()
        #expect(await writes.next() == "Fx.test.quick")
        let archived = try JSONDecoder().decode(AppState.self, from: try #require(store.data(forKey: "Fx.test.quick")))
        #expect(archived.counter == 2)
        substance.shouldArchive = false
        reactor.mix(substance) { $0.prop.counter = 3 }.react()
        substance.archiveNow()
        #expect(await writes.next() == "Fx.test.quick", "archiveNow writes even with archiving off")
        #expect(store.stored.withLock { $0.count } == 1)
        #expect(store.writeCount.withLock { $0 } == 2, "the two quick changes were archived once")
    }

    @Test("the exact events of the sample session")
    func exactEvents() throws {
        let logger = InMemoryLogger()
        DemoSession.runFlask(logger: logger)
        let lines = logger.eventsInSequenceOrder.map { event -> String in
            let source = event.source.label ?? event.source.typeName
            switch event.kind {
            case .willDispatch(let input):
                return "\(source) willDispatch \(event.name)" + (input.map { " " + $0.tree().compactDescription(limit: 80) } ?? "")
            case .change(let path, let value, _):
                return "\(source) change \(path) = \(value.tree().compactDescription(limit: 80))"
            case .activity(let value):
                let text = value.tree().compactDescription(limit: 80)
                return "\(source) \(event.name) " + (event.name == "lock" || event.name == "release" ? "" : text)
            default:
                return "\(source) \(event.kind.name) \(event.name)".trimmingCharacters(in: .whitespaces)
            }
        }
        #expect(lines == [
            "app created", "feed created", "profile created",
            #"app willDispatch login {username: "ada"}"#, "app willMutate login",
            "app change counter = 1", #"app change title = "signed in as ada""#, "app didMutate login",
            #"app reaction {reactor: "Screen", keys: ["counter", "title"]}"#, "app didDispatch login",
            "app willDispatch login {}", #"app abort {mixer: "login"}"#, "app didDispatch login",
            "Flux lock ", "Flux release ",
            "app willDispatch logout", "app willMutate logout", #"app change title = "signed out""#, "app didMutate logout",
            #"app reaction {reactor: "Screen", keys: ["title"]}"#, "app didDispatch logout",
            #"app willDispatch login {username: "grace"}"#, "app willMutate login",
            "app change counter = 2", #"app change title = "signed in as grace""#, "app didMutate login",
            #"app reaction {reactor: "Screen", keys: ["counter", "title"]}"#, "app didDispatch login",
            // An element inserted into or removed from a list is logged as the list, never as a
            // value set at the element's index (which would replace a neighbour).
            "feed willMutate mix", #"feed change items = ["hello"]"#, #"feed change info.nest.foo = "mutated""#, "feed didMutate mix",
            "profile willMutate mix", "profile change posts = 1", "profile didMutate mix",
            #"feed reaction {reactor: "Screen", keys: ["info", "info.nest", "info.nest.foo", "items"]}"#,
            #"profile reaction {reactor: "Screen", keys: ["posts"]}"#,
            #"profile abort {mixer: "chain"}"#,
            "feed willMutate rollback", "feed change items = []", #"feed change info.nest.foo = "bar""#, "feed didMutate rollback",
            #"feed reaction {reactor: "Screen", keys: ["info", "info.nest", "info.nest.foo", "items"]}"#,
            "profile released", "feed released", "app released",
        ])
    }

    @Test("a journal of the sample session rebuilds each substance's state at every step")
    func journalStates() throws {
        let temporary = TemporaryDirectory()
        let path = temporary.file("flask.rewind")
        let journal = try JournalLogger(path: path)
        DemoSession.runFlask(logger: journal)
        journal.close()
        let reader = try JournalReader(path: path)
        let feed = try #require(reader.sources.first { $0.source.label == "feed" })
        let afterMix = try #require(reader.events(matching: EventFilter()).first { $0.kind == .didMutate && $0.source.instanceID == feed.source.instanceID })
        let state = try #require(try reader.state(of: feed.source.instanceID, at: afterMix.sequence))
        let decoded = try StateCapture.decode(FlaskSample.FeedState.self, from: state)
        #expect(decoded.items == ["hello"] && decoded.info.nest.foo == "mutated")
        let last = try #require(try reader.state(of: feed.source.instanceID, at: feed.sequences.upperBound))
        let rolledBack = try StateCapture.decode(FlaskSample.FeedState.self, from: last)
        #expect(rolledBack.items.isEmpty && rolledBack.info.nest.foo == "bar")
    }

    struct ReferencesState: State {
        enum prop: StateProp { case info, object }
        var info: FlaskDictRef?
        var object = FlaskNSRef(nil)
    }

    @Test("a reaction gets the FlaskNSRef that was set, and an object inside a FlaskDictRef, as newValue()")
    func referencesInReactions() {
        let substance = Flask.newSubstance(definedBy: ReferencesState.self)
        let owner = Owner()
        let target = Owner(), nested = Owner()
        var reference: FlaskNSRef?
        var nestedObject: AnyObject?
        var data: String?
        let reactor = Flask.reactor(attachedTo: owner, mixing: substance)
        reactor.handler = { _, reaction in
            reaction.on("object") { change in reference = change.newValue() }
            reaction.on("info.nest.owner") { change in nestedObject = change.newValue() as AnyObject? }
            reaction.on("info.nest.data") { change in data = change.newValue() }
        }
        reactor.mix(substance) { $0.prop.object = FlaskNSRef(target) }.react()
        #expect(reference?.object === target, "the reference that was set, not its description")
        reactor.mix(substance) { $0.prop.info = FlaskDictRef(["nest": ["owner": nested, "data": "some"]]) }.react()
        #expect(nestedObject === nested, "the object inside the dictionary, not nil")
        #expect(data == "some")
        Flask.detachReactor(from: owner)
    }
}
