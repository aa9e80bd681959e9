import MCP

/// The tools the server offers: the `rewind` commands a coding agent needs to debug from a
/// recording — each answers with the command's own `--json` output (docs/JSON_OUTPUT.md), so
/// there is one codec per answer, the command line's.
///
/// Arguments are typed values, never pasted into a command line: each is checked against its
/// declared type (steps are whole numbers, never text), options are passed as one word each
/// (`--source=VALUE`, so a value cannot be read as another option), and `--` ends the options
/// before the journal and the positional values (a condition or key path that starts with `-`
/// stays a value). The journal itself is never an argument a tool passes on: the server picks it
/// from the files it serves (``RecordingServer``).
public enum RecordingTools {
    /// One argument a tool takes.
    struct Argument: Sendable {
        enum Kind: Sendable {
            case text
            /// A step number: a whole number, at least 0.
            case step
            /// A count: a whole number, at least 0.
            case count
            /// The JSON Schema type.
            var schemaType: String { self == .text ? "string" : "integer" }
        }

        let name: String
        let kind: Kind
        let description: String
        let required: Bool
        /// The least a number may be.
        let minimum: Int

        init(_ name: String, _ kind: Kind, _ description: String, required: Bool = false, minimum: Int = 0) {
            self.name = name
            self.kind = kind
            self.description = description
            self.required = required
            self.minimum = minimum
        }
    }

    /// The `rewind` command line a tool call becomes, in parts: the subcommand, its options (each
    /// one word) and the values after the journal, which follow `--`.
    struct Invocation: Equatable, Sendable {
        var subcommand: String
        var options: [String] = []
        var positionals: [String] = []

        /// The arguments for `rewind`: options, `--json`, then `--`, the journal and the values.
        func arguments(file: String) -> [String] {
            [subcommand] + options + ["--json", "--", file] + positionals
        }
    }

    /// One tool: its name, what it does, its arguments, and the `rewind` command it runs.
    struct Definition: Sendable {
        let name: String
        let description: String
        let arguments: [Argument]
        /// The command for the checked arguments (``ToolArguments``).
        let invocation: @Sendable (_ arguments: ToolArguments) throws(ToolArgumentError) -> Invocation

        /// Its own arguments and the server's paging ones, which every tool takes.
        var allArguments: [Argument] { arguments + RecordingTools.paging }
    }

    /// How an answer is read in parts (``RecordingServer/answerBudget``): the server's own, never
    /// passed to `rewind`.
    static let paging = [
        Argument("skip", .count, "Lines of the answer to leave out: to read on where a cut answer stopped, pass the skip its note says."),
        Argument("budget", .count, "The most bytes the answer may hold: 32768 unless given, at least 1024, at most 262144.", minimum: 1024),
    ]

    static let file = Argument("file", .text, "The journal (.rewind file): one of the files the server was started with; may be left out when it serves one.")
    static let source = Argument("source", .text, "Only this source: a label, Type#id, a type name or an instance number.")

    static let definitions: [Definition] = [
        Definition(
            name: "info",
            description: "What a recording holds: its sources (units), event count, time span, sizes and integrity.",
            arguments: [file],
            invocation: { _ in Invocation(subcommand: "info") }
        ),
        Definition(
            name: "log",
            description:
                "The recording's events, one JSON object each, oldest first; changes carry their old value. Filter by source, kind (dispatch, mutate, change, mutated, finished, activity, created, released, replace, dropped, log: the app's own log messages), level, text and step range.",
            arguments: [
                file, source,
                Argument("kind", .text, "Kinds, comma-separated, as the viewer's rows name them (dispatch,change) or as JSON does (willDispatch)."),
                Argument(
                    "level", .text,
                    "Only the app's log messages at this level or above (trace, debug, info, notice, warning, error, critical); other kinds as kind chooses. With kind log: only those messages."
                ),
                Argument("grep", .text, "Only events whose name, description, path or value contains this text."),
                Argument("from", .step, "From this step on."),
                Argument("to", .step, "Up to this step.")
            ],
            invocation: { arguments in
                Invocation(subcommand: "log", options: arguments.options(["source", "kind", "level", "grep", "from", "to"]))
            }
        ),
        Definition(
            name: "show",
            description:
                "A source's state after a step, or one key path of it, as JSON Lines: a list's elements ({index, value}) or an object's fields ({key, value}) one a line, so that a large state is read in parts with skip; anything else as {value}.",
            arguments: [
                file, Argument("at", .step, "The step (sequence number).", required: true),
                Argument("path", .text, "Only this key path of the state, e.g. items, items[id: 3] or cart.total (default: the whole state)."), source
            ],
            invocation: { arguments in
                Invocation(subcommand: "show", options: arguments.options(["at", "source"]) + ["--elements"], positionals: arguments["path"].map { [$0] } ?? [])
            }
        ),
        Definition(
            name: "diff",
            description: "What changed in a source's state between two steps: one {path, old, new} per changed key path, list elements named by id.",
            arguments: [file, Argument("from", .step, "The earlier step.", required: true), Argument("to", .step, "The later step.", required: true), source],
            invocation: { arguments in
                Invocation(subcommand: "diff", options: arguments.options(["source"]), positionals: [arguments["from"]!, arguments["to"]!])
            }
        ),
        Definition(
            name: "blame",
            description: "Every step that changed a key path (items[id: 3].done follows the element whose id is 3), old → new, each with what led to it: the commit and the chain of dispatches, nearest first.",
            arguments: [file, Argument("path", .text, "The key path, e.g. cart.total, items[id: 3].done or items[2].title.", required: true), source],
            invocation: { arguments in
                Invocation(subcommand: "blame", options: ["--why"] + arguments.options(["source"]), positionals: [arguments["path"]!])
            }
        ),
        Definition(
            name: "query",
            description: "The steps where a condition over the state holds, e.g. 'cart.total < 0', 'changed(items[id: 3])', 'status != old(status)', 'items[*].quantity < 0' (some element), 'count(items[*].done) != doneCount', 'kind == mutated && changed(total) && !changed(items)' (a commit), 'kind == dispatch && name == \"checkout\"'.",
            arguments: [file, Argument("condition", .text, "The condition (rewind query's grammar).", required: true),
                        Argument("answer", .text, "first, last, all (the default) or count."), source],
            invocation: { arguments throws(ToolArgumentError) in
                var options = arguments.options(["source"])
                if let answer = arguments["answer"] {
                    guard ["first", "last", "all", "count"].contains(answer) else { throw ToolArgumentError("answer must be first, last, all or count") }
                    options.append("--" + answer)
                }
                return Invocation(subcommand: "query", options: options, positionals: [arguments["condition"]!])
            }
        ),
        Definition(
            name: "verify",
            description: "Check every block and the index: whether the recording is intact, and what was lost where it is not.",
            arguments: [file],
            invocation: { _ in Invocation(subcommand: "verify") }
        ),
    ]

