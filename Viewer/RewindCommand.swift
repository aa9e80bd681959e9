import ArgumentParser
import Rewind

/// `rewind`: records of unidirectional view models, on the command line and in the terminal.
@main
struct RewindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewind",
        abstract: "Step through, diff and replay recordings of Cycler, Ricemill, Unio and Flask view models.",
        discussion: """
            Attach a logger to a view model to record its dispatches, mutations, state changes and \
            activities; then open the recording here.
            """,
        version: RewindVersion.current
    )
}
