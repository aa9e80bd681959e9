import CombineOperators
import Flask
import Foundation

/// A kanban board as a Flask user writes it: hundreds of cards in columns with work-in-progress
/// limits, a second substance whose counts a reaction keeps in step (the reactor asks for a
/// `recount` mix after every board change), a sync answered later on a scheduler while the flux is
/// locked, and a sign-in whose payload carries a secret token.
///
/// `plantedBug` makes "add to top" drop the card that was first (the bug a replay must find).
enum Kanban {
    struct Card: Codable, Equatable, Sendable {
        var id: Int
        var title: String
        var points: Int
    }

    struct Column: Codable, Equatable, Sendable {
        var name: String
        var wipLimit: Int
        var cardIDs: [Int]
    }

    enum Mixers: SubstanceMixer {
        case addCard, addToTop, moveCard, removeCard, startSync, syncFinished, signIn
    }

    enum StatsMixers: SubstanceMixer {
        case recount
    }

    struct BoardState: State {
        var columns = [
            Column(name: "todo", wipLimit: 1_000, cardIDs: []),
            Column(name: "doing", wipLimit: 5, cardIDs: []),
            Column(name: "done", wipLimit: 1_000, cardIDs: []),
        ]
        var cards: [Card] = []
        var nextID = 1
        var syncsCompleted = 0
        var isSyncing = false
        var signedInAs = ""
        var authToken = ""
        var rejectedMoves = 0
    }

    struct StatsState: State {
        var cardsPerColumn: [Int] = []
        var totalPoints = 0
        var overLimit: [String] = []
    }

    /// The server: answers a sync with the cards it added, after a latency on the scheduler.
    final class Server: @unchecked Sendable {
        // Unchecked: used on the flux and the scheduler's thread, one at a time in the tests.
        let scheduler: SessionScheduler
        private(set) var tokensSeen: [String] = []
        var latency: SessionScheduler.SchedulerTimeType.Stride = .milliseconds(300)

        init(scheduler: SessionScheduler) {
            self.scheduler = scheduler
        }

        /// Answers with `count` new card titles, after the latency, releasing `lock` first.
        func sync(count: Int, token: String, lock: FluxLock, answer: @escaping ([String]) -> Void) {
            tokensSeen.append(token)
            scheduler.schedule(after: scheduler.now.advanced(by: latency), tolerance: .nanoseconds(0), options: nil) {
                lock.release()
                answer((0..<count).map { "synced \($0)" })
            }
        }
    }

    final class BoardSubstance: ReactiveSubstance<BoardState, Mixers>, @unchecked Sendable {
        // Unchecked: as `ReactiveSubstance`.
        var server: Server?
        var plantedBug = false

        override func defineMixers() {
            define(mix: .addCard) { [unowned self] payload, react, abort in
                guard let title = payload?["title"] as? String else { return abort() }
                let points = payload?["points"] as? Int ?? 1
                self.addCard(title: title, points: points, atTop: false)
                react()
            }
            define(mix: .addToTop) { [unowned self] payload, react, abort in
                guard let title = payload?["title"] as? String else { return abort() }
                self.addCard(title: title, points: 1, atTop: true)
                react()
            }
            define(mix: .moveCard) { [unowned self] payload, react, abort in
                guard let id = payload?["id"] as? Int, let to = payload?["to"] as? Int else { return abort() }
                var state = self.prop
                guard let from = state.columns.firstIndex(where: { $0.cardIDs.contains(id) }), from != to,
                      state.columns.indices.contains(to) else { return abort() }
                if state.columns[to].cardIDs.count >= state.columns[to].wipLimit {
                    state.rejectedMoves += 1
                } else {
                    state.columns[from].cardIDs.removeAll { $0 == id }
                    state.columns[to].cardIDs.insert(id, at: 0)
                }
                self.prop = state
                react()
            }
            define(mix: .removeCard) { [unowned self] payload, react, abort in
                guard let id = payload?["id"] as? Int else { return abort() }
                var state = self.prop
                state.cards.removeAll { $0.id == id }
                for index in state.columns.indices { state.columns[index].cardIDs.removeAll { $0 == id } }
                self.prop = state
                react()
            }
            define(mix: .signIn) { [unowned self] payload, react, abort in
                guard let user = payload?["user"] as? String, let token = payload?["authToken"] as? String else { return abort() }
                self.prop.signedInAs = user
                self.prop.authToken = token
                react()
            }
            define(mix: .startSync) { [unowned self] payload, react, abort in
                guard let server = self.server, !self.prop.isSyncing else { return abort() }
                self.prop.isSyncing = true
                react()
                // The flux waits for the answer: mixes asked for meanwhile run after it.
                let lock = Flask.lock()
                server.sync(count: payload?["count"] as? Int ?? 3, token: self.prop.authToken, lock: lock) { titles in
                    Flask.substances(reactTo: Mixers.syncFinished, payload: ["titles": titles])
                }
            }
            define(mix: .syncFinished) { [unowned self] payload, react, _ in
                for title in payload?["titles"] as? [String] ?? [] { self.addCard(title: title, points: 2, atTop: false) }
                self.prop.isSyncing = false
                self.prop.syncsCompleted += 1
                react()
            }
        }

