import CombineOperators
import Foundation
@_spi(Tooling) import Rewind
import RewindTesting
import TestSupport
import Testing

/// The contacts search (``Contacts``) recorded and replayed as a new user would: 2,000 inputs, a
/// server answering later into three relays, a debounced search, favorites, a secret API key.
@Suite("A realistic Unio app: the contacts search")
struct ContactsAppTests {
    let directory = TemporaryDirectory()

    /// Records a session of a fresh app into `path`, checking every recorded state against the
    /// live one; returns the mismatches.
    /// Records a session of a fresh app (both streams) into `path`; with `checking`, every
    /// recorded state is held to the live one (a whole-state capture per step, which in a debug
    /// build costs more than the recording) and the mismatches are returned.
    @discardableResult
    static func record(to path: String, inputs: Int = 2_000, checking: Bool = false, plantedBug: Bool = false) throws -> [LiveStateCheck.Mismatch] {
        let scheduler = VirtualTimeScheduler()
        let app = Contacts.App(scheduler: .virtual(scheduler), plantedBug: plantedBug)
        var configuration = JournalConfiguration()
        // The session runs on a virtual clock: its times are made up, and the replay steps the
        // clock to each scheduled answer.
        configuration.deterministic = true
        guard checking else {
            let journal = try JournalLogger(path: path, configuration: configuration)
            app.api.set(logger: journal)
            app.view.set(logger: journal)
            Contacts.session(app, scheduler: scheduler, inputs: inputs)
            app.view.set(logger: nil)
            app.api.set(logger: nil)
            journal.close()
            return []
        }
        let check = try LiveStateCheck.record(to: path, configuration: configuration, units: [app.api.replayTarget, app.view.replayTarget]) {
            Contacts.session(app, scheduler: scheduler, inputs: inputs)
        }
        #expect(check.statesTaken > inputs)
        return check.mismatches
    }

    static let source = "Contacts.ContactsViewStream"

