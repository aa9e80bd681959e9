import Foundation
@_spi(Tooling) @testable import Rewind
import Testing

@Suite("A query's key paths are the recording's")
struct QueryPathTests {
    @Test("a path no unit has is an error naming the nearest known ones (exit 2), not 'no step' (exit 1)")
    func unknownPathIsAnError() throws {
        let typo = try CommandRunner.run(["query", "Fixtures/todo.rewind", "itemz.count > 1"])
        #expect(typo.status == 2 && typo.standardError.contains("no unit in this recording has a field itemz.count; did you mean 'items'?"), "\(typo.transcript)")
        let unknown = try CommandRunner.run(["query", "Fixtures/todo.rewind", "nextId > 1 || titl == \"x\""])
        #expect(unknown.status == 2 && unknown.standardError.contains("'nextID'"), "\(unknown.transcript)")
        // Known paths still answer, "no" included; a list's count and a path into a list are not
        // held to fields the schema does not list.
        #expect(try CommandRunner.run(["query", "Fixtures/todo.rewind", "items.count > 100"]).status == 1)
        #expect(try CommandRunner.run(["query", "Fixtures/todo.rewind", "items[0].title == \"Milk\"", "--first"]).status == 0)
        #expect(try CommandRunner.run(["query", "Fixtures/todo.rewind", "kind == dispatch && name == \"toggle\"", "--count"]).status == 0)
    }

    @Test("only a path's first field is judged, against what every unit's state starts with; unknown units judge nothing")
    func firstFieldsOnly() throws {
        #expect(try Condition(parsing: "anything > 1").unknownPaths(knownFields: nil).isEmpty)
        let known: Set<String> = ["total", "lines", "owner", "unread"]
        // Deeper fields may be a dictionary's keys or an optional that was nil: not judged.
        #expect(try Condition(parsing: "owner.nmae == \"x\" && lines[2].qty > 0 && total.count > 1").unknownPaths(knownFields: known).isEmpty)
        #expect(try Condition(parsing: "unred > 0").unknownPaths(knownFields: known).first?.nearest == ["unread"])
    }

    @Test("log --grep finds a change by its move as its own line shows it, as the viewer's / does; ~ for a regular expression")
    func grepFindsTheRowAsShown() throws {
        let move = try CommandRunner.run(["log", "Fixtures/counter.rewind", "--grep", "1 → 2", "--width", "200"])
        #expect(move.status == 0)
        let lines = move.standardOutput.split(separator: "\n" as Character)
        #expect(lines.count == 1 && lines.first?.contains("count: 1 → 2") == true, "\(move.transcript)")
        let exact = try CommandRunner.run(["log", "Fixtures/todo.rewind", "--grep", "~^toggle$"])
        #expect(exact.status == 0 && !exact.standardOutput.isEmpty)
        #expect(exact.standardOutput.split(separator: "\n" as Character).allSatisfy { $0.contains(" toggle ") || $0.hasSuffix(" toggle") })
        // A source's name and a row's name and summary together are found, as `/` finds them.
        let bySource = try CommandRunner.run(["log", "Fixtures/demo.rewind", "--grep", "TodoSample"])
        #expect(bySource.status == 0 && bySource.standardOutput.split(separator: "\n" as Character).count > 20, "\(bySource.transcript.prefix(300))")
        let row = try CommandRunner.run(["log", "Fixtures/counter.rewind", "--grep", "add step count"])
        #expect(row.status == 0 && !row.standardOutput.isEmpty, "\(row.transcript)")
        let malformed = try CommandRunner.run(["log", "Fixtures/todo.rewind", "--grep", "~(unclosed"])
        #expect(malformed.status == 2 && malformed.standardError.contains("not a regular expression"))
    }

    @Test("export --states N keeps a unit's whole state on every Nth row that moved it, 0 on none; changes stay on every row")
    func exportStates() throws {
        func rows(_ states: String) throws -> [[String: Any]] {
            let export = try CommandRunner.run(["export", "Fixtures/todo.rewind", "--format", "jsonl", "--states", states])
            #expect(export.status == 0)
            return try export.standardOutput.split(separator: "\n" as Character).map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        }
        let all = try rows("1"), some = try rows("5"), none = try rows("0")
        func withState(_ rows: [[String: Any]]) -> Int { rows.filter { $0["state"] is [String: Any] }.count }
        #expect(all.count == some.count && some.count == none.count)
        #expect(withState(none) == 0 && withState(some) > 0 && withState(some) * 4 < withState(all), "\(withState(some)) of \(withState(all))")
        #expect(zip(all, none).allSatisfy { ($0["changes"] as? [Any])?.count == ($1["changes"] as? [Any])?.count })
        #expect(try CommandRunner.run(["export", "Fixtures/todo.rewind", "--format", "jsonl", "--states", "-1"]).status == 2)
    }
}
