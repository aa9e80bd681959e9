import ArgumentParser
import Rewind

struct BlameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blame",
        abstract: "Every step that changed a key path, with old → new and the event and call site responsible.",
        discussion: "Example:  rewind blame Fixtures/todo.rewind 'items[1].done'"
    )

    @Argument(help: "The journal (.rewind file).", completion: .file(extensions: ["rewind"])) var file: String
    @Argument(help: "The key path, e.g. items[3].done or user.name.") var keyPath: String
    @Option(help: "Only this source.") var source: String?
    @OptionGroup var colors: ColorOptions

    func run() throws {
        let path: StatePath
        do { path = try StatePath(parsing: keyPath) } catch { throw CommandFailure(error.description) }
        let reader = try JournalOpening.open(file)
        let chosen = try source.map { try JournalOpening.source($0, in: reader) }
        let output = Output(style: colors.style())
        let text = EventText(reader: reader, style: output.style)
        // Only the changes that touch the path are applied, not whole states rebuilt.
        var walker = PathWalker(path: path)
        var found = 0
        let progress = ReadProgress(reading: file)
        for event in reader.events().reportingProgress(progress.update) {
            guard let (old, new) = walker.advance(event) else { continue }
            if let chosen, event.source.instanceID != chosen.instanceID { continue }
            guard old != new else { continue }
            found += 1
            let change = "\(old?.compactDescription(limit: 40) ?? "(absent)") → \(new?.compactDescription(limit: 40) ?? "(absent)")"
            output.line([
                VisibleText.padded("#\(event.sequence)", to: 6), text.relativeTime(event.wallNanoseconds),
                VisibleText.padded(VisibleText.escaped(event.source.description), to: text.sourceWidth),
                VisibleText.padded(event.kind.rawValue, to: 10), VisibleText.padded(VisibleText.escaped(event.name), to: 16),
                VisibleText.padded(change, to: 30), VisibleText.escaped(event.callSite),
            ].joined(separator: " "))
        }
        if found == 0 { output.line("no step changed \(path)") }
        progress.finish()
        output.flush()
        JournalOpening.warnAboutDamage(in: reader)
    }
}
