import ArgumentParser
@_spi(Tooling) import Rewind

struct BlameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blame",
        abstract: "Every step that changed a key path, with old → new and the event and call site responsible.",
        discussion: """
            Examples:  rewind blame Fixtures/todo.rewind 'items[id: 2].done'   (the item whose id is 2, wherever it is)
                       rewind blame Fixtures/todo.rewind 'items[1].done'       (whatever item is second)
                       rewind blame Fixtures/todo.rewind 'items[id: 2].done' --why   (and what led to each write)
            Followed by position, a step that moves another item into that position (an insertion \
            or removal before it) is not a change of the value, and is not listed; follow one item \
            by its id, as the viewer does, to see all of its changes. With --why, each write is \
            followed by the commit it was made in and the dispatches that led to it (their recorded \
            parent links, also for a commit made later through a dispatch's context), nearest first.
            """
    )

    @OptionGroup var journal: JournalArgument
    var file: String { journal.file }
    @Argument(help: "The key path, e.g. items[id: 3].done, items[3].done or user.name.") var keyPath: String
    @Option(help: "Only this source.") var source: String?
    @Flag(help: "Show what led to each write: its commit and the chain of dispatches.") var why = false
    @Flag(help: "Write JSON Lines: one object per write (with its chain, with --why).") var json = false
    @OptionGroup var colors: ColorOptions

    func run() throws {
        let path: FollowedPath
        do { path = try FollowedPath(parsing: keyPath) } catch { throw CommandFailure(error.description) }
        let reader = try JournalOpening.open(file)
        let chosen = try source.map { try JournalOpening.source($0, in: reader) }
        // A path no unit has is a mistake to name, as query names it, not "no step changed it".
        if let unknown = Condition.unknownPath(path, knownFields: reader.recordedFields()) { throw CommandFailure(unknown.description) }
        let output = Output(style: colors.style())
        // Blame's columns are not coloured.
        var text = EventText(reader: reader, style: TerminalStyle(usesColor: false))
        // Only the changes that touch the path are applied, not whole states rebuilt.
        var walker = PathWalker(path: path)
        var commits = OpenCommits()
        var dispatches = PassedDispatches()
        var links = LinkTexts()
        var found = 0, moves = 0
        let progress = ReadProgress(reading: file)
        // The options are read once: an argument's property wrapper costs a look-up per read.
        let (why, json) = (why, json)
        var line: [UInt8] = []
        // Every step is walked, and few are printed: records are read in their blocks, and an
        // event is made for a write found (and, with --why, for every step: its commits and
        // dispatches are followed).
        for record in reader.records().reportingProgress(progress.update) {
            // Which commit each event belongs to, and the dispatches passed, matter only for --why.
            let eventForWhy = why ? record.event : nil
            let commit = eventForWhy.flatMap { commits.take($0) }
            if let eventForWhy, eventForWhy.kind == .willDispatch { dispatches.pass(eventForWhy) }
            guard let verdict = walker.verdict(record) else { continue }
            if let chosen, record.sourceID != chosen.instanceID { continue }
            guard case .changed(let old, let new) = verdict else {
                moves += 1
                continue
            }
            found += 1
            if json || why {
                let event = eventForWhy ?? record.event
                let chain = why ? (commit.map { [$0] } ?? []) + JournalReader.causes(of: event) { dispatches[$0] ?? ((try? reader.event(sequence: $0)) ?? nil) } : []
                if json {
                    output.line(Self.json(event, path: path, old: old, new: new, chain: why ? chain.map { links.json(of: $0) } : nil))
                    continue
                }
                Self.writeLine(event, old: old, new: new, text: &text, to: &line)
                output.line(utf8: line)
                for cause in chain { output.line(terminalSafeUTF8: links.line(of: cause, causing: event)) }
                continue
            }
            // A write's line is written from its record: no event made.
            Self.writeLine(record, old: old, new: new, text: &text, to: &line)
            output.line(utf8: line)
        }
        if found == 0 && !json { output.line("no step changed \(path)") }
        if moves > 0 && !json {
            output.line("(\(moves) step\(moves == 1 ? "" : "s") moved another element to \(path) by an insertion or removal before it; follow one element with [id: …] to see its own changes)")
        }
        progress.finish()
        output.flush()
        JournalOpening.warnAboutDamage(in: reader)
        // "No step changed it" is the answer "no", as query's "no step where": exit 1.
        if found == 0 { throw ExitCode(ExitStatus.no) }
    }

    /// One write's line, in place of `line`'s bytes: its step, time, source, kind and name, the
    /// move (`0 → 1`, `(absent)` for a value not there), and its call site.
    private static func writeLine(_ event: some LineEvent, old: StateValue?, new: StateValue?, text: inout EventText, to line: inout [UInt8]) {
        line.removeAll(keepingCapacity: true)
        line.append(UInt8(ascii: "#"))
        DecimalText.append(magnitude: event.sequence, to: &line)
        // The step's number is ASCII: a byte a character.
        if line.count < 6 { line += repeatElement(UInt8(ascii: " "), count: 6 - line.count) }
        line.append(UInt8(ascii: " "))
        text.appendRelativeTimeColumn(event.wallNanoseconds, to: &line)
        line.append(UInt8(ascii: " "))
        text.appendSourceColumn(event, to: &line)
        line.append(UInt8(ascii: " "))
        text.appendKindColumn(event.kind, to: &line)
        line.append(UInt8(ascii: " "))
        text.appendNameColumn(event, to: &line)
        line.append(UInt8(ascii: " "))
        // The move is padded to 30 characters. The arrow is not ASCII: sides in ASCII are counted
        // a byte a character and the arrow as 3; any other move is counted whole.
        let moveStart = line.count
        var asciiWidth: Int? = 3
        for (index, value) in [old, new].enumerated() {
            if index == 1 { line += " → ".utf8 }
            let start = line.count
            if let value { value.writeCompact(limit: 40, to: &line) } else { line += "(absent)".utf8 }
            let side = line[start...]
            asciiWidth = side.allSatisfy(VisibleText.isOneCharacter) ? asciiWidth.map { $0 + side.count } : nil
        }
        let moveWidth = asciiWidth ?? VisibleText.characterCount(utf8: line[moveStart...])
        if moveWidth < 30 { line += repeatElement(UInt8(ascii: " "), count: 30 - moveWidth) }
        line.append(UInt8(ascii: " "))
        // The call site ends the line: its column without the padding.
        let callSiteStart = line.count
        text.appendCallSiteColumn(event, to: &line)
        while line.count > callSiteStart, line.last == UInt8(ascii: " ") { line.removeLast() }
    }

    /// One write as JSON: the step, the path as followed, old and new (left out when absent), and
    /// with --why the chain that led to it (its links' JSON, ``LinkTexts/json(of:)``).
    private static func json(_ event: RecordedEvent, path: FollowedPath, old: StateValue?, new: StateValue?, chain: [String]?) -> JSONText.Object {
        CommandJSON.object { object in
            EventColumns.add(EventColumns.blame + EventColumns.callSite, of: event, to: &object)
            object.field("path", path.description)
            if let old { object.field("old", old) }
            if let new { object.field("new", new) }
            if let chain { object.raw("why", "[" + chain.joined(separator: ",") + "]") }
        }
    }
}

