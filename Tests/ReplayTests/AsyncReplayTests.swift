import CombineOperators
import Cycler
import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import RewindTesting
import TestSupport
import Testing

/// A cart whose checkout finishes later, on a scheduler: the order service's reply commits the
/// order id through the dispatch's context. `orderID` stands for whatever today's code computes.
final class Cart: CyclerType {
    struct State: Codable, Equatable {
        var quantity = 0
        var status = "open"
        var orderID: String?
    }

    let state: Storage<State> = .init(.init())
    private let scheduler: VirtualTimeScheduler
    private let orderID: String

    init(scheduler: VirtualTimeScheduler, orderID: String = "ORD-1001") {
        self.scheduler = scheduler
        self.orderID = orderID
    }

    func add(_ amount: Int) {
        dispatch("add", with: amount) { context, amount in
            context.commit("add") { $0.update($0.value.quantity + amount, \.quantity) }
        }
    }

    func checkout() {
        let orderID = self.orderID
        dispatch("checkout") { context in
            context.commit("submit") { $0.update("submitting", \.status) }
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) {
                context.commit("confirm") { state in
                    state.update(orderID, \.orderID)
                    state.update("confirmed", \.status)
                }
            }
        }
    }

    /// The cart with every dispatch re-sendable.
    var replayableTarget: any ReplayTarget {
        replayTarget(resending: [
            .dispatch("add") { (cart: Cart, amount: Int) in cart.add(amount) },
            .dispatch("checkout") { $0.checkout() },
        ])
    }
}

@Suite("Replaying asynchronous work")
struct AsyncReplayTests {
    let directory = TemporaryDirectory()

    /// Records: add 2, add 1, checkout, and the order service's reply 300 ms later.
    func recordSession() throws -> String {
        let path = directory.file("cart.rewind")
        let journal = try JournalLogger(path: path)
        let scheduler = VirtualTimeScheduler()
        let cart = Cart(scheduler: scheduler)
        cart.set(logger: journal)
        cart.add(2)
        cart.add(1)
        cart.checkout()
        scheduler.advance(by: .milliseconds(300))
        #expect(cart.state.value == Cart.State(quantity: 3, status: "confirmed", orderID: "ORD-1001"))
        journal.close()
        return path
    }

    @Test("an async result the live code computes differently is a divergence at that step and path, even when restoring is allowed")
    func changedAsyncResultDiverges() throws {
        let path = try recordSession()
        let clock = VirtualTimeScheduler()
        let today = Cart(scheduler: clock, orderID: "ORD-9999")
        let replay = try Replay(journal: path)
        replay.clock = .virtual(clock)
        try replay.bind("Cart", to: today.replayableTarget)
        let report = replay.run()

        let divergence = try #require(report.divergence)
        let confirm = try #require(replay.reader.events().first { $0.kind == .didMutate && $0.name == "confirm" })
        #expect(divergence.step == confirm.sequence)
        #expect(divergence.difference.changedPaths.map(\.description) == ["orderID"])
        #expect(report.restoredSteps.isEmpty, "nothing is put back: the live cart produced every state")
        #expect(report.passes(allowRestoring: true) == false)
        #expect(report.description.contains(#"+   orderID: "ORD-9999""#), "\(report)")
    }

    @Test("a divergence in a commit made later through a dispatch's context is blamed on that dispatch's input, not the latest one")
    func asyncDivergenceNamesItsCause() throws {
        let path = directory.file("cart-late.rewind")
        let journal = try JournalLogger(path: path)
        let scheduler = VirtualTimeScheduler()
        let cart = Cart(scheduler: scheduler)
        cart.set(logger: journal)
        cart.add(2)
        cart.checkout()
        scheduler.advance(by: .milliseconds(100))
        cart.add(1)  // the latest input when the confirmation arrives
        scheduler.advance(by: .milliseconds(200))
        journal.close()

        let clock = VirtualTimeScheduler()
        let replay = try Replay(journal: path)
        replay.clock = .virtual(clock)
        try replay.bind("Cart", to: Cart(scheduler: clock, orderID: "ORD-9999").replayableTarget)
        let report = replay.run()
        let divergence = try #require(report.divergence)
        let checkout = try #require(replay.reader.events().first { $0.kind == .willDispatch && $0.name == "checkout" })
        #expect(divergence.input?.name == "checkout" && divergence.input?.step == checkout.sequence, "\(report)")
        #expect(report.description.contains("after input checkout (step \(checkout.sequence))"))
    }

    @Test("the same code replays the async step strictly: compared, nothing put back")
    func unchangedCodeReplaysStrictly() throws {
        let path = try recordSession()
        let clock = VirtualTimeScheduler()
        let report = try #require(expectReplay(of: path, driving: ["Cart": Cart(scheduler: clock).replayableTarget], clock: clock))
        #expect(report.inputsReplayed == 3 && report.restoredSteps.isEmpty && report.isFaithful)
    }