    @Test("every recorded state of the search is the state the app had")
    func recordingIsTrue() throws {
        let mismatches = try Self.record(to: directory.file("contacts.rewind"), checking: true)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map(\.description).joined(separator: "\n"))")
    }

    @Test("the server's answer is one step that sets all three relays, caused by the refresh")
    func answerIsOneStep() throws {
        let path = directory.file("contacts.rewind")
        try Self.record(to: path, inputs: 40)
        let reader = try JournalReader(path: path)
        let events = Array(reader.events())
        let answer = try #require(events.first { $0.kind == .didMutate && $0.name == "effect" })
        let changed = events.filter { $0.kind == .change && $0.parent == answer.parent && $0.sequence < answer.sequence }.compactMap(\.path)
        #expect(changed == ["contacts", "visibleContacts", "favoritesCount"], "in the order the state declares them")
        let state = try #require(try reader.state(of: answer.source.instanceID, at: answer.sequence))
        guard case .array(let contacts)? = state[[.key("contacts")]], case .array(let visible)? = state[[.key("visibleContacts")]] else {
            Issue.record("no lists in \(state.compactDescription(limit: 200))")
            return
        }
        #expect(contacts.count == 750 && visible.count == 750)
        // The answer's cause leads back to the refresh the user sent.
        let fetch = try #require(events.first { $0.sequence == answer.parent })
        let refresh = try #require(events.first { $0.sequence == fetch.parent })
        #expect(fetch.name == "fetch" && refresh.name == "refresh")
    }

    @Test("two recordings of the same session are the same journal")
    func recordingsAreRepeatable() throws {
        let first = directory.file("first.rewind")
        let second = directory.file("second.rewind")
        try Self.record(to: first, inputs: 300)
        try Self.record(to: second, inputs: 300)
        #expect(try JournalOutline.lines(first) == JournalOutline.lines(second))
    }

    @Test("the session replays clean against its own code, the server's answers from the live code")
    func replaysClean() throws {
        let path = directory.file("contacts.rewind")
        try Self.record(to: path)
        let scheduler = VirtualTimeScheduler()
        let app = Contacts.App(scheduler: .virtual(scheduler))
        let report = try #require(expectReplay(
            of: path, driving: [Self.source: app.view.replayTarget], clock: scheduler, secrets: ["apiKey": "key-test"]
        ))
        #expect(report.restoredSteps.isEmpty)
        #expect(report.inputsReplayed == 2_000)
        #expect(app.view.output.visibleContacts.value.isEmpty == false)
    }

    @Test("a recording of the buggy search, re-recorded from the fixed code twice (the API stream bound too), is the same journal both times and replays clean")
    func rerecordIsIdempotent() throws {
        let path = directory.file("contacts.rewind")
        try Self.record(to: path, inputs: 300, plantedBug: true)
        var outlines: [[String]] = []
        for _ in 0..<2 {
            let scheduler = VirtualTimeScheduler()
            let app = Contacts.App(scheduler: .virtual(scheduler))
            let replay = try Replay(journal: path)
            replay.clock = .virtual(scheduler)
            replay.secrets = ["apiKey": "key-test"]
            try replay.bind(Self.source, to: app.view.replayTarget)
            // The API stream is driven by the view stream: bound, it is compared and re-recorded,
            // never sent to.
            try replay.bind("Contacts.DirectoryAPIStream", to: app.api.replayTarget)
            let report = try replay.rerecord()
            #expect(report.restoredSteps.isEmpty && report.skippedSteps.isEmpty, "\(report)")
            #expect(report.inputsReplayed == 300)
            outlines.append(try JournalOutline.lines(path))
        }
        let firstDifference = zip(outlines[0], outlines[1]).first { $0 != $1 }
        #expect(outlines[0] == outlines[1], "first difference: \(String(describing: firstDifference))")
        let scheduler = VirtualTimeScheduler()
        let app = Contacts.App(scheduler: .virtual(scheduler))
        expectReplay(
            of: path, driving: [Self.source: app.view.replayTarget, "Contacts.DirectoryAPIStream": app.api.replayTarget],
            clock: scheduler, secrets: ["apiKey": "key-test"]
        )
    }

    @Test("a planted bug diverges after the input that shows it")
    func plantedBugDiverges() throws {
        let path = directory.file("contacts.rewind")
        try Self.record(to: path, inputs: 200)
        let scheduler = VirtualTimeScheduler()
        let app = Contacts.App(scheduler: .virtual(scheduler), plantedBug: true)
        let replay = try Replay(journal: path)
        replay.clock = .virtual(scheduler)
        replay.secrets = ["apiKey": "key-test"]
        try replay.bind(Self.source, to: app.view.replayTarget)
        let report = replay.run()
        let divergence = try #require(report.divergence, "\(report)")
        // The first search by company: "Acme", typed a letter at a time; the debounced search
        // runs after its last letter.
        #expect(divergence.input == RecordedInput(name: "searchText", value: .string("Acme"), step: divergence.input?.step ?? 0), "\(report)")
        #expect(divergence.difference.changedPaths.allSatisfy { $0.description.hasPrefix("visibleContacts") }, "\(report)")
    }

    @Test("a planted bug's failing session shrinks to the inputs that show it, and the shrunk recording fails on the buggy code only")
    func plantedBugShrinks() throws {
        let path = directory.file("contacts.rewind")
        try Self.record(to: path)
        func setUp(plantedBug: Bool) -> Replay.Setup {
            let scheduler = VirtualTimeScheduler()
            let app = Contacts.App(scheduler: .virtual(scheduler), plantedBug: plantedBug)
            return Replay.Setup(driving: [Self.source: app.view.replayTarget], clock: .virtual(scheduler))
        }
        let result = try Replay.shrink(journal: path, secrets: ["apiKey": "key-test"], maximumTime: .seconds(600)) { setUp(plantedBug: true) }
        #expect(result.isMinimal, "\(result)")
        // The search by company, replayed from the recorded state before it (the directory loaded).
        #expect(result.keptInputs.map(\.description) == ["searchText \"Acme\""], "\(result)")
        #expect(result.suggestedTest.contains("clock:"), "\(result.suggestedTest)")
        // Each kept input is replayed from the recorded state before it: the API key, a redacted
        // input, is not among them, so the shrunk recording needs no secret.
        #expect(result.secretKeys.isEmpty && !result.suggestedTest.contains("secrets:"), "\(result)")
        // The suggested test, as printed, fails on the buggy code and passes on the fixed code.
        for plantedBug in [true, false] {
            let scheduler = VirtualTimeScheduler()
            let app = Contacts.App(scheduler: .virtual(scheduler), plantedBug: plantedBug)
            let replay = try Replay(journal: result.output)
            replay.clock = .virtual(scheduler)
            replay.secrets = ["apiKey": "key-test"]
            try replay.bind(Self.source, to: app.view.replayTarget)
            let report = replay.run()
            #expect(report.passes(allowRestoring: true) == !plantedBug, "\(report)")
        }
    }
}
