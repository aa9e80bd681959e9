import MCP

/// The tools the server offers: the `rewind` commands a coding agent needs to debug from a
/// recording — each answers with the command's own `--json` output (docs/JSON_OUTPUT.md), so
/// there is one codec per answer, the command line's.
public enum RecordingTools {
    /// One tool: its name, what it does, its arguments, and the `rewind` command it runs.
    struct Definition: Sendable {
        let name: String
        let description: String
        /// Argument name → (JSON type, description, required).
        let arguments: [(name: String, type: String, description: String, required: Bool)]
        /// The command line for the arguments given (the journal first), without `--json`.
        let command: @Sendable (_ file: String, _ arguments: [String: Value]) throws(ToolArgumentError) -> [String]
    }

    static let file = (name: "file", type: "string", description: "The journal (.rewind file); may be left out when the server was started with one.", required: false)
    static let source = (name: "source", type: "string", description: "Only this source: a label, Type#id, a type name or an instance number.", required: false)

    static let definitions: [Definition] = [
        Definition(
            name: "info",
            description: "What a recording holds: its sources (units), event count, time span, sizes and integrity.",
            arguments: [file],
            command: { file, _ in ["info", file] }
        ),
        Definition(
            name: "log",
            description: "The recording's events, one JSON object each, oldest first; changes carry their old value. Filter by source, kind (dispatch, mutate, change, mutated, finished, activity, created, released), text and step range.",
            arguments: [file, source,
                        ("kind", "string", "Kinds, comma-separated, as the viewer's rows name them (dispatch,change) or as JSON does (willDispatch).", false),
                        ("grep", "string", "Only events whose name, description, path or value contains this text.", false),
                        ("from", "integer", "From this step on.", false),
                        ("to", "integer", "Up to this step.", false)],
            command: { file, arguments throws(ToolArgumentError) in
                var command = ["log", file]
                try add(arguments, "source", to: &command)
                try add(arguments, "kind", to: &command)
                try add(arguments, "grep", to: &command)
                try add(arguments, "from", to: &command)
                try add(arguments, "to", to: &command)
                return command
            }
        ),
        Definition(
            name: "show",
            description: "A source's whole state after a step, as JSON.",
            arguments: [file, ("at", "integer", "The step (sequence number).", true), source],
            command: { file, arguments throws(ToolArgumentError) in
                var command = ["show", file]
                try add(arguments, "at", to: &command, required: true)
                try add(arguments, "source", to: &command)
                return command
            }
        ),
        Definition(
            name: "diff",
            description: "What changed in a source's state between two steps: one {path, old, new} per changed key path, list elements named by id.",
            arguments: [file, ("from", "integer", "The earlier step.", true), ("to", "integer", "The later step.", true), source],
            command: { file, arguments throws(ToolArgumentError) in
                var command = ["diff", file, try text(arguments, "from", required: true)!, try text(arguments, "to", required: true)!]
                try add(arguments, "source", to: &command)
                return command
            }
        ),
        Definition(
            name: "blame",
            description: "Every step that changed a key path (items[id: 3].done follows the element whose id is 3), old → new, each with what led to it: the commit and the chain of dispatches, nearest first.",
            arguments: [file, ("path", "string", "The key path, e.g. cart.total, items[id: 3].done or items[2].title.", true), source],
            command: { file, arguments throws(ToolArgumentError) in
                var command = ["blame", file, try text(arguments, "path", required: true)!, "--why"]
                try add(arguments, "source", to: &command)
                return command
            }
        ),
        Definition(
            name: "query",
            description: "The steps where a condition over the state holds, e.g. 'cart.total < 0', 'changed(items[id: 3])', 'status != old(status)', 'kind == dispatch && name == \"checkout\"'.",
            arguments: [file, ("condition", "string", "The condition (rewind query's grammar).", true),
                        ("answer", "string", "first, last, all (the default) or count.", false), source],
            command: { file, arguments throws(ToolArgumentError) in
                var command = ["query", file, try text(arguments, "condition", required: true)!]
                if let answer = try text(arguments, "answer") {
                    guard ["first", "last", "all", "count"].contains(answer) else { throw ToolArgumentError("answer must be first, last, all or count") }
                    command.append("--" + answer)
                }
                try add(arguments, "source", to: &command)
                return command
            }
        ),
        Definition(
            name: "verify",
            description: "Check every block and the index: whether the recording is intact, and what was lost where it is not.",
            arguments: [file],
            command: { file, _ in ["verify", file] }
        ),
    ]

    /// The tools as MCP lists them, each with a JSON Schema of its arguments.
    public static var tools: [Tool] {
        definitions.map { definition in
            var properties: [String: Value] = [:]
            for argument in definition.arguments {
                properties[argument.name] = .object(["type": .string(argument.type), "description": .string(argument.description)])
            }
            return Tool(
                name: definition.name, description: definition.description,
                inputSchema: .object([
                    "type": "object",
                    "properties": .object(properties),
                    "required": .array(definition.arguments.filter(\.required).map { .string($0.name) }),
                ]),
                annotations: .init(readOnlyHint: true, openWorldHint: false)
            )
        }
    }

    /// An argument as command-line text: a string as it is, an integer in decimal.
    static func text(_ arguments: [String: Value], _ name: String, required: Bool = false) throws(ToolArgumentError) -> String? {
        switch arguments[name] {
        case .string(let value)?: return value
        case .int(let value)?: return String(value)
        case .double(let value)? where value.rounded() == value && abs(value) < 1e15: return String(Int64(value))
        case nil, .null?:
            if required { throw ToolArgumentError("\(name) is required") }
            return nil
        default: throw ToolArgumentError("\(name) must be text or a whole number")
        }
    }

    static func add(_ arguments: [String: Value], _ name: String, to command: inout [String], required: Bool = false) throws(ToolArgumentError) {
        if let value = try text(arguments, name, required: required) { command += ["--" + name, value] }
    }
}

/// A tool call's arguments that cannot make a command: said to the agent as the tool's error.
public struct ToolArgumentError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
