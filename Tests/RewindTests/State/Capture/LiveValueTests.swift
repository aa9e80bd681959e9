@testable import Rewind
import Testing

/// The writer finds the element a subscript key path wrote by walking the live state: these check
/// that the walk looks through optionals however often a type was met before.
@Suite("Live value walk")
struct LiveValueTests {
    struct Item { var done: Bool }
    struct Board { var items: [Item]; var pinned: Item? }

    @Test("a path leads through an optional field, and a type met as non-optional first stays walkable")
    func throughOptionals() throws {
        let board = Board(items: [Item(done: false), Item(done: true)], pinned: Item(done: true))
        #expect(LiveValue.value(at: StatePath([.key("items"), .index(1), .key("done")]), in: board) as? Bool == true)
        #expect(LiveValue.value(at: StatePath([.key("pinned"), .key("done")]), in: board) as? Bool == true)
        let unpinned = Board(items: [], pinned: nil)
        #expect(LiveValue.value(at: StatePath([.key("pinned"), .key("done")]), in: unpinned) == nil)
    }

    @Test("an AnyHashable is looked into each time: holding a value once does not hide an optional it holds later")
    func anyHashableAnswersByItsContent() throws {
        let plain = AnyHashable(3)
        #expect(LiveValue.value(at: StatePath([]), in: plain) != nil)
        let none = AnyHashable(Optional<Int>.none)
        #expect(LiveValue.value(at: StatePath([]), in: none) == nil)
    }
}
