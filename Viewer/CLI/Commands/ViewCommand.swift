import ArgumentParser
import Foundation
import Rewind
import RewindViewer

struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "The full-screen viewer: step through the timeline, the state and the diff (the default command).",
        discussion: """
            rewind FILE is the same as rewind view FILE. Press ? in the viewer for every key.
            Example:  rewind Fixtures/todo.rewind
            """
    )

    @Argument(help: "The journal (.rewind file).") var file: String?

    func run() throws {
        guard let file else {
            print(RewindCommand.helpMessage())
            return
        }
        try Self.open(file)
    }

    /// Runs the viewer on a journal until the user quits.
    static func open(_ file: String) throws {
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1, let size = TerminalSession.size() else {
            throw CommandFailure("the viewer needs a terminal; in a pipe or a script use 'rewind log \(file)' or 'rewind show \(file) --at STEP'")
        }
        let reader = try JournalOpening.open(file, warnAboutDamage: false)
        let timeline = Timeline(reader: reader)
        var model = ViewerModel(width: size.width, height: size.height, colors: TerminalStyle.automatic(for: STDOUT_FILENO).usesColor, title: file)
        let session = try TerminalSession()
        defer { session.restore() }
        var previous: ScreenBuffer?
        while !model.quitting && !terminationRequested.load(ordering: .relaxed) {
            if terminalResized.exchange(false, ordering: .relaxed), let size = TerminalSession.size() {
                model.resize(width: size.width, height: size.height, timeline: timeline)
                previous = nil
            }
            let frame = ViewerView.render(model, timeline: timeline)
            TerminalSession.write(frame.changes(from: previous, colors: model.colors))
            previous = frame
            let keys = session.keys(timeout: model.following ? 250 : 1000)
            for key in keys { model.handle(key, timeline: timeline) }
            if keys.isEmpty { model.tick(timeline: timeline) }
        }
    }
}
