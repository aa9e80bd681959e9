import Foundation
import Testing

@Suite("every command's JSON follows its documented schema")
struct JSONOutputTests {
    static let schemas = CommandRunner.repositoryRoot + "/docs/schemas/"

    @Test("each command's --json output conforms to its schema in docs/schemas and says its schema's version", arguments: [
        ("info", ["info", "Fixtures/todo.rewind", "--json"]),
        ("info", ["info", "Fixtures/counter-flipped-byte.rewind", "--json"]),
        ("event", ["log", "Fixtures/demo.rewind", "--json"]),
        ("event", ["log", "Fixtures/todo.rewind", "--json", "--grep", "Sourdough"]),
        ("export-row", ["export", "Fixtures/todo.rewind", "--format", "jsonl"]),
        ("export-row", ["export", "Fixtures/demo.rewind", "--format", "jsonl"]),
        ("event", ["query", "Fixtures/demo.rewind", "changed(items) || kind == activity", "--json"]),
        ("event", ["watch", "Fixtures/todo.rewind", "kind == dispatch", "--json"]),
        ("count", ["query", "Fixtures/demo.rewind", "kind == change", "--count", "--json"]),
        ("blame", ["blame", "Fixtures/todo.rewind", "items[id: 2].done", "--why", "--json"]),
        ("blame", ["blame", "Fixtures/demo.rewind", "count", "--json"]),
        ("diff-steps", ["diff", "Fixtures/todo.rewind", "20", "60", "--json"]),
        ("diff-steps", ["diff", "Fixtures/counter.rewind", "2", "3", "--json"]),
        ("diff-recordings", ["diff", "Fixtures/todo.rewind", "Fixtures/todo.rewind", "--json"]),
        ("diff-recordings", ["diff", "Fixtures/todo.rewind", "Fixtures/todo-torn-tail.rewind", "--json"]),
        ("diff-recordings", ["diff", "Fixtures/counter.rewind", "Fixtures/demo.rewind", "--json"]),
        ("verify", ["verify", "Fixtures/todo.rewind", "--json"]),
        ("verify", ["verify", "Fixtures/demo.rewind", "--deep", "--json"]),
        ("verify", ["verify", "Fixtures/counter-flipped-byte.rewind", "--json"]),
        ("verify", ["verify", "Fixtures/demo-truncated-index.rewind", "--json"]),
    ])
    func conforms(schema: String, arguments: [String]) throws {
        let check = try JSONSchemaCheck(file: Self.schemas + schema + ".schema.json")
        let result = try CommandRunner.run(arguments)
        #expect(result.status != 2, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let value = try JSONValue.parse(line)
            #expect(check.problems(value).isEmpty, "\(arguments): \(check.problems(value))")
            guard case .object(let fields) = value else { continue }
            #expect(fields["schema_version"] == .integer(schema == "export-row" ? 2 : 1))
        }
    }

    @Test("show --json is the state itself, as PRODUCT.md pins it: no envelope")
    func showIsTheState() throws {
        let result = try CommandRunner.run(["show", "Fixtures/todo.rewind", "--at", "60", "--json"])
        guard case .object(let state) = try JSONValue.parse(result.standardOutput) else { Issue.record("not an object"); return }
        #expect(state["schema_version"] == nil && state["nextID"] == .integer(6))
    }

    @Test("the check finds what does not conform: a missing field, a wrong type, a field the schema does not know")
    func checkCanFail() throws {
        let check = try JSONSchemaCheck(file: Self.schemas + "verify.schema.json")
        let good = try JSONValue.parse(try CommandRunner.run(["verify", "Fixtures/todo.rewind", "--json"]).standardOutput)
        #expect(check.problems(good).isEmpty)
        guard case .object(var fields) = good else { return }
        fields["clean"] = .string("yes")
        fields["extra"] = .integer(1)
        fields["blocks"] = nil
        let problems = check.problems(.object(fields))
        #expect(problems.contains("$.clean: string, expected boolean"))
        #expect(problems.contains("$: extra is not in the schema"))
        #expect(problems.contains("$: missing blocks"))
    }
}
