import CombineOperators
import Flask
import Foundation
import RewindTesting
import TestSupport
import Testing

extension FlaskTests {
    /// The kanban board recorded in real time, as a user's app runs: the server answers on a real
    /// dispatch queue, later than it was due (the machine was busy), after the user's next input
    /// (issue 63).
    @Suite("The kanban board recorded in real time")
    struct KanbanRealTimeTests {
        /// Records a session in real time into `path`: a board of `cards` cards, a sync whose
        /// answer is due after `latency` but is held on the server's queue until the user has
        /// added a card after that due time — as on a loaded machine — then the rest.
        /// The server's latency, in milliseconds.
        static let latency = 20

        static func record(to path: String, cards: Int = 20, latency: Int = Self.latency) throws -> [LiveStateCheck.Mismatch] {
            let queue = DispatchQueue(label: "kanban server")
            let scheduler = SessionScheduler.realTime(queue: queue)
            let app = Kanban.App(scheduler: scheduler)
            defer { app.detach() }
            app.server.latency = .milliseconds(latency)
            // Real times: the replay moves its clock by them.
            let check = try LiveStateCheck.record(
                to: path, configuration: JournalConfiguration(),
                units: [app.board.replayTarget, app.stats.replayTarget, Flask.bus.replayTarget]
            ) {
                func mix(_ mixer: Kanban.Mixers, _ payload: MixerPayload? = nil) {
                    Flask.substances(reactTo: mixer, payload: payload)
                }
                for index in 0..<cards { mix(.addCard, ["title": "card \(index)", "points": index % 5 + 1]) }
                mix(.signIn, ["user": "ada", "authToken": "tok-SECRET-4711"])
                mix(.moveCard, ["id": 3, "to": 1])
                let busy = DispatchSemaphore(value: 0)
                let due = scheduler.now.advanced(by: .milliseconds(latency))
                mix(.startSync, ["count": 4])
                // The server's queue is busy: the answer comes when it is free, not when due.
                queue.async { busy.wait() }
                // The user goes on after the answer was due (a user's pause, on the real clock).
                while scheduler.now < due { usleep(1_000) }
                mix(.addToTop, ["title": "hotfix"])
                busy.signal()
                // The answer, and the mixes the flux held for it, run on the server's queue once
                // its timer has fired: waited for by what they do, not by time.
                let deadline = DispatchTime.now() + .seconds(30)
                while queue.sync(execute: { app.board.state.syncsCompleted }) == 0, DispatchTime.now() < deadline { usleep(1_000) }
                mix(.addToTop, ["title": "second hotfix"])
                mix(.removeCard, ["id": 5])
            }
            return check.mismatches
        }

        @Test("20 sessions recorded in real time, each with its answer after a later input, replay clean against their own code")
        func realTimeRecordingsReplayClean() throws {
            let directory = TemporaryDirectory()
            var failures: [String] = []
            for round in 0..<20 {
                let path = directory.file("board-\(round).rewind")
                let mismatches = try Self.record(to: path)
                #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
                let clock = VirtualTimeScheduler()
                let app = Kanban.App(scheduler: .virtual(clock))
                defer { app.detach() }
                // The same code as recorded it: the same server, on the replay's clock.
                app.server.latency = .milliseconds(Self.latency)
                let replay = try Replay(journal: path)
                replay.clock = .virtual(clock)
                replay.secrets = ["authToken": "tok-test"]
                try replay.bind("board", to: app.board.replayTarget)
                try replay.bind("stats", to: app.stats.replayTarget)
                let report = replay.run()
                if !report.passes() || app.board.state.syncsCompleted != 1 {
                    failures.append("round \(round): syncs completed \(app.board.state.syncsCompleted): \(report)")
                }
                // Whatever the replay left waiting runs, so that the flux is free for the next round.
                clock.run()
            }
            #expect(failures.isEmpty, "\(failures.count) of 20 diverged:\n\(failures.prefix(2).joined(separator: "\n\n"))")
        }

        @Test("an answer the recording has and the live app never schedules is reported as such")
        func answerNeverScheduled() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("board.rewind")
            _ = try Self.record(to: path)
            let clock = VirtualTimeScheduler()
            let app = Kanban.App(scheduler: .virtual(clock))
            defer { app.detach() }
            // Today's server answers on a clock of its own, which the replay never moves: the
            // live app has nothing waiting on the replay's clock. Run at the end, it lets the
            // flux go.
            let elsewhere = VirtualTimeScheduler()
            app.board.server = Kanban.Server(scheduler: .virtual(elsewhere))
            defer { elsewhere.run() }
            let replay = try Replay(journal: path)
            replay.clock = .virtual(clock)
            replay.secrets = ["authToken": "tok-test"]
            try replay.bind("board", to: app.board.replayTarget)
            let report = replay.run()
            #expect(!report.passes())
            #expect(report.unscheduledAnswers.contains { $0.event == "didDispatch syncFinished" && $0.input?.name == "startSync" }, "\(report)")
        }
    }
}
