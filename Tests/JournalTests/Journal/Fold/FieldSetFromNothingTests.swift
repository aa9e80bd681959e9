import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import RewindViewer
import Testing

/// A capture leaves out an optional that is `nil`; a change inside a commit that gives it its first
/// value adds the field, so the state after that change step holds it — in `show`, `export`,
/// `blame`, queries and the viewer alike — not only from the commit's end.
@Suite("A field set from nothing inside a commit")
struct FieldSetFromNothingTests {
    struct Receipt: Codable, Equatable { var total: Int }
    struct Checkout: Codable, Equatable {
        var total = 500
        var coupon: String?
        var status = "open"
        var receipt: Receipt?
    }

    final class CheckoutModel: CyclerType, Sendable {
        let state: Storage<Checkout> = .init(.init())
    }

    @Test("is in the state from its change step on, every reader agrees, and the commit's record puts it in its place")
    func fromItsChangeStep() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkout.rewind")
        let journal = try JournalLogger(path: path)
        let model = CheckoutModel()
        model.set(logger: journal)
        model.commit("pay") {
            $0.update(Receipt(total: 500), \.receipt)
            $0.update("paid", \.status)
            $0.update("TENOFF", \.coupon)
        }
        journal.close()

        let reader = try JournalReader(path: path)
        let events = reader.allEvents()
        let id = try #require(events.first).source.instanceID
        let changes = events.filter { $0.kind == .change }
        #expect(changes.map(\.path) == ["receipt", "status", "coupon"])
        let receiptStep = try #require(try reader.state(of: id, at: changes[0].sequence))
        #expect(receiptStep[try StatePath(parsing: "receipt.total")] == .integer(500))
        #expect(receiptStep[try StatePath(parsing: "status")] == .string("open"))
        let couponStep = try #require(try reader.state(of: id, at: changes[2].sequence))
        #expect(couponStep[try StatePath(parsing: "coupon")] == .string("TENOFF"))
        // Added at the end of the state until the commit's record puts the fields in their order.
        guard case .object(let added) = couponStep else { Issue.record("not an object"); return }
        #expect(Array(added.keys) == ["total", "status", "receipt", "coupon"])
        let commitEnd = try #require(events.last { $0.kind == .didMutate })
        let committed = try #require(try reader.state(of: id, at: commitEnd.sequence))
        guard case .object(let fields) = committed else { Issue.record("not an object"); return }
        #expect(Array(fields.keys) == ["total", "coupon", "status", "receipt"])

        #expect(try StateFoldAgreementTests.checkAgreement(path) > 0)
        // Blame follows the field's inside too.
        var blame = PathWalker(path: try StatePath(parsing: "receipt.total"))
        var walker = StateWalker()
        for event in events {
            walker.advance(event)
            guard let answer = blame.advance(event) else { continue }
            #expect(answer.new == walker.state(of: id)?[try StatePath(parsing: "receipt.total")], "step \(event.sequence)")
        }
        #expect(reader.steps(where: try Condition(parsing: "receipt != nil")).first { _ in true }?.event.sequence == changes[0].sequence)
    }

    @Test("a change below a field that is missing does not apply: only the missing field itself is added")
    func onlyTheFieldItself() throws {
        let state: StateValue = .object(["total": .integer(5)])
        #expect(state.settingOrAddingField(.string("TENOFF"), at: try StatePath(parsing: "coupon")) == .object(["total": .integer(5), "coupon": .string("TENOFF")]))
        #expect(state.settingOrAddingField(.integer(1), at: try StatePath(parsing: "receipt.total")) == nil)
        #expect(state.settingOrAddingField(.integer(1), at: try StatePath(parsing: "total.inner")) == nil)
        #expect(StateValue.array([]).settingOrAddingField(.integer(1), at: try StatePath(parsing: "key")) == nil)
    }
}
