import CombineOperators
import Foundation
@_spi(Tooling) import Rewind
import RewindTesting
import TestSupport
import Testing

/// The shopping app (``Shopping``) recorded and replayed as a new user would: 800 items loaded
/// later, `combineLatest` filtering and sorting, a Cycler inbox refreshed later, two units.
@Suite("A realistic Ricemill and Cycler app: the shopping list and the inbox")
struct ShoppingAppTests {
    let directory = TemporaryDirectory()

    /// Records a session of a fresh app into `path`, checking every recorded state against the
    /// live one; returns the mismatches.
    static func record(to path: String, plantedBug: Bool = false) throws -> [LiveStateCheck.Mismatch] {
        let scheduler = VirtualTimeScheduler()
        let app = Shopping.App(scheduler: .virtual(scheduler), plantedBug: plantedBug)
        var configuration = JournalConfiguration()
        // The session runs on a virtual clock: its times are made up, and the replay steps the
        // clock to each scheduled answer.
        configuration.deterministic = true
        let check = try LiveStateCheck.record(to: path, configuration: configuration, units: [app.list.replayTarget, app.inbox.replayTarget]) {
            Shopping.session(app, scheduler: scheduler)
        }
        #expect(check.statesTaken > 20)
        return check.mismatches
    }

    static func bindings(_ app: Shopping.App) -> [String: any ReplayTarget] {
        ["Shopping.ShoppingList": app.list.replayTarget, "Shopping.Inbox": app.inbox.replayTarget]
    }

