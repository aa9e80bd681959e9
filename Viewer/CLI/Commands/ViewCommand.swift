import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind
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

    @Argument(help: "The journal (.rewind file).", completion: .file(extensions: ["rewind"])) var file: String?
    @OptionGroup var colors: ColorOptions

    func run() throws {
        guard let file else {
            print(RewindCommand.helpMessage())
            return
        }
        try Self.open(file, colors: colors)
    }

    /// Runs the viewer on a journal until the user quits.
    static func open(_ file: String, colors: ColorOptions) throws {
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1, let size = TerminalSession.size() else {
            throw CommandFailure("the viewer needs a terminal; in a pipe or a script use 'rewind log \(file)' or 'rewind show \(file) --at STEP'")
        }
        let reader = try JournalOpening.open(file, warnAboutDamage: false)
        let program = ViewerProgram(reader: reader, title: file, width: size.width, height: size.height, colors: colors.style().usesColor)
        let session = try TerminalSession()
        defer { session.restore() }
        program.run(on: session)
        session.restore()
        // The blocks its searches read keep their filters for the next search.
        reader.saveSearchIndex()
        // Ended by a signal: the status says so, as a shell's does (and callers' cleanup runs).
        if let signal = session.endingSignal { throw ExitCode(128 + signal) }
    }
}