        private func addCard(title: String, points: Int, atTop: Bool) {
            var state = prop
            let id = state.nextID
            state.nextID += 1
            state.cards.append(Card(id: id, title: title, points: points))
            if atTop {
                if plantedBug, !state.columns[0].cardIDs.isEmpty {
                    state.columns[0].cardIDs[0] = id
                } else {
                    state.columns[0].cardIDs.insert(id, at: 0)
                }
            } else {
                state.columns[0].cardIDs.append(id)
            }
            prop = state
        }
    }

    final class StatsSubstance: ReactiveSubstance<StatsState, StatsMixers>, @unchecked Sendable {
        // Unchecked: as `ReactiveSubstance`.
        weak var board: BoardSubstance?

        override func defineMixers() {
            define(mix: .recount) { [unowned self] _, react, abort in
                guard let board = self.board?.state else { return abort() }
                let points = Dictionary(uniqueKeysWithValues: board.cards.map { ($0.id, $0.points) })
                self.prop.cardsPerColumn = board.columns.map(\.cardIDs.count)
                self.prop.totalPoints = board.columns.flatMap(\.cardIDs).reduce(0) { $0 + (points[$1] ?? 0) }
                self.prop.overLimit = board.columns.filter { $0.cardIDs.count > $0.wipLimit }.map(\.name)
                react()
            }
        }
    }

    /// The screen: it asks for a recount whenever the board's columns or cards changed.
    final class Screen: FlaskReactor, @unchecked Sendable {
        // Unchecked: reactions arrive on the flux, one at a time.
        func flaskReactions(reaction: FlaskReaction) {
            guard reaction.changedKeys.contains(where: { $0 == "columns" || $0 == "cards" }) else { return }
            Flask.substances(reactTo: StatsMixers.recount)
        }
    }

    /// The app: the board, its stats, the screen that keeps them in step, on one scheduler.
    final class App {
        let board: BoardSubstance
        let stats: StatsSubstance
        let screen = Screen()
        let server: Server

        init(scheduler: SessionScheduler, plantedBug: Bool = false, withReactor: Bool = true) {
            board = BoardSubstance(name: "board")
            stats = StatsSubstance(name: "stats")
            server = Server(scheduler: scheduler)
            board.server = server
            board.plantedBug = plantedBug
            stats.board = board
            if withReactor { Flask.attachReactor(to: screen, mixing: [board]) }
        }

        func detach() {
            _ = Flask.detachReactor(from: screen)
        }
    }

    /// A session as a user clicks through it: a board of `cards` cards, moves, removals, a
    /// sign-in, a sync answered on the scheduler, cards added to the top.
    static func session(_ app: App, scheduler: VirtualTimeScheduler, cards: Int = 300) {
        func mix(_ mixer: Mixers, _ payload: MixerPayload? = nil) {
            Flask.substances(reactTo: mixer, payload: payload)
        }
        for index in 0..<cards { mix(.addCard, ["title": "card \(index)", "points": index % 5 + 1]) }
        mix(.signIn, ["user": "ada", "authToken": "tok-SECRET-4711"])
        for id in stride(from: 3, to: 40, by: 7) { mix(.moveCard, ["id": id, "to": 1]) }
        mix(.moveCard, ["id": 3, "to": 2])
        mix(.removeCard, ["id": 10])
        mix(.startSync, ["count": 4])
        // Asked for while the sync holds the flux: runs after the answer.
        mix(.addToTop, ["title": "urgent while syncing"])
        scheduler.advance(by: .milliseconds(400))
        mix(.addToTop, ["title": "hotfix"])
        mix(.addToTop, ["title": "second hotfix"])
        mix(.moveCard, ["id": cards + 6, "to": 1])
        mix(.removeCard, ["id": 25])
    }
}