/// The links of `--why`'s chains as written, by step: a dispatch in a chain of reactions is a
/// link of each of the next 64 writes, and is described once (8,000 chained writes made half a
/// million links). The most recent ``capacity`` are kept.
struct LinkTexts {
    static let capacity = 100_000
    private var lines: [LinkKey: [UInt8]] = [:]
    private var objects: [UInt64: String] = [:]

    /// A link's line names its source only when it is not the write's.
    private struct LinkKey: Hashable {
        let sequence: UInt64
        let sameSource: Bool
    }

    /// `       ← #27 dispatch setStep 3  DemoSession.swift:47`: `cause` as a link of `effect`'s chain.
    /// Its UTF-8 bytes, made safe for a terminal once.
    mutating func line(of cause: RecordedEvent, causing effect: RecordedEvent) -> [UInt8] {
        let key = LinkKey(sequence: cause.sequence, sameSource: cause.source.instanceID == effect.source.instanceID)
        if let known = lines[key] { return known }
        if lines.count >= Self.capacity { lines.removeAll(keepingCapacity: true) }
        let text = Array(VisibleText.terminalSafe("       ← " + cause.causeText(of: effect)).utf8)
        lines[key] = text
        return text
    }

    /// `cause` as a link of `--json`'s `why`: its relation (commit or dispatch), step, source,
    /// kind, name, input and call site.
    mutating func json(of cause: RecordedEvent) -> String {
        if let known = objects[cause.sequence] { return known }
        if objects.count >= Self.capacity { objects.removeAll(keepingCapacity: true) }
        let text = JSONText.object { link in
            link.field("relation", cause.kind == .willMutate ? "commit" : "dispatch")
            EventColumns.add(EventColumns.blame, of: cause, to: &link)
            if let value = cause.value { link.field("input", value) }
            EventColumns.add(EventColumns.callSite, of: cause, to: &link)
        }
        objects[cause.sequence] = text
        return text
    }
}

/// The commits still open per source, as events go by: which commit a change was made in, and
/// which commit a `didMutate` ended.
struct OpenCommits {
    private var open: [UInt64: [RecordedEvent]] = [:]

    /// Takes the next event; returns the commit it belongs to (its `willMutate`), if any.
    mutating func take(_ event: RecordedEvent) -> RecordedEvent? {
        let source = event.source.instanceID
        switch event.kind {
        case .willMutate:
            open[source, default: []].append(event)
            return nil
        case .didMutate:
            return open[source]?.popLast()
        case .released:
            open[source] = nil
            return nil
        default:
            return open[source]?.last
        }
    }
}

/// The dispatches blame has read, by step, for `--why`: a chain's links are found here instead of
/// by decoding their block again for each write (which made a deep chain of nested dispatches
/// quadratic). The most recent ``capacity`` are kept; an older link is read from the journal.
struct PassedDispatches {
    static let capacity = 100_000
    private var events: [UInt64: RecordedEvent] = [:]
    private var order: [UInt64] = []

    mutating func pass(_ event: RecordedEvent) {
        events[event.sequence] = event
        order.append(event.sequence)
        if order.count > Self.capacity {
            let oldest = order.prefix(Self.capacity / 2)
            for sequence in oldest { events[sequence] = nil }
            order.removeFirst(oldest.count)
        }
    }

    subscript(sequence: UInt64) -> RecordedEvent? { events[sequence] }
}
