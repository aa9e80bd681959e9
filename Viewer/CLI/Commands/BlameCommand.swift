import ArgumentParser
import Rewind

struct BlameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blame",
        abstract: "Every step that changed a key path, with old → new and the event and call site responsible.",
        discussion: """
            Examples:  rewind blame Fixtures/todo.rewind 'items[id: 2].done'   (the item whose id is 2, wherever it is)
                       rewind blame Fixtures/todo.rewind 'items[1].done'       (whatever item is second)
            Followed by position, a step that moves another item into that position (an insertion             or removal before it) is not a change of the value, and is not listed; follow one item             by its id, as the viewer does, to see all of its changes.
            """
    )

    @Argument(help: "The journal (.rewind file).", completion: .file(extensions: ["rewind"])) var file: String
    @Argument(help: "The key path, e.g. items[id: 3].done, items[3].done or user.name.") var keyPath: String
    @Option(help: "Only this source.") var source: String?
    @OptionGroup var colors: ColorOptions

    func run() throws {
        let path: FollowedPath
        do { path = try FollowedPath(parsing: keyPath) } catch { throw CommandFailure(error.description) }
        let reader = try JournalOpening.open(file)
        let chosen = try source.map { try JournalOpening.source($0, in: reader) }
        let output = Output(style: colors.style())
        let text = EventText(reader: reader, style: output.style)
        // Only the changes that touch the path are applied, not whole states rebuilt.
        var walker = PathWalker(path: path)
        var found = 0, moves = 0
        let progress = ReadProgress(reading: file)
        for event in reader.events().reportingProgress(progress.update) {
            guard let (old, new) = walker.advance(event) else { continue }
            if let chosen, event.source.instanceID != chosen.instanceID { continue }
            guard old != new else { continue }
            if walker.lastStepMovedElement {
                moves += 1
                continue
            }
            found += 1
            let change = "\(old?.compactDescription(limit: 40) ?? "(absent)") → \(new?.compactDescription(limit: 40) ?? "(absent)")"
            output.line([
                VisibleText.padded("#\(event.sequence)", to: 6), text.relativeTime(event.wallNanoseconds),
                VisibleText.padded(VisibleText.escaped(event.source.description), to: text.sourceWidth),
                VisibleText.padded(event.kind.word, to: 9), VisibleText.padded(VisibleText.escaped(event.name), to: 16),
                VisibleText.padded(change, to: 30), VisibleText.escaped(event.callSite),
            ].joined(separator: " "))
        }
        if found == 0 { output.line("no step changed \(path)") }
        if moves > 0 {
            output.line("(\(moves) step\(moves == 1 ? "" : "s") moved another element to \(path) by an insertion or removal before it; follow one element with [id: …] to see its own changes)")
        }
        progress.finish()
        output.flush()
        JournalOpening.warnAboutDamage(in: reader)
    }
}
