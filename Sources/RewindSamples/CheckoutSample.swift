import Cycler
import Dispatch
import Logging
@_spi(Tooling) import Rewind

/// A checkout that logs as an app does: a payment whose card service answers on another thread
/// (an effect of the dispatch that asked), slowly and then with a decline, and a price cache
/// refreshed from background threads outside any dispatch. Its messages go through swift-log;
/// recorded with ``RecordingLogHandler``, each lands at its step, under its dispatch, its card
/// token redacted. Used by `rewind demo` and the fixtures.
public final class CheckoutSample: CyclerType, Sendable {
    /// The basket and how paying it went.
    public struct State: Codable, Equatable, Sendable {
        /// What is in the basket, in the order it was put there.
        public var items: [String] = []
        /// What the basket costs, in euros.
        public var total = 0
        /// `open`, `paying`, then `declined` (or paid, in a kinder demo).
        public var status = "open"
    }

    /// The checkout's state.
    public let state: Storage<State> = .init(.init())
    /// Where the checkout's own messages go.
    public let logger: Logger
    /// Where the card service's answers come from: another thread, as a network client's do.
    private let cardService = DispatchQueue(label: "card-service")

    /// A checkout that logs to `logger`.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// A checkout whose messages are recorded into `journal` (logger `app.checkout`).
    public convenience init(recordingLogsTo journal: any CycleLogging) {
        self.init(logger: Logger(label: "app.checkout") { RecordingLogHandler(label: $0, recordingTo: journal) })
    }

    /// Puts an item in the basket.
    public func add(_ item: String, price: Int) {
        dispatch("add", item) { context in
            context.commit("add item") { state in
                state.update(state.value.items + [item], \.items)
                state.update(state.value.total + price, \.total)
            }
        }
    }

    /// Pays with the card `token` (a secret: recorded, it is redacted). The card service answers on
    /// its own thread, as an effect of this dispatch, once the dispatch has ended: slow, then
    /// declined. Returns once it has answered.
    public func pay(token: String) {
        // The service answers once the dispatch has ended, and the demo waits for its answer: so
        // every run records one order, on any machine.
        let ended = DispatchSemaphore(value: 0), answered = DispatchGroup()
        dispatch("pay") { context in
            let total = context.currentState?.total ?? 0
            logger.info("charging card", metadata: ["amount": "\(total)", "currency": "EUR", "token": "\(token)"])
            context.commit("start payment") { $0.update("paying", \.status) }
            let cause = DispatchScope.currentDispatch
            answered.enter()
            cardService.async {
                ended.wait()
                DispatchScope.runEffect(causedBy: cause) {
                    self.logger.warning("card service slow", metadata: ["elapsedMilliseconds": "2140"])
                    self.logger.error("payment declined", metadata: ["code": "51", "reason": "insufficient funds"])
                    context.commit("decline") { $0.update("declined", \.status) }
                }
                answered.leave()
            }
        }
        ended.signal()
        answered.wait()
    }
}

extension CheckoutSample {
    /// The price cache refreshed by `threads` background threads in turn, outside any dispatch
    /// (one after another: every run records them in one order), its messages recorded into
    /// `journal` (logger `app.prices`).
    public static func refreshPriceCache(threads: Int, recordingLogsTo journal: any CycleLogging) {
        refreshPriceCache(threads: threads, logger: Logger(label: "app.prices") { RecordingLogHandler(label: $0, recordingTo: journal) })
    }

    /// The same, logging to `logger`.
    public static func refreshPriceCache(threads: Int, logger: Logger) {
        for thread in 0..<threads {
            let done = DispatchGroup()
            done.enter()
            DispatchQueue.global().async {
                logger.info("price cache refreshed", metadata: ["thread": "\(thread)", "entries": "\(120 + thread)"])
                if thread == threads - 1 { logger.warning("price cache stale", metadata: ["items": "3"]) }
                done.leave()
            }
            done.wait()
        }
    }
}
