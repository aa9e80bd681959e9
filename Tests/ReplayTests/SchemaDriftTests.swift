import Cycler
import Foundation
import Rewind
import RewindTesting
import Testing

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
    func recordV1() throws -> String {
        let path = NSTemporaryDirectory() + "rewind-notes-\(UUID().uuidString).rewind"
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
        #expect(report.schemaProblems.first?.reason == "recorded, but today's state has no such field")
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

    @Test("a recorded input that no longer decodes is reported, and its recorded state put back")
    func inputThatNoLongerDecodes() throws {
        final class NotesV3: ReplayableCycler {
            enum Action: Codable { case append(String) }
            struct State: Codable { var notes: [String] = []; var title = "Notes" }
            let state: Storage<State> = .init(.init())
            func handle(_ action: Action) {}
        }
        let path = try recordV1()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replay = try Replay(journal: path)
        let today = NotesV3()
        try replay.bind("NotesV1", to: today.replayTarget)
        let report = replay.run()
        #expect(report.schemaProblems.count == 3)
        #expect(report.schemaProblems.allSatisfy { $0.reason.hasPrefix("input ") })
        #expect(report.divergence == nil)
        #expect(report.stepsRestored == 3)
        #expect(today.state.value.notes == ["milk", "eggs"] && today.state.value.title == "Shopping")
    }
}