    @Test("a dispatch that cannot be re-sent fails a strict replay, naming the steps and paths put back; allowRestoring passes and lists them")
    func closureDispatchIsNotCheckedSilently() throws {
        let path = try recordSession()
        // Only `add` can be re-sent: `checkout` and its async reply are put back.
        func target(_ orderID: String) -> any ReplayTarget {
            Cart(scheduler: VirtualTimeScheduler(), orderID: orderID).replayTarget(resending: [
                .dispatch("add") { (cart: Cart, amount: Int) in cart.add(amount) },
            ])
        }
        let replay = try Replay(journal: path)
        try replay.bind("Cart", to: target("ORD-9999"))
        let report = replay.run()
        #expect(report.isFaithful && !report.passes())
        let events = Array(replay.reader.events())
        let checkoutEnd = try #require(events.first { $0.kind == .didDispatch && $0.name == "checkout" })
        let confirm = try #require(events.first { $0.kind == .didMutate && $0.name == "confirm" })
        #expect(report.restoredSteps == [
            RestoredStep(step: checkoutEnd.sequence, source: "Cart#\(checkoutEnd.source.instanceID)", event: "didDispatch checkout", paths: ["status"], reason: .notResent(dispatch: "checkout")),
            RestoredStep(step: confirm.sequence, source: "Cart#\(confirm.source.instanceID)", event: "didMutate confirm", paths: ["status", "orderID"], reason: .notReproduced),
        ])

        withKnownIssue {
            expectReplay(of: path, driving: ["Cart": target("ORD-9999")])
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("restored: step \(confirm.sequence) (Cart#\(confirm.source.instanceID), didMutate confirm): status, orderID")
                && text.contains("dispatch 'checkout' cannot be re-sent")
        }
        let allowed = try #require(expectReplay(of: path, driving: ["Cart": target("ORD-9999")], allowRestoring: true))
        #expect(allowed.restoredSteps.map(\.step) == [checkoutEnd.sequence, confirm.sequence])
    }

    @Test("invariants are checked once each input's work has settled, and at the end; a broken one fails at its step")
    func invariants() throws {
        let path = try recordSession()
        let shared = VirtualTimeScheduler()
        let checked = expectReplay(
            of: path, driving: ["Cart": Cart(scheduler: shared).replayableTarget], clock: shared,
            invariant: { (state: Cart.State) in state.quantity >= 0 }
        )
        let holds = try #require(checked)
        // Before the second and third inputs (the first found nothing to settle but the
        // creation), and at the end.
        #expect(holds.invariantChecks == holds.inputsReplayed + 1)

        let replay = try Replay(journal: path)
        let clock = VirtualTimeScheduler()
        replay.clock = .virtual(clock)
        replay.invariants = [ReplayInvariant("at most two items") { (state: Cart.State) in state.quantity <= 2 }]
        try replay.bind("Cart", to: Cart(scheduler: clock).replayableTarget)
        let report = replay.run()
        let violation = try #require(report.invariantViolation)
        let secondAdd = try #require(replay.reader.events().filter { $0.kind == .didDispatch && $0.name == "add" }.last)
        #expect(violation.step == secondAdd.sequence && violation.invariant == "at most two items")
        #expect(report.isFaithful && !report.passes(allowRestoring: true))
        #expect(report.description.contains("invariant 'at most two items' broken at step \(secondAdd.sequence)"))

        withKnownIssue {
            expectReplay(of: path, driving: ["Cart": Cart(scheduler: VirtualTimeScheduler()).replayableTarget], invariant: { (state: Int) in state > 0 })
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("never checked")
        }
    }

    @Test("record mode re-records the journal from today's code, and fails so that it is not left on")
    func recordMode() throws {
        let path = try recordSession()
        let clock = VirtualTimeScheduler()
        withKnownIssue {
            expectReplay(of: path, driving: ["Cart": Cart(scheduler: clock, orderID: "ORD-9999").replayableTarget], clock: clock, record: true)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("re-recorded from today's code")
        }
        let states = try JournalReader(path: path).events().compactMap(\.stateRecord)
        #expect(!states.isEmpty)

        // Today's code now replays its own recording strictly.
        let again = VirtualTimeScheduler()
        let report = try #require(expectReplay(of: path, driving: ["Cart": Cart(scheduler: again, orderID: "ORD-9999").replayableTarget], clock: again))
        #expect(report.inputsReplayed == 3 && report.restoredSteps.isEmpty)
        let reader = try JournalReader(path: path)
        let last = try #require(Array(reader.events()).last)
        let final = try #require(try reader.state(of: last.source.instanceID, at: last.sequence))
        #expect(final.compactDescription(limit: 200).contains("ORD-9999"))
    }
}
