import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import TestSupport
import Testing

@Suite("blame --why: what led to each write")
struct BlameWhyTests {
    /// A checkout whose dispatch starts another (a charge), which commits: a chain two dispatches deep.
    final class Checkout: CyclerType, Sendable {
        struct State: Codable, Equatable { var total = 0; var status = "idle" }
        let state: Storage<State> = .init(.init())

        func checkout() {
            dispatch("checkout") { _ in
                self.charge(amount: 5)
                self.commit("confirm") { $0.update("confirmed", \.status) }
            }
        }

        func charge(amount: Int) {
            dispatch("charge") { context in
                context.commit("add to total") { $0.update($0.value.total + amount, \.total) }
            }
        }
    }

    static func record() throws -> (directory: TemporaryDirectory, path: String) {
        let directory = TemporaryDirectory()
        let path = directory.file("checkout.rewind")
        let journal = try JournalLogger(path: path)
        let checkout = Checkout()
        checkout.set(logger: journal)
        checkout.checkout()
        journal.close()
        return (directory, path)
    }

    @Test("each write is followed by its commit and every dispatch up the chain, nearest first, in text and JSON")
    func chain() throws {
        let (directory, path) = try Self.record()
        _ = directory
        let reader = try JournalReader(path: path)
        let write = try #require(reader.events().first { $0.kind == .change && $0.path == "total" })
        #expect(reader.causes(of: write).map(\.name) == ["charge", "checkout"])

        let text = try CommandRunner.run(["blame", path, "total", "--why"])
        #expect(text.status == 0)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        let at = try #require(lines.firstIndex { $0.contains("0 → 5") })
        #expect(lines[at + 1].contains("← #") && lines[at + 1].contains("commit add to total"))
        #expect(lines[at + 2].contains("dispatch charge"))
        #expect(lines[at + 3].contains("dispatch checkout"))

        let json = try CommandRunner.run(["blame", path, "total", "--why", "--json"])
        let objects = try json.standardOutput.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let charged = try #require(objects.first { $0["new"] as? Int == 5 })
        let why = try #require(charged["why"] as? [[String: Any]])
        #expect(why.map { $0["relation"] as? String } == ["commit", "dispatch", "dispatch"])
        #expect(why.map { $0["name"] as? String } == ["add to total", "charge", "checkout"])
        #expect(charged["schema_version"] as? Int == 1 && charged["old"] as? Int == 0)
    }

    @Test("a chain of 8,000 nested dispatches is blamed in linear time: each write's chain is found, not read again", .timeLimit(.minutes(10)))
    func deepChainIsLinear() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("deep.rewind")
        let journal = try JournalLogger(path: path)
        let source = EventSource(framework: .cycler, typeName: "Deep")
        let depth = 8_000
        var sequence: UInt64 = 0
        func log(_ kind: Event.Kind, _ name: String, parent: UInt64?) -> UInt64 {
            sequence += 1
            journal.log(Event(sequence: sequence, time: .now(), source: source, kind: kind, name: name, description: "", callSite: CallSite(), parent: parent))
            return sequence
        }
        _ = log(.created(state: LoggedValue(["count": 0])), "", parent: nil)
        // Each dispatch starts inside the one before, and writes the count.
        var parent: UInt64?
        for level in 1...depth {
            let dispatch = log(.willDispatch(input: nil), "level \(level)", parent: parent)
            _ = log(.change(path: ChangedPath(name: "count"), value: LoggedValue(level), state: LoggedValue(["count": level])), "", parent: dispatch)
            parent = dispatch
        }
        journal.close()
        let blame = try CommandRunner.run(["blame", path, "count", "--why", "--json"])
        #expect(blame.status == 0, "\(blame.standardError)")
        let lines = blame.standardOutput.split(separator: "\n")
        #expect(lines.count == depth + 1, "the created state, then every write")
        // The deepest write's chain: its dispatch, then each one up, as far as chains go (64).
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        let chain = try #require(last["why"] as? [[String: Any]])
        #expect(chain.count == 64 && chain.first?["name"] as? String == "level \(depth)" && chain.last?["name"] as? String == "level \(depth - 63)")
    }

    @Test("one rule for 'no answer': blame of a path nothing changed exits 1, as query does; show takes a key path")
    func noAnswerAndShowPath() throws {
        let nothing = try CommandRunner.run(["blame", "Fixtures/todo.rewind", "items[id: 99].title"])
        #expect(nothing.status == 1 && nothing.standardOutput.contains("no step changed items[id: 99].title"), "\(nothing.transcript)")
        let query = try CommandRunner.run(["query", "Fixtures/todo.rewind", "changed(items[id: 99].title)"])
        #expect(query.status == 1)
        // A path no unit has is a mistake for both: exit 2, naming the nearest.
        let typo = try CommandRunner.run(["blame", "Fixtures/todo.rewind", "nextIDs"])
        #expect(typo.status == 2 && typo.standardError.contains("'nextID'"), "\(typo.transcript)")
        let done = try CommandRunner.run(["show", "Fixtures/todo.rewind", "--at", "60", "items[id: 1].done", "--json"])
        #expect(done.status == 0 && done.standardOutput == "true\n", "\(done.transcript)")
        let count = try CommandRunner.run(["show", "Fixtures/todo.rewind", "--at", "60", "items.count"])
        #expect(count.status == 0 && Int(count.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "\(count.transcript)")
        let missing = try CommandRunner.run(["show", "Fixtures/todo.rewind", "--at", "60", "items[id: 99].title"])
        #expect(missing.status == 2 && missing.standardError.contains("has no items[id: 99].title"), "\(missing.transcript)")
    }

    @Test("log fits its lines to the width: at 80 columns no line wraps (the call site goes, long source names shorten); wider lines keep every column")
    func logFitsTheWidth() throws {
        for width in [64, 80, 100, 160] {
            let log = try CommandRunner.run(["log", "Fixtures/demo.rewind", "--width", String(width)])
            #expect(log.status == 0)
            let widest = log.standardOutput.components(separatedBy: "\n").map(\.count).max() ?? 0
            #expect(widest <= width, "\(width): a line of \(widest)")
            #expect(log.standardOutput.contains("DemoSession.swift:") == (width >= 120), "\(width)")
        }
    }
}