    /// The tools as MCP lists them, each with a JSON Schema of its arguments.
    public static var tools: [Tool] {
        definitions.map { definition in
            var properties: [String: Value] = [:]
            for argument in definition.allArguments {
                var schema: [String: Value] = ["type": .string(argument.kind.schemaType), "description": .string(argument.description)]
                if argument.kind != .text { schema["minimum"] = .int(argument.minimum) }
                properties[argument.name] = .object(schema)
            }
            return Tool(
                name: definition.name, description: definition.description,
                inputSchema: .object([
                    "type": "object",
                    "properties": .object(properties),
                    "required": .array(definition.arguments.filter(\.required).map { .string($0.name) }),
                    "additionalProperties": false,
                ]),
                annotations: .init(readOnlyHint: true, openWorldHint: false)
            )
        }
    }
}

/// A tool call's arguments, each checked against the type the tool declares for it, as text for
/// the command line. Built only through ``init(_:for:)``, so no unchecked value reaches a command.
struct ToolArguments: Sendable {
    private var values: [String: String] = [:]

    /// Checks `given` against `definition`'s arguments (`file` is the server's to handle): an
    /// argument the tool does not take, a missing required one, or a value of another type is
    /// an error.
    init(_ given: [String: Value], for definition: RecordingTools.Definition) throws(ToolArgumentError) {
        let known = Set(definition.allArguments.map(\.name))
        if let unknown = given.keys.sorted().first(where: { !known.contains($0) }) {
            throw ToolArgumentError("\(definition.name) takes no argument '\(unknown)'; it takes \(definition.allArguments.map(\.name).joined(separator: ", "))")
        }
        for argument in definition.allArguments where argument.name != "file" {
            switch (argument.kind, given[argument.name]) {
            case (_, nil), (_, .null?):
                if argument.required { throw ToolArgumentError("\(argument.name) is required") }
            case (.text, .string(let text)?):
                guard !text.contains("\0") else { throw ToolArgumentError("\(argument.name) may not hold a NUL character") }
                values[argument.name] = text
            case (.step, .int(let number)?) where number >= argument.minimum, (.count, .int(let number)?) where number >= argument.minimum:
                values[argument.name] = String(number)
            case (.step, .double(let number)?) where number >= Double(argument.minimum) && number.rounded() == number && number < 9e15,
                 (.count, .double(let number)?) where number >= Double(argument.minimum) && number.rounded() == number && number < 9e15:
                values[argument.name] = String(Int64(number))
            case (.step, _):
                throw ToolArgumentError("\(argument.name) must be a step number (a whole number, at least 0)")
            case (.count, _):
                throw ToolArgumentError("\(argument.name) must be a whole number, at least \(argument.minimum)")
            case (.text, _):
                throw ToolArgumentError("\(argument.name) must be text")
            }
        }
    }

    /// The checked value of an argument, as command-line text.
    subscript(name: String) -> String? { values[name] }

    /// The given ones among `names`, each as one `--name=value` word.
    func options(_ names: [String]) -> [String] {
        names.compactMap { name in values[name].map { "--\(name)=\($0)" } }
    }
}

/// A tool call's arguments that cannot make a command: said to the agent as the tool's error.
public struct ToolArgumentError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
