import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "The steps where a condition over the recorded state holds (exit 1 when none does).",
        discussion: """
            A condition compares key paths of the state after each step with values and with each \
            other; old(PATH) is the value before the step, changed(PATH) whether the step changed it \
            (at a commit's end, mutated, both speak of the whole commit), PATH[*] any element of a \
            list, count(…) how many elements a condition holds for, and kind, name, seq and source \
            are the step's own, with level for the app's log messages (trace … critical; a state \
            field named like one of these is state.level):
              rewind query Fixtures/todo.rewind 'items.count >= 3 && filter == "active"' --first
              rewind query Fixtures/todo.rewind 'kind == change && changed(items[id: 2].done)'
              rewind query Fixtures/todo.rewind 'kind == mutated && changed(items) && !changed(nextID)'
              rewind query Fixtures/todo.rewind 'items[*].done && count(items[*].done) < items.count'
              rewind query Fixtures/demo.rewind 'count != old(count) && kind == change' --count
              rewind query Fixtures/demo.rewind 'kind == dispatch && name == "setStep"' --json
              rewind query session.rewind 'kind == log && level >= error' --first
            Values: numbers, "text", true, false, nil; && || ! ( ); .count of a list is its length.
            """
    )

    enum Answer: String, EnumerableFlag {
        case first, last, all, count

        static func help(for value: Answer) -> ArgumentHelp? {
            switch value {
            case .first: "Only the first step where it holds."
            case .last: "Only the last step where it holds."
            case .all: "Every step where it holds (the default)."
            case .count: "How many steps it holds at."
            }
        }
    }

    @OptionGroup var journal: JournalArgument
    var file: String { journal.file }
    @Argument(help: "The condition, e.g. 'cart.total < 0' or 'changed(items[id: 3])'.") var condition: String
    @Option(help: "Only this source's steps: a label, Type#id, a type name or an id.") var source: String?
    @Flag var answer: Answer = .all
    @Flag(help: "Write JSON: one object per step (JSON Lines), or {\"count\": N} with --count.") var json = false
    @OptionGroup var colors: ColorOptions

    func run() throws {
        let parsed: Condition
        do { parsed = try Condition(parsing: condition) } catch { throw CommandFailure(error.description) }
        let reader = try JournalOpening.open(file)
        let sourceID = try source.map { try JournalOpening.source($0, in: reader).instanceID }
        // A path no unit has is a mistake to name, not a question whose answer is "no step".
        if let unknown = parsed.unknownPaths(knownFields: reader.recordedFields()).first {
            throw CommandFailure(unknown.description)
        }
        let output = Output(style: colors.style())
        var text = EventText(reader: reader, style: output.style)
        let progress = ReadProgress(reading: file)
        var count = 0
        var last: ConditionStep?
        for step in reader.steps(where: parsed, source: sourceID).reportingProgress(progress.update) {
            count += 1
            switch answer {
            case .count: continue
            case .last: last = step
            case .first, .all: write(step, to: output, text: &text)
            }
            if answer == .first { break }
        }
        progress.finish()
        if let last { write(last, to: output, text: &text) }
        if answer == .count {
            if json {
                output.line(CommandJSON.object { $0.field("count", count) })
            } else {
                output.line(String(count))
            }
        }
        output.flush()
        JournalOpening.warnAboutDamage(in: reader)
        guard count > 0 else {
            if answer != .count { Output.error("no step where \(VisibleText.escaped(condition))") }
            throw ExitCode(ExitStatus.no)
        }
    }

    private func write(_ step: ConditionStep, to output: Output, text: inout EventText) {
        Self.write(step, json: json, to: output, text: &text)
    }

    /// A step where a condition holds, as `query` and `watch` print it: its event's line (a change
    /// with its move), or its JSON object with `old`.
    static func write(_ step: ConditionStep, json: Bool, to output: Output, text: inout EventText) {
        let old = ValueBefore(of: step.event, in: step.before)
        if json {
            output.line(EventText.json(step.event, old: old))
        } else {
            output.line(text.line(step.event, old: old))
        }
    }
}
