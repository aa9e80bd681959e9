import CombineOperators
import Flask
import Foundation
import RewindTesting
import TestSupport
import Testing

extension FlaskTests {
    /// The kanban board (``Kanban``) recorded and replayed as a new user would: hundreds of cards,
    /// a reaction that asks for a recount, a sync answered on the scheduler under a flux lock.
    @Suite("A realistic Flask app: the kanban board")
    struct KanbanReplayTests {
        /// Records a session of a fresh board into `path`, checking every recorded state against
        /// the live one; returns the mismatches.
        static func record(to path: String, cards: Int = 300, plantedBug: Bool = false) throws -> [LiveStateCheck.Mismatch] {
            let scheduler = VirtualTimeScheduler()
            let app = Kanban.App(scheduler: .virtual(scheduler), plantedBug: plantedBug)
            defer { app.detach() }
            var configuration = JournalConfiguration()
            // The session runs on a virtual clock: its times are made up, and the replay steps the
            // clock to each scheduled answer.
            configuration.deterministic = true
            // The flux's locks and releases too, as the Flask README says.
            let check = try LiveStateCheck.record(
                to: path, configuration: configuration,
                units: [app.board.replayTarget, app.stats.replayTarget, Flask.bus.replayTarget]
            ) {
                Kanban.session(app, scheduler: scheduler, cards: cards)
            }
            #expect(check.statesTaken > 2 * cards)
            return check.mismatches
        }

        @Test("every recorded state of the board and its stats is the state the app had")
        func recordingIsTrue() throws {
            let directory = TemporaryDirectory()
            let mismatches = try Self.record(to: directory.file("board.rewind"))
            #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map(\.description).joined(separator: "\n"))")
        }

        @Test("a card added to the top is recorded as an insertion: the card that was first stays")
        func insertionIsNotAReplacement() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("board.rewind")
            _ = try Self.record(to: path, cards: 5)
            let reader = try JournalReader(path: path)
            let board = try #require(reader.sources.first { $0.source.label == "board" })
            let last = try #require(board.sequences.last)
            let state = try #require(try reader.state(of: board.source.instanceID, at: last))
            let todo = try #require(state[try StatePath(parsing: "columns[0].cardIDs")])
            // Cards 1…5 less card 3 (moved), "urgent" (6) on top once the sync let go, the sync's
            // cards 7…10 at the end, two hotfixes (11, 12) on top and the first moved to doing.
            #expect(todo == .array([12, 6, 1, 2, 4, 5, 7, 8, 9, 10].map { StateValue.integer($0) }))
            // No insertion or removal is logged as a value set at an element's index.
            let elementWrites = reader.events().filter { $0.kind == .change && $0.path?.contains("cardIDs[") == true }
            #expect(elementWrites.isEmpty, "\(elementWrites.map { "\($0.sequence) \($0.path ?? "")" })")
            // A recount the reaction asked for leads back, cause by cause, to the mixer the user
            // sent (what `rewind blame --why` shows); the sync's answer to the sync.
            let events = Array(reader.events())
            let recount = try #require(events.last { $0.kind == .change && $0.source.label == "stats" })
            let causes = reader.causes(of: recount).map { "\($0.source.description) \($0.kind) \($0.name)" }
            #expect(causes.first == "stats willDispatch recount" && causes.last?.hasPrefix("board willDispatch") == true, "\(causes)")
            let answer = try #require(events.first { $0.kind == .willDispatch && $0.name == "syncFinished" })
            #expect(reader.causes(of: answer).map(\.name) == ["startSync"])
            // Every mixer's dispatch and commit names the line of the app that asked for it.
            let mixes = reader.events().filter { $0.source.label == "board" && [.willDispatch, .willMutate].contains($0.kind) }
            #expect(!mixes.isEmpty && mixes.allSatisfy { $0.file.hasSuffix("KanbanBoard.swift") && $0.line > 0 }, "\(mixes.prefix(3).map { "\($0.file):\($0.line)" })")
        }

