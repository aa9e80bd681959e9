import Foundation
import ArgumentParser
import Logging
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
              rewind log session.rewind --kind log --level warning
              rewind log Fixtures/todo.rewind --json | jq -c 'select(.kind == "change")'
            """
    )

    @OptionGroup var journal: JournalArgument
    var file: String { journal.file }
    @Option(help: "Only this source: a label, Type#id, a type name or an id.") var source: String?
    @Option(help: "Only these kinds, comma-separated, as rows say them (dispatch, mutate, change, mutated, finished, activity, …) or as JSON names them (willDispatch, …).") var kind: String?
    @Option(help: "Only the app's log messages at this level or above (trace, debug, info, notice, warning, error, critical); other kinds as --kind chooses.")
    var level: String?
    @Option(help: "Only events whose row as shown, name, source or description contains this text, or a change whose move does when the text has the arrow (`count: 0 → -1`), as the viewer's / finds it; ~REGEX for a regular expression.") var grep: String?
    @Option(help: "From this step on.") var from: UInt64?
    @Option(help: "Up to this step.") var to: UInt64?
    @Option(help: "Fit each line to N columns: values cut, and on narrow lines the call site left out and long source names shortened (default: the terminal's width on a terminal, whole lines in a pipe).") var width: Int?
    @Flag(help: "Write JSON Lines: one object per event.") var json = false
    @OptionGroup var colors: ColorOptions

    func run() throws {
        // --grep finds what the viewer's `/` finds (``SearchQuery/matchesRow(_:old:)``): the row as
        // it is shown, its name, source and description, and a change's move (`count: 0 → -1`)
        // when the query has the arrow.
        let search: SearchQuery?
        do { search = try grep.map(SearchQuery.init) } catch { throw CommandFailure(error.description) }
        let reader = try JournalOpening.open(file)
        // `log` holds little of a block once written, and a first search reads every block: freed
        // memory kept for the next block costs little and saves faulting it in again.
        MemoryTuning.keepFreedMemory()
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
        let lowest = try level.map(Self.level)
        let output = Output(style: colors.style())
        // On a terminal each line fits its width (80 when unknown), so it does not wrap.
        let lineWidth = width ?? (isatty(STDOUT_FILENO) == 1 ? TerminalSession.size()?.width ?? 80 : nil)
        let layout = EventText.Layout(reader: reader, style: output.style, lineWidth: lineWidth)
        let valueLimit = lineWidth.map { max(8, $0 - EventText(layout: layout).columnsWidth) } ?? .max
        let progress = ReadProgress(reading: file)
        // The options are read once: an argument's property wrapper costs a look-up per read.
        let (json, grep) = (json, grep)
        // A dump says why it was made: on standard error first, and on its trigger's step in JSON.
        let dump = reader.header.dump
        if let dump { Output.error("note: \(VisibleText.escaped(reader.path)) is a flight recorder's dump: \(VisibleText.escaped(dump.summary))") }
        let lines = LogLines(layout: layout, json: json, valueLimit: valueLimit, highlighting: grep, dump: dump)
        // Changes read `quantity: 0 → -1`: every step of the sources shown is read (kinds are
        // left out of the reading) and their states walk along, blocks written on every core. A
        // search for a text every match holds passes over the blocks that cannot hold it.
        let kinds = filter.kinds
        var everyStep = filter
        everyStep.kinds = nil
        // The app's messages alone need no state: only loggers' blocks are read, and with --level
        // only those whose summary may hold a message at that level or above.
        var passesOver: (@Sendable (Int) -> Bool)?
        if kinds == [.log] {
            let loggers = reader.loggerIDs
            everyStep.sourceIDs = everyStep.sourceIDs?.intersection(loggers) ?? loggers
            if let lowest {
                let condition = Condition.logMessages(from: lowest)
                passesOver = { !reader.mayHold(condition, inBlock: $0) }
            }
        }
        let walk = WalkedEvents(
            reader: reader, matching: everyStep, start: .rebuilt, passingOver: passesOver, makePart: lines.makePart,
            add: { record, old, _, part in
                if let kinds, !kinds.contains(record.kind) { return }
                if let lowest, let level = record.logLevel, level < lowest { return }
                if search?.matchesRow(record, old: { old }) ?? true { lines.add(record, old: old, to: &part) }
            }
        )
        walk.forEachPart(progress: progress.update) { part in
            output.bytes(part.bytes)
            lines.buffers.giveBack(&part.bytes)
        }
        progress.finish()
        output.flush()
        if grep != nil { reader.saveSearchIndex() }
        JournalOpening.warnAboutDamage(in: reader)
    }

    /// How `log` writes its lines — aligned text or JSON — into a part's bytes, on the threads
    /// that write a journal's blocks at once.
    struct LogLines: Sendable {
        let layout: EventText.Layout
        let json: Bool
        let valueLimit: Int
        let highlighting: String?
        let dump: JournalHeader.Dump?
        /// Parts' buffers, handed back once written for the next block's part.
        let buffers = ReusedBuffers()

        /// Lines as bytes, each ending in a newline, with the text its own memo of columns.
        struct Part: Sendable {
            var bytes: [UInt8] = []
            fileprivate var line: [UInt8] = []
            fileprivate var text: EventText
        }

        @Sendable func makePart() -> Part {
            Part(bytes: buffers.take(), text: EventText(layout: layout))
        }

        /// Adds one event's line (`old`: the value its change's path held before it), from its
        /// record read in its block.
        func add(_ event: some LineEvent, old: ValueBefore, to part: inout Part) {
            if json {
                EventText.writeJSONLine(event, old: old, dump: dump.flatMap { $0.step == event.sequence ? $0 : nil }, to: &part.bytes)
            } else {
                part.line.removeAll(keepingCapacity: true)
                part.text.write(event, old: old, valueLimit: valueLimit, highlighting: highlighting, to: &part.line)
                Output.appendLine(utf8: part.line, to: &part.bytes)
            }
        }
    }

    /// The level `--level` names.
    static func level(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(named: text) else { throw CommandFailure(Logger.Level.unknown(text)) }
        return level
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