    @Test("every recorded state of the list and the inbox is the state the app had")
    func recordingIsTrue() throws {
        let mismatches = try Self.record(to: directory.file("shopping.rewind"))
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map(\.description).joined(separator: "\n"))")
    }

    @Test("the delayed answer is one step, caused by the load that asked for it")
    func delayedAnswerIsOneCausedStep() throws {
        let path = directory.file("shopping.rewind")
        _ = try Self.record(to: path)
        let reader = try JournalReader(path: path)
        let events = Array(reader.events())
        let loads = events.filter { $0.kind == .willDispatch && $0.name == "load" }
        #expect(loads.count == 2)
        for load in loads {
            let answers = events.filter { $0.kind == .didMutate && $0.parent == load.sequence && $0.name == "effect" }
            #expect(answers.count == 1, "one commit for the answer to the load at \(load.sequence)")
            let answer = try #require(answers.first)
            let state = try #require(try reader.state(of: answer.source.instanceID, at: answer.sequence))
            guard case .array(let items)? = state[[.key("items")]], case .array(let visible)? = state[[.key("visibleItems")]] else {
                Issue.record("no lists in \(state.compactDescription(limit: 200))")
                continue
            }
            #expect(items.count == 800 && !visible.isEmpty, "the answer's items and the list they show, together")
        }
    }

    @Test("the session replays clean against its own code, both units, async answers included")
    func replaysClean() throws {
        let path = directory.file("shopping.rewind")
        _ = try Self.record(to: path)
        let scheduler = VirtualTimeScheduler()
        let app = Shopping.App(scheduler: .virtual(scheduler))
        let report = try #require(expectReplay(of: path, driving: Self.bindings(app), clock: scheduler, secrets: ["authToken": "tok-test"]))
        #expect(report.restoredSteps.isEmpty)
        #expect(app.list.output.isSignedIn)
        #expect(app.list.output.loadsCompleted == 2, "each answer arrived once, from the live code")
        #expect(app.inbox.state.value.messages.count == 302)
    }

    @Test("a redacted input with no value supplied refuses the replay, saying how to supply it; nothing is sent")
    func missingSecretRefuses() throws {
        let path = directory.file("shopping.rewind")
        _ = try Self.record(to: path)
        let app = Shopping.App(scheduler: .virtual(VirtualTimeScheduler()))
        let replay = try Replay(journal: path)
        for (name, target) in Self.bindings(app) { try replay.bind(name, to: target) }
        let report = replay.run()
        #expect(report.wasRefused && report.inputsReplayed == 0 && !report.passes())
        #expect(report.missingSecrets == [MissingSecret(input: "authToken", path: .root, count: 1)])
        #expect(report.description.contains("secrets: [\"authToken\": …]"), "\(report)")
        #expect(!report.description.contains("no longer decode"), "a hidden input is not a schema change")
        #expect(app.list.output.items.isEmpty, "nothing was sent")
    }

    @Test("a recording of the buggy list, re-recorded from the fixed code twice, is the same journal both times and replays clean")
    func rerecordIsIdempotent() throws {
        let path = directory.file("shopping.rewind")
        _ = try Self.record(to: path, plantedBug: true)
        let original = try JournalReader(path: path)
        // Where the app sent each input from: a re-record keeps these, though Rewind sends them.
        func inputCallSites(_ reader: JournalReader) throws -> [String] {
            let events = reader.events()
            let inputs = Set(events.filter { $0.kind == .willDispatch && $0.parent == nil }.map(\.sequence))
            return events.filter { inputs.contains($0.sequence) || $0.kind == .didDispatch && $0.parent.map(inputs.contains) == true }
                .map { "\($0.kind) \($0.name) \($0.file) \($0.function):\($0.line)" }
        }
        let recordedCallSites = try inputCallSites(original)
        // (An input set as a property, `input.filterText = …`, has no call site to keep.)
        #expect(recordedCallSites.count > 10 && recordedCallSites.allSatisfy { $0.contains("ShoppingApp") || $0.hasSuffix(" :0") })
        var outlines: [[String]] = []
        for _ in 0..<2 {
            let scheduler = VirtualTimeScheduler()
            let app = Shopping.App(scheduler: .virtual(scheduler))
            let replay = try Replay(journal: path)
            replay.clock = .virtual(scheduler)
            replay.secrets = ["authToken": "tok-test"]
            for (name, target) in Self.bindings(app) { try replay.bind(name, to: target) }
            let report = try replay.rerecord()
            #expect(report.restoredSteps.isEmpty && report.skippedSteps.isEmpty, "\(report)")
            // The first re-record differs where the fix changed the list; the second, nowhere.
            #expect(report.divergence?.input?.name == (outlines.isEmpty ? "sortAscending" : nil), "\(report)")
            outlines.append(try JournalOutline.lines(path))
        }
        let firstDifference = zip(outlines[0], outlines[1]).first { $0 != $1 }
        #expect(outlines[0] == outlines[1], "first difference: \(String(describing: firstDifference))")
        let rerecorded = try JournalReader(path: path)
        #expect(try rerecorded.verify().damage.isEmpty, "a re-recorded journal verifies clean")
        #expect(rerecorded.sources.map(\.source.description) == original.sources.map(\.source.description))
        #expect(!rerecorded.events().contains { $0.name == "restore" })
        #expect(try inputCallSites(rerecorded) == recordedCallSites)
        let scheduler = VirtualTimeScheduler()
        let fixed = Shopping.App(scheduler: .virtual(scheduler))
        expectReplay(of: path, driving: Self.bindings(fixed), clock: scheduler, secrets: ["authToken": "tok-test"])
    }

    @Test("a planted bug's failing session shrinks to the inputs that show it, and the shrunk recording fails on the buggy code only")
    func plantedBugShrinks() throws {
        let path = directory.file("shopping.rewind")
        _ = try Self.record(to: path)
        var apps: [Shopping.App] = []
        let result = try Replay.shrink(journal: path, secrets: ["authToken": "tok-test"], maximumTime: .seconds(600)) {
            let scheduler = VirtualTimeScheduler()
            let app = Shopping.App(scheduler: .virtual(scheduler), plantedBug: true)
            apps.append(app)
            return Replay.Setup(driving: Self.bindings(app), clock: .virtual(scheduler))
        }
        // The sort, and the filter typed before it: putting the recorded state back does not give
        // the `combineLatest` its latest filter, so the filter is sent again.
        #expect(result.isMinimal && result.keptInputs.map(\.name) == ["filterText", "sortAscending"], "\(result)")
        #expect(result.suggestedTest.contains("clock:") && result.suggestedTest.contains("allowRestoring: true"), "\(result.suggestedTest)")
        for plantedBug in [true, false] {
            let scheduler = VirtualTimeScheduler()
            let app = Shopping.App(scheduler: .virtual(scheduler), plantedBug: plantedBug)
            let replay = try Replay(journal: result.output)
            replay.clock = .virtual(scheduler)
            replay.secrets = ["authToken": "tok-test"]
            for (name, target) in Self.bindings(app) { try replay.bind(name, to: target) }
            let report = replay.run()
            #expect(report.passes(allowRestoring: true) == !plantedBug, "\(report)")
        }
    }

    @Test("a planted bug diverges after the input that shows it")
    func plantedBugDiverges() throws {
        let path = directory.file("shopping.rewind")
        _ = try Self.record(to: path)
        let scheduler = VirtualTimeScheduler()
        let app = Shopping.App(scheduler: .virtual(scheduler), plantedBug: true)
        let replay = try Replay(journal: path)
        replay.clock = .virtual(scheduler)
        replay.secrets = ["authToken": "tok-test"]
        for (name, target) in Self.bindings(app) { try replay.bind(name, to: target) }
        let report = replay.run()
        let divergence = try #require(report.divergence, "\(report)")
        #expect(divergence.input?.name == "sortAscending", "\(report)")
        #expect(divergence.difference.changedPaths.allSatisfy { $0.description.hasPrefix("visibleItems") }, "\(report)")
    }
}

/// A journal's events as a test compares two recordings: units, kinds, names, paths, values and
/// parents, without times.
enum JournalOutline {
    static func lines(_ path: String) throws -> [String] {
        try JournalReader(path: path).events().map { event in
            "\(event.sequence) \(event.source.description) \(event.kind) \(event.name) \(event.path ?? "") \(event.value?.compactDescription(limit: 60) ?? "") ← \(event.parent ?? 0)"
        }
    }
}

