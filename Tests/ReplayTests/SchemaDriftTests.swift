import Cycler
import Foundation
@_spi(Tooling) import Rewind
import RewindTesting
import Testing
import TestSupport

/// A note-taking view model, as it was when a session was recorded…
final class NotesV1: ReplayableCycler {
    enum Action: Codable { case add(String), retitle(String) }
    struct State: Codable { var notes: [String] = []; var title = "Notes" }
    let state: Storage<State> = .init(.init())

    func handle(_ action: Action) {
        switch action {
        case .add(let note): commit("add") { $0.update($0.value.notes + [note], \.notes) }
        case .retitle(let title): commit("retitle") { $0.update(title, \.title) }
        }
    }
}

/// …and as it is today: `title` was renamed `heading`, and is required.
final class NotesV2: ReplayableCycler {
    enum Action: Codable { case add(String), retitle(String) }
    struct State: Codable { var notes: [String] = []; var heading = "Notes" }
    let state: Storage<State> = .init(.init())

    func handle(_ action: Action) {
        switch action {
        case .add(let note): commit("add") { $0.update($0.value.notes + [note], \.notes) }
        case .retitle(let heading): commit("retitle") { $0.update(heading, \.heading) }
        }
    }
}

@Suite("Replay and schema drift")
struct SchemaDriftTests {
    /// Each test's own (Swift Testing makes a suite value per test), removed after it.
    let directory = TemporaryDirectory()

    func recordV1() throws -> String {
        let path = directory.file("notes.rewind")
        let journal = try JournalLogger(path: path)
        let notes = NotesV1()
        notes.set(logger: journal)
        notes.send(.add("milk"))
        notes.send(.retitle("Shopping"))
        notes.send(.add("eggs"))
        journal.close()
        return path
    }

    @Test("a renamed field is reported by path, and the rest of the state still replays and compares")
    func renamedField() throws {
        let path = try recordV1()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replay = try Replay(journal: path)
        let today = NotesV2()
        try replay.bind("NotesV1", to: today.replayTarget)
        let report = replay.run()
        #expect(report.schemaProblems.map(\.path) == ["title", "heading"])
        #expect(report.schemaProblems.map(\.description) == ["NotesV2.State.title: removed (was String)", "NotesV2.State.heading: added (String)"])
        #expect(report.divergence == nil, "notes still compared and equal")
        #expect(report.inputsReplayed == 3)
        #expect(today.state.value.notes == ["milk", "eggs"])
    }

    @Test("restoring a state that no longer decodes says which path and why")
    func restoreReportsThePath() throws {
        let path = try recordV1()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replay = try Replay(journal: path)
        let last = try #require(replay.reader.sequenceRange?.upperBound)
        #expect {
            try replay.restore(NotesV2().replayTarget, to: last, of: "NotesV1")
        } throws: { error in
            guard case ReplayError.schemaMismatch(let problems) = error else { return false }
            return problems.map(\.path) == ["heading"]
        }
    }

    @Test("a recorded input that no longer decodes refuses the replay before anything is sent, naming the change")
    func inputThatNoLongerDecodes() throws {
        final class NotesV3: ReplayableCycler {
            enum Action: Codable { case add(String, pinned: Bool), retitle(String) }
            struct State: Codable { var notes: [String] = []; var title = "Notes" }
            let state: Storage<State> = .init(.init())
            func handle(_ action: Action) {
                if case .add(let note, _) = action { commit("add") { $0.update($0.value.notes + [note], \.notes) } }
            }
        }
        let path = try recordV1()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let replay = try Replay(journal: path)
        let today = NotesV3()
        try replay.bind("NotesV1", to: today.replayTarget)
        let report = replay.run()
        #expect(report.wasRefused)
        #expect(report.inputsReplayed == 0)
        #expect(today.state.value.notes.isEmpty, "nothing was sent")
        let problem = try #require(report.schemaProblems.first)
        #expect(report.schemaProblems.count == 1, "one problem per input case")
        #expect(problem.description.contains("NotesV3.Action.add: add(String) → add(String, pinned: Bool) (recorded input 'add' at step "), "\(problem)")
        #expect(problem.description.contains("add.pinned: today's type needs it"))
        #expect(problem.reason.hasSuffix("; 1 more recorded input like it"))
        #expect(!report.passes())
        #expect(report.description.hasPrefix("refused to replay"))

        // Record mode never rewrites a recording today's build cannot replay.
        #expect(throws: ReplayError.self) { try replay.rerecord() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a case that is gone, a payload of another type and a changed input property are each named")
    func kindsOfInputChange() throws {
        enum Gone: Codable { case rename(String) }
        enum Retyped: Codable { case add(Int), retitle(String) }
        let add = RecordedInput(name: "add", value: StateCapture.capture(NotesV1.Action.add("milk")), step: 3)
        #expect(SchemaProblem.sending(add, as: NotesV1.Action.self) == nil)
        let gone = SchemaProblem.sending(add, as: Gone.self)?.description ?? ""
        #expect(gone.contains("Gone.add: add(String): no such case today"), "\(gone)")
        let retyped = SchemaProblem.sending(add, as: Retyped.self)?.description ?? ""
        #expect(retyped.contains("Retyped.add: add(String) → add(Int)"), "\(retyped)")
        let count = RecordedInput(name: "count", value: .integer(3), step: 4)
        #expect(SchemaProblem.sending(count, as: Int.self) == nil)
        #expect(SchemaProblem.sending(count, as: String.self)?.description.hasPrefix("String: Int → String") == true)
    }

    @Test("the journal records each unit's state type, and a replay names each field added, removed or retyped")
    func recordedStateSchema() throws {
        struct Before { var notes: [String] = []; var title = "Notes"; var count = 0; var info = Info() }
        struct Info { var pinned = false }
        struct After { var notes: [String] = []; var count = "0"; var info = Info2(); var tags: [String] = [] }
        struct Info2 { var pinned = false; var colour = "" }
        let recorded = TypeSchema(of: Before())
        #expect(TypeSchema(recorded: recorded.recordedText) == recorded)
        #expect(recorded.fields.map(\.path) == ["notes", "title", "count", "info", "info.pinned"])
        let changes = recorded.changes(to: TypeSchema(of: After())).map(\.description)
        #expect(changes == [
            "SchemaDriftTests.After.title: removed (was String)", "SchemaDriftTests.After.count: Int → String",
            "SchemaDriftTests.After.info: SchemaDriftTests.Info → SchemaDriftTests.Info2", "SchemaDriftTests.After.tags: added (Array<String>)",
        ])

        let path = try recordV1()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let created = try #require(Array(try Replay(journal: path).reader.events()).first { $0.kind == .created })
        #expect(TypeSchema(recorded: created.description)?.description == "NotesV1.State\nnotes: Array<String>\ntitle: String")
    }
}