        @Test("the session replays clean against its own code, reactor and scheduler included")
        func replaysClean() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("board.rewind")
            _ = try Self.record(to: path)
            let scheduler = VirtualTimeScheduler()
            let app = Kanban.App(scheduler: .virtual(scheduler))
            defer { app.detach() }
            let report = try #require(expectReplay(
                of: path, driving: ["board": app.board.replayTarget, "stats": app.stats.replayTarget], clock: scheduler,
                secrets: ["authToken": "tok-test"]
            ))
            #expect(report.restoredSteps.isEmpty)
            // The token the recording hid was put back, and reached the server as the test's.
            #expect(app.board.state.authToken == "tok-test" && app.server.tokensSeen == ["tok-test"])
            // Only the user's mixes are sent: the recounts and the sync's answer are the app's own.
            #expect(report.inputsReplayed == 300 + 1 + 6 + 1 + 1 + 1 + 1 + 2 + 1 + 1)
            #expect(app.board.state.syncsCompleted == 1, "the answer arrived once, from the live code")
            #expect(app.stats.state.cardsPerColumn.reduce(0, +) == app.board.state.columns.map(\.cardIDs.count).reduce(0, +))
        }

        @Test("a redacted payload with no value supplied is never sent as its placeholder: the replay is refused")
        func missingSecretIsNotSent() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("board.rewind")
            _ = try Self.record(to: path, cards: 3)
            let scheduler = VirtualTimeScheduler()
            let app = Kanban.App(scheduler: .virtual(scheduler))
            defer { app.detach() }
            let replay = try Replay(journal: path)
            replay.clock = .virtual(scheduler)
            try replay.bind("board", to: app.board.replayTarget)
            let report = replay.run()
            #expect(report.missingSecrets.map(\.key) == ["signIn.authToken"], "\(report)")
            #expect(report.inputsReplayed == 0 && app.server.tokensSeen.isEmpty && app.board.state.cards.isEmpty)
        }

        /// The journal's events as a test compares two recordings: units, kinds, names, paths,
        /// values and parents, without times — and without the flux's lock numbers, which count
        /// the process's locks (an identity, like a unit's instance number).
        static func outline(_ path: String) throws -> [String] {
            try JournalReader(path: path).events().map { event in
                var value = event.value?.compactDescription(limit: 60) ?? ""
                if event.source.typeName == "Flux" { value = value.replacing(/lock: \d+/, with: "lock: #") }
                return "\(event.sequence) \(event.source.description) \(event.kind) \(event.name) \(event.path ?? "") \(value) ← \(event.parent ?? 0)"
            }
        }

        @Test("a recording of the buggy board, re-recorded from the fixed code twice, is the same journal both times and replays clean")
        func rerecordIsIdempotent() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("board.rewind")
            _ = try Self.record(to: path, cards: 30, plantedBug: true)
            let original = try JournalReader(path: path)
            var outlines: [[String]] = []
            for _ in 0..<2 {
                let scheduler = VirtualTimeScheduler()
                let app = Kanban.App(scheduler: .virtual(scheduler))
                defer { app.detach() }
                let replay = try Replay(journal: path)
                replay.clock = .virtual(scheduler)
                replay.secrets = ["authToken": "tok-test"]
                try replay.bind("board", to: app.board.replayTarget)
                try replay.bind("stats", to: app.stats.replayTarget)
                try replay.bind("Flux", to: Flask.bus.replayTarget)
                let report = try replay.rerecord()
                #expect(report.restoredSteps.isEmpty && report.skippedSteps.isEmpty, "\(report)")
                outlines.append(try Self.outline(path))
            }
            let firstDifference = zip(outlines[0], outlines[1]).first { $0 != $1 }
            #expect(outlines[0] == outlines[1], "\(outlines[0].count) and \(outlines[1].count) events; first difference: \(String(describing: firstDifference))")
            let rerecorded = try JournalReader(path: path)
            #expect(try rerecorded.verify().damage.isEmpty, "a re-recorded journal verifies clean")
            #expect(rerecorded.sources.map(\.source.description) == original.sources.map(\.source.description))
            #expect(rerecorded.events().filter { $0.kind == .released }.count == original.events().filter { $0.kind == .released }.count)
            // Nothing but what the live code did: no restore, and the fixed insertion.
            #expect(!rerecorded.events().contains { $0.name == "restore" })
            let scheduler = VirtualTimeScheduler()
            let app = Kanban.App(scheduler: .virtual(scheduler))
            defer { app.detach() }
            expectReplay(
                of: path, driving: ["board": app.board.replayTarget, "stats": app.stats.replayTarget, "Flux": Flask.bus.replayTarget],
                clock: scheduler, secrets: ["authToken": "tok-test"]
            )
        }

        @Test("a planted bug diverges at the step that shows it")
        func plantedBugDiverges() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("board.rewind")
            _ = try Self.record(to: path, cards: 20)
            let scheduler = VirtualTimeScheduler()
            let app = Kanban.App(scheduler: .virtual(scheduler), plantedBug: true)
            defer { app.detach() }
            let replay = try Replay(journal: path)
            replay.clock = .virtual(scheduler)
            try replay.bind("board", to: app.board.replayTarget)
            try replay.bind("stats", to: app.stats.replayTarget)
            replay.secrets = ["authToken": "tok-test"]
            let report = replay.run()
            let divergence = try #require(report.divergence, "\(report)")
            #expect(divergence.input?.name == "addToTop", "\(report)")
            #expect(divergence.source.hasPrefix("board"), "\(report)")
            #expect(divergence.difference.changedPaths.contains { $0.description.hasPrefix("columns[0].cardIDs") }, "\(report)")
        }

        @Test("a planted bug's failing session shrinks to the input that shows it, and the shrunk recording fails on the buggy code only")
        func plantedBugShrinks() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("board.rewind")
            _ = try Self.record(to: path, cards: 60)
            var apps: [Kanban.App] = []
            defer { apps.forEach { $0.detach() } }
            func setUp(plantedBug: Bool) -> Replay.Setup {
                apps.last?.detach()
                let scheduler = VirtualTimeScheduler()
                let app = Kanban.App(scheduler: .virtual(scheduler), plantedBug: plantedBug)
                apps.append(app)
                return Replay.Setup(driving: ["board": app.board.replayTarget, "stats": app.stats.replayTarget], clock: .virtual(scheduler))
            }
            let result = try Replay.shrink(journal: path, secrets: ["authToken": "tok-test"], maximumTime: .seconds(600)) { setUp(plantedBug: true) }
            #expect(result.isMinimal, "\(result)")
            // The replay first diverges at the card asked for while the sync held the flux: that card
            // is only added when the sync's answer lets the flux go, so the sync is kept with it.
            #expect(result.keptInputs.map(\.description) == [#"startSync {count: 4}"#, #"addToTop {title: "urgent while syncing"}"#], "\(result)")
            // The stats the reaction recounts are put back too: every state the shrunk recording
            // holds is one the app had (the recount is not replayed from an empty board's stats).
            let shrunkReader = try JournalReader(path: result.output)
            #expect(shrunkReader.events().filter { $0.name == "restore" }.map(\.source.label) == ["board", "stats"])
            let shrunk = try KanbanReplayTests.outline(result.output)
            for plantedBug in [true, false] {
                let setup = setUp(plantedBug: plantedBug)
                let replay = try Replay(journal: result.output)
                replay.secrets = ["authToken": "tok-test"]
                replay.clock = setup.clock
                for (source, target) in setup.bindings { try replay.bind(source, to: target) }
                let report = replay.run()
                #expect(report.passes(allowRestoring: true) == !plantedBug, "\(report)\n\(shrunk.joined(separator: "\n"))")
            }
        }
    }
}



