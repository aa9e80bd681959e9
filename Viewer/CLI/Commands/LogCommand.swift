import Foundation
import ArgumentParser
@_spi(Tooling) import Rewind
import RewindViewer

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "List events, one aligned line each (or JSON Lines), with filters.",
        discussion: """
            Kinds: \(Event.Category.namesForHelp).
            Examples:
              rewind log Fixtures/todo.rewind --kind didMutate,activity
              rewind log Fixtures/todo.rewind --json | jq -c 'select(.kind == "change")'
            """
    )

    @OptionGroup var journal: JournalArgument
    var file: String { journal.file }
    @Option(help: "Only this source: a label, Type#id, a type name or an id.") var source: String?
    @Option(help: "Only these kinds, comma-separated, as rows say them (dispatch, mutate, change, mutated, finished, activity, …) or as JSON names them (willDispatch, …).") var kind: String?
    @Option(help: "Only events whose row (as shown: a change's move `count: 0 → -1` too), name, source or description contains this text, as the viewer's / finds it; ~REGEX for a regular expression.") var grep: String?
    @Option(help: "From this step on.") var from: UInt64?
    @Option(help: "Up to this step.") var to: UInt64?
    @Option(help: "Fit each line to N columns: values cut, and on narrow lines the call site left out and long source names shortened (default: the terminal's width on a terminal, whole lines in a pipe).") var width: Int?
    @Flag(help: "Write JSON Lines: one object per event.") var json = false
    @OptionGroup var colors: ColorOptions

    func run() throws {
        // --grep finds what the viewer's `/` finds: the row as it is shown (a change's move
        // `count: 0 → -1` included), its name, source and description — one searchable text.
        var search: SearchQuery?
        if let grep {
            do { search = try SearchQuery(grep) } catch { throw CommandFailure(error.description) }
        }
        let reader = try JournalOpening.open(file)
        // Blocks are skipped by the text every match must hold, where there is one.
        var filter = EventFilter()
        filter.blockText = search?.requiredText
        if let source { filter.sourceIDs = [try JournalOpening.source(source, in: reader).instanceID] }
        if let kind { filter.kinds = try Self.kinds(kind) }
        if from != nil || to != nil {
            guard (from ?? 0) <= (to ?? .max) else { throw CommandFailure("--from \(from!) is after --to \(to!)") }
            filter.sequences = (from ?? 0)...(to ?? .max)
        }
        if let width, width < 1 { throw CommandFailure("--width must be at least 1") }
        let output = Output(style: colors.style())
        // On a terminal each line fits its width (80 when unknown), so it does not wrap.
        let lineWidth = width ?? (isatty(STDOUT_FILENO) == 1 ? TerminalSession.size()?.width ?? 80 : nil)
        let text = EventText(reader: reader, style: output.style, lineWidth: lineWidth)
        let valueLimit = lineWidth.map { max(8, $0 - text.columnsWidth) } ?? .max
        // Changes read `quantity: 0 → -1`: without a text search every step of the sources shown is
        // read (kinds are left out here) so their states walk along; a search rebuilds them.
        let kinds = filter.kinds
        var stepsRead = filter
        let readsEveryStep = filter.blockText == nil
        if readsEveryStep { stepsRead.kinds = nil }
        var oldValues = OldValues(reader: reader, seesEveryStep: readsEveryStep)
        let progress = ReadProgress(reading: file)
        // The options are read once: an argument's property wrapper costs a look-up per read.
        let (json, grep) = (json, grep)
        var line: [UInt8] = []
        // A dump says why it was made: on standard error first, and on its trigger's step in JSON.
        let dump = reader.header.dump
        if let dump { Output.error("note: \(VisibleText.escaped(reader.path)) is a flight recorder's dump: \(VisibleText.escaped(dump.summary))") }
        for event in reader.events(matching: stepsRead).reportingProgress(progress.update) {
            // Where blocks are skipped, a state is rebuilt only for an event that may match
            // (its move needs the value before it); where every step is read, states walk along.
            if !readsEveryStep, let search, !search.matches(event), !search.mayMatchMove(event) { continue }
            let old = oldValues.before(event)
            if let kinds, !kinds.contains(event.kind) { continue }
            if let search, !search.matches(event, old: old) { continue }
            if json {
                output.line(EventText.json(event, old: old, dump: dump.flatMap { $0.step == event.sequence ? $0 : nil }))
            } else {
                line.removeAll(keepingCapacity: true)
                text.write(event, old: old, valueLimit: valueLimit, highlighting: grep, to: &line)
                output.line(utf8: line)
            }
        }
        progress.finish()
        output.flush()
        if grep != nil { reader.saveSearchIndex() }
        JournalOpening.warnAboutDamage(in: reader)
    }

    static func kinds(_ text: String) throws -> Set<Event.Category> {
        var kinds = Set<Event.Category>()
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let kind = Event.Category(named: name) else {
                throw CommandFailure("unknown kind '\(VisibleText.escaped(name))'; kinds are: \(Event.Category.namesForHelp)")
            }
            kinds.insert(kind)
        }
        return kinds
    }
}
