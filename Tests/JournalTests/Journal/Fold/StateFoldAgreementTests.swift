import Foundation
@_spi(Tooling) @testable import Rewind
import RewindViewer
import Testing
import TestSupport

/// One answer everywhere: every consumer of a journal's states — `show` and `diff` (the reader),
/// `export`, recording diffs and OpenTelemetry (``StateWalker``), `blame` (``PathWalker``) and the
/// viewer's state pane (``Timeline``) — gives the same state at every step, and blame's steps are
/// the ones the viewer's `b` and `B` land on.
@Suite("One state at every step")
struct StateFoldAgreementTests {
    static let fixtures = ["counter", "todo", "demo", "flask", "ricemill", "unio", "todo-format-1", "demo-truncated-index"]

    /// Checks every consumer at every step of the journal at `path`; returns how many steps it checked.
    static func checkAgreement(_ path: String) throws -> Int {
        let reader = try JournalReader(path: path)
        let timeline = Timeline(reader: reader)
        let events = reader.allEvents()
        var walker = StateWalker()
        // Blame's walker on every top-level field and on the first element of every list.
        var paths: Set<StatePath> = []
        for event in events {
            guard let state = try reader.state(of: event.source.instanceID, at: event.sequence), case .object(let fields) = state else { continue }
            for (key, value) in fields {
                paths.insert(StatePath([.key(key)]))
                if case .array(let elements) = value, !elements.isEmpty { paths.insert(StatePath([.key(key), .index(0)])) }
            }
        }
        var pathWalkers = paths.map { PathWalker(path: $0) }
        var blameWalkers = pathWalkers
        // Per path: the timeline positions of the steps `rewind blame` lists.
        var blamed: [[(position: Int, old: StateValue?, new: StateValue?)]] = Array(repeating: [], count: paths.count)
        var checked = 0
        for event in events {
            let id = event.source.instanceID
            walker.advance(event)
            let pathAnswers = pathWalkers.indices.map { pathWalkers[$0].advance(event) }
            for index in blameWalkers.indices {
                if case .changed(let old, let new)? = blameWalkers[index].verdict(event), let position = timeline.position(ofSequence: event.sequence) {
                    blamed[index].append((position, old, new))
                }
            }
            guard event.stateStep != nil else { continue }
            let walked = walker.state(of: id)
            let read = try reader.state(of: id, at: event.sequence)
            #expect(read == walked, "\(path) step \(event.sequence): show and export disagree")
            #expect(timeline.state(of: id, at: event.sequence) == read, "\(path) step \(event.sequence): the viewer and show disagree")
            for (index, answer) in pathAnswers.enumerated() {
                guard let answer else { continue }
                #expect(answer.new == walked.flatMap(pathWalkers[index].followedPath.value(in:)), "\(path) step \(event.sequence): blame of \(pathWalkers[index].followedPath) disagrees")
            }
            checked += 1
        }
        // The viewer's `b` from just after each blamed step lands on it, and `B` from just before it
        // too, with the same values (a journal's every step is a row: no filter hides one).
        for (index, steps) in blamed.enumerated() {
            let path = blameWalkers[index].followedPath
            for step in steps.prefix(40) {
                let source = try #require(timeline.event(at: step.position)).source.instanceID
                for forward in [false, true] {
                    var job = Timeline.BlameJob(path, source: source, from: step.position + (forward ? -1 : 1), forward: forward)
                    var answer: BlameResult??
                    repeat { answer = job.step(timeline, budget: 500) } while answer == nil
                    let found = try #require(answer ?? nil, "\(path) #\(step.position): the viewer's \(forward ? "B" : "b") finds nothing")
                    #expect(found.position == step.position && found.old == step.old && found.new == step.new,
                            "\(path): the viewer's \(forward ? "B" : "b") lands on \(found.position), blame on \(step.position)")
                }
            }
        }
        return checked
    }

    @Test("every fixture: show, export, blame and the viewer agree at every step", arguments: fixtures)
    func fixture(name: String) throws {
        let path = Repository.fixture(name)
        #expect(try Self.checkAgreement(path) > 0)
    }

    @Test("random journals: show, export, blame and the viewer agree at every step", arguments: 1...4 as ClosedRange<UInt64>)
    func random(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let file = directory.file("board-\(seed).rewind")
        _ = try JournalRandomAccessTests.record(to: file, steps: 300, seed: seed)
        #expect(try Self.checkAgreement(file) > 0)
    }

    @Test("the demo's chained mix: the item appended inside the commit is in the state from its change step on")
    func appendInsideCommit() throws {
        let path = Repository.fixture("demo")
        let reader = try JournalReader(path: path)
        let feed = try #require(reader.sources.first { $0.source.label == "feed" })
        let events = Array(reader.events(matching: EventFilter(sourceIDs: [feed.source.instanceID])))
        let append = try #require(events.first { $0.kind == .change && $0.path == "items" })
        let start = try #require(events.last { $0.kind == .willMutate && $0.sequence < append.sequence })
        let second = try #require(events.first { $0.kind == .change && $0.sequence > append.sequence })
        let state = try #require(try reader.state(of: feed.source.instanceID, at: append.sequence))
        #expect(state[try StatePath(parsing: "items")] == .array([.string("hello")]))
        let after = try #require(try reader.state(of: feed.source.instanceID, at: second.sequence))
        #expect(after[try StatePath(parsing: "info.nest.foo")] == .string("mutated"))
        let before = try #require(try reader.state(of: feed.source.instanceID, at: start.sequence))
        #expect(before[try StatePath(parsing: "items")] == .array([]))
    }
}

extension StateFoldAgreementTests {
    @Test("verify is clean only when every step's state reads back: a diff that does not apply is reported")
    func verifyRebuildsStates() throws {
        let directory = TemporaryDirectory()
        var sound = CraftedJournal()
        sound.commit(.keyframe(.object(["count": .integer(1)])))
        sound.commit(.diff(StateDiff(changes: [StateChange(path: StatePath([.key("count")]), operation: .changed(from: .integer(1), to: .integer(2)))])))
        #expect(try JournalReader(path: sound.write(in: directory, named: "sound.rewind")).verify().unbuildableStates == [])

        var altered = CraftedJournal()
        altered.commit(.keyframe(.object(["count": .integer(1)])))
        altered.commit(.diff(StateDiff(changes: [StateChange(path: StatePath([.key("missing")]), operation: .removed(.null))])))
        altered.append(.created)
        let report = try JournalReader(path: altered.write(in: directory, named: "altered.rewind")).verify()
        #expect(report.damage.isEmpty, "every block reads back")
        #expect(!report.isClean)
        #expect(report.unbuildableStates.map(\.description) == ["step #2 (Crafted#1): its state diff does not apply to the state before it"])
    }
}