/// Kanban boards recorded and replayed at the same time, each in a Flask of its own: outside the
/// serialized suite, so they also run beside every other Flask test.
@Suite("Flask replays in parallel, each isolated")
struct IsolatedFlaskReplayTests {
    @Test("two boards recorded and replayed at once, each in Flask.isolated, replay clean")
    func parallelBoards() throws {
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { round in
            Flask.isolated {
                do {
                    let directory = TemporaryDirectory()
                    let path = directory.file("board-\(round).rewind")
                    let mismatches = try FlaskTests.KanbanReplayTests.record(to: path, cards: 60)
                    if !mismatches.isEmpty { failures.withLock { $0.append("\(round): \(mismatches.prefix(3))") } }
                    let scheduler = VirtualTimeScheduler()
                    let app = Kanban.App(scheduler: .virtual(scheduler))
                    defer { app.detach() }
                    let replay = try Replay(journal: path)
                    replay.clock = .virtual(scheduler)
                    replay.secrets = ["authToken": "tok-test"]
                    try replay.bind("board", to: app.board.replayTarget)
                    try replay.bind("stats", to: app.stats.replayTarget)
                    let report = replay.run()
                    if !report.passes() { failures.withLock { $0.append("\(round): \(report)") } }
                    if app.board.state.syncsCompleted != 1 { failures.withLock { $0.append("\(round): \(app.board.state.syncsCompleted) syncs") } }
                } catch {
                    failures.withLock { $0.append("\(round): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }

    @Test("a mixer asked for in one Flask never reaches a substance of another")
    func mixersStayInTheirFlask() {
        // Both in Flasks of their own: the process's is shared with the serialized suite's tests.
        let outside = Flask.isolated { Kanban.BoardSubstance(name: "outside") }
        let inside = Flask.isolated { () -> Kanban.BoardSubstance in
            let board = Kanban.BoardSubstance(name: "inside")
            Flask.substances(reactTo: Kanban.Mixers.addCard, payload: ["title": "inside only"])
            return board
        }
        #expect(inside.state.cards.map(\.title) == ["inside only"])
        #expect(outside.state.cards.isEmpty)
    }
}
