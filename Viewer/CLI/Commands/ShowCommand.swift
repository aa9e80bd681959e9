import ArgumentParser
@_spi(Tooling) import Rewind

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a source's state at one step, as an indented tree or as JSON.",
        discussion: """
            Examples:
              rewind show Fixtures/todo.rewind --at 40 --source TodoSample
              rewind show Fixtures/todo.rewind --at 40 'items[id: 2].done'    (one key path of the state)
              rewind show Fixtures/todo.rewind --at 40 items --json --elements  (one element a line)
            """
    )

    @OptionGroup var journal: JournalArgument
    var file: String { journal.file }
    @Argument(help: "Only this key path of the state (items[id: 2].title, cart.total, items.count).") var path: String?
    @Option(help: "The step (sequence number).") var at: UInt64
    @Option(help: "The source (default: the source of the event at that step).") var source: String?
    @Flag(help: "Write the state as JSON.") var json = false
    @Flag(
        help: """
            With --json: a list's elements or an object's fields one a line ({"index": 0, "value": …} or \
            {"key": "name", "value": …}; anything else as {"value": …}), so that a large state is read in parts.
            """
    )
    var elements = false

    func validate() throws {
        if elements, !json { throw ValidationError("--elements writes JSON lines: add --json") }
    }

    func run() throws {
        var keyPath: FollowedPath?
        if let path {
            do { keyPath = try FollowedPath(parsing: path) } catch { throw CommandFailure(error.description) }
        }
        let reader = try JournalOpening.open(file)
        // Only the step's source and what it was are kept: its values (an input, a log's
        // metadata) may be as large as a state, and are not shown.
        let (stepSource, what) = try {
            let event = try JournalOpening.step(at, in: reader)
            return (event.source, [event.kind.rawValue, VisibleText.escaped(event.name.isEmpty ? event.path ?? "" : event.name)].filter { !$0.isEmpty }.joined(separator: " "))
        }()
        let chosen = try source.map { try JournalOpening.source($0, in: reader) } ?? stepSource
        let state: StateValue?
        do { state = try reader.state(of: chosen.instanceID, at: at) } catch { throw CommandFailure(error) }
        let output = Output()
        guard let state else {
            let first = reader.sources.first { $0.source == chosen }?.sequences.lowerBound ?? 0
            if at > first, (try? reader.stateFold(of: chosen.instanceID, at: at).recorded) == nil,
               reader.events(matching: EventFilter()).contains(where: { $0.source == chosen && $0.sequence <= at && $0.carriesState }) {
                throw CommandFailure("\(VisibleText.escaped(chosen.description))'s state at step \(at) cannot be rebuilt (the journal was altered); run 'rewind verify \(VisibleText.escaped(file))' for the steps affected")
            }
            throw CommandFailure("\(VisibleText.escaped(chosen.description)) has no state at step \(at) (it first appears at step \(first))")
        }
        if let keyPath {
            // A key path reads as a condition reads it: `count` of a list is its length.
            let value = keyPath.lookUp(in: state)
            guard value != .null || keyPath.value(in: state) != nil else {
                throw CommandFailure("\(VisibleText.escaped(chosen.description)) has no \(keyPath) at step \(at)")
            }
            if json { write(value, to: output) } else { output.line(value.indentedDescription()) }
        } else if json {
            write(state, to: output)
        } else {
            output.line("\(VisibleText.escaped(chosen.description)) at step \(at) (\(what))")
            output.line(state.indentedDescription())
        }
        // The state shown is what survived; say if anything did not, as the commands that read
        // every event do (the index hides a damaged block until it is read).
        output.flush()
        reader.checkBlockChecksums()
        JournalOpening.warnAboutDamage(in: reader)
    }

    /// `value` as JSON: one line, or with `--elements` one line per element or field.
    private func write(_ value: StateValue, to output: Output) {
        guard elements else { return output.line(JSONText.value(value)) }
        switch value {
        case .array(let items):
            for (index, item) in items.enumerated() {
                output.line("{\"index\":\(index),\"value\":\(JSONText.value(item))}")
            }
        case .object(let fields):
            for (key, field) in fields {
                output.line("{\"key\":\(JSONText.string(key)),\"value\":\(JSONText.value(field))}")
            }
        default:
            output.line("{\"value\":\(JSONText.value(value))}")
        }
    }
}
