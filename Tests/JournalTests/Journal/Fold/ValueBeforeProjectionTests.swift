@_spi(Tooling) @testable import Rewind
import Testing

/// `rewind log` reads a change's old value where the walk makes the change (``StateFold/apply(_:old:)``)
/// rather than by looking its path up in the state before. Both must give ``ValueBefore``'s one
/// rule — for places that exist, that are missing, past a list's end, set to `nil`, given a list,
/// and paths that do not read — and the state after must be what applying the step gives.
@Suite("A change's old value read where the change is made")
struct ValueBeforeProjectionTests {
    static let state: StateValue = .object([
        "count": .integer(3),
        "title": .string("Groceries"),
        "coupon": .null,
        "items": .array([
            .object(["id": .integer(1), "done": .bool(false), "tags": .array([.string("a")])]),
            .object(["id": .integer(2), "done": .bool(true), "tags": .array([])])
        ]),
        "inner": .object(["name": .string("x"), "deeper": .object(["level": .integer(1)])])
    ])

    static let paths = [
        "count", "title", "coupon", "missing", "items", "items[0]", "items[1].done", "items[2]", "items[7].done",
        "items[0].tags[0]", "items[0].tags[1]", "inner.name", "inner.deeper.level", "inner.absent", "inner.deeper.absent.more",
        "count.below", "items.done", "items[…].done", "inner[0]", ""
    ]

    static let values: [StateValue] = [
        .integer(4), .string("Errands"), .bool(true), .null, .array([.integer(9)]), .object(["level": .integer(2)])
    ]

    @Test("gives ValueBefore's rule and the state applying the step gives, for every place and value")
    func everyPlaceAndValue() {
        var compared = 0
        for before in [Self.state, nil] as [StateValue?] {
            for path in Self.paths {
                for value in Self.values {
                    let step = StateStep.change(path: path, value: value)
                    var fold = StateFold(state: before)
                    var old = ValueBefore.unknown
                    let moved = fold.apply(step, old: &old)
                    #expect(old == ValueBefore(kind: .change, path: path, in: before), "\(path) = \(value)")
                    let applied = step.applied(to: before)
                    #expect(moved == (applied != nil), "\(path) = \(value)")
                    #expect(fold.current == (applied ?? before), "\(path) = \(value)")
                    #expect(fold.recorded == before, "a change inside a commit leaves the recorded state")
                    compared += 1
                }
            }
        }
        #expect(compared == 2 * Self.paths.count * Self.values.count)
    }

    @Test("what the places held is what a change there reads as its old value")
    func oldValues() {
        func old(_ path: String, _ value: StateValue = .integer(0)) -> ValueBefore {
            var fold = StateFold(state: Self.state)
            var old = ValueBefore.unknown
            fold.apply(.change(path: path, value: value), old: &old)
            return old
        }
        #expect(old("count") == .value(.integer(3)))
        #expect(old("items[1].done") == .value(.bool(true)))
        #expect(old("coupon", .string("TENOFF")) == .value(.null))
        #expect(old("items[7].done") == .absent)
        #expect(old("inner.absent", .array([])) == .absent)
        #expect(old("items[…].done") == .unknown, "a place the recording could not name")
    }

    @Test("changes one after another inside a commit each read what the one before left, and leave the recorded state")
    func changesInACommit() {
        var fold = StateFold(state: Self.state)
        var old = ValueBefore.unknown
        #expect(fold.apply(.change(path: "items[0].done", value: .bool(true)), old: &old))
        #expect(fold.recorded == Self.state, "the recorded state is untouched")
        #expect(fold.apply(.change(path: "items[0].done", value: .bool(false)), old: &old))
        #expect(old == .value(.bool(true)), "the first change's value")
        #expect(fold.apply(.change(path: "items[1].done", value: .bool(false)), old: &old))
        #expect(old == .value(.bool(true)))
        #expect(fold.current?[StatePath([.key("items"), .index(0), .key("done")])] == .bool(false))
        #expect(fold.current?[StatePath([.key("items"), .index(1), .key("done")])] == .bool(false))
    }
}
