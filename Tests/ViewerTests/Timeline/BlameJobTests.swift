import Foundation
@_spi(Tooling) import Rewind
import RewindViewer
import Testing

@Suite("The viewer's b and B")
struct BlameJobTests {
    struct Item: Codable, Sendable {
        var id: Int
        var done: Bool
    }

    struct List: Codable, Sendable {
        var items: [Item]
    }

    /// A list whose first commit inserts an item at the front — the second item is then another
    /// one — and whose second commit ticks the item now second.
    static func record(to path: String) throws {
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "List"))
        channel.emit(.created(state: LoggedValue(List(items: [Item(id: 1, done: false), Item(id: 2, done: true)]))), callSite: CallSite(), to: journal)
        for (name, items) in [
            ("insert", [Item(id: 0, done: true), Item(id: 1, done: false), Item(id: 2, done: true)]),
            ("tick", [Item(id: 0, done: true), Item(id: 1, done: true), Item(id: 2, done: true)])
        ] {
            channel.emit(.willMutate, name: name, callSite: CallSite(), to: journal)
            let state = LoggedValue(List(items: items))
            channel.emit(.change(path: ChangedPath(name: "items"), value: LoggedValue(items), state: state), name: name, callSite: CallSite(), to: journal)
            channel.emit(.didMutate(duration: .zero, state: LoggedValue(List(items: items))), name: name, callSite: CallSite(), to: journal)
        }
        journal.close()
    }

    static func blame(_ path: String, in timeline: Timeline, from position: Int, forward: Bool) throws -> BlameResult? {
        let source = try #require(timeline.event(at: 0)).source.instanceID
        var job = Timeline.BlameJob(try FollowedPath(parsing: path), source: source, from: position, forward: forward)
        var answer: BlameResult??
        repeat { answer = job.step(timeline, budget: 100) } while answer == nil
        return answer ?? nil
    }

    @Test("followed by position, an insertion before the element is an index shift, not a change: b passes over it, as rewind blame does")
    func insertionIsNotAChange() throws {
        try ViewerFixtures.withJournalPath("list.rewind") { path in
            try Self.record(to: path)
            let timeline = Timeline(reader: try JournalReader(path: path))
            let names = (0..<timeline.count).map { timeline.event(at: $0)?.name ?? "" }
            // The steps that move the state: each commit's change of `items`, and its end.
            let tick = try #require((0..<timeline.count).first { names[$0] == "tick" && timeline.event(at: $0)?.kind == .change })

            let last = try #require(try Self.blame("items[1].done", in: timeline, from: timeline.count, forward: false))
            #expect(last.position == tick && last.old == .bool(false) && last.new == .bool(true), "\(last)")
            // Before the tick, the element at items[1] changed only when the list began: the
            // insertion put another item there (true → false), which is a move.
            let earlier = try #require(try Self.blame("items[1].done", in: timeline, from: tick, forward: false))
            #expect(earlier.position == 0, "b landed on #\(earlier.sequence) (\(names[earlier.position]))")
            let forward = try #require(try Self.blame("items[1].done", in: timeline, from: 0, forward: true))
            #expect(forward.position == tick)
            // Followed by id, the same item's tick is the only change after it was created.
            let byID = try #require(try Self.blame("items[id: 1].done", in: timeline, from: timeline.count, forward: false))
            #expect(byID.position == tick)
            #expect(try Self.blame("items[id: 1].done", in: timeline, from: tick, forward: false)?.position == 0)
        }
    }
}
