import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

/// `rewind`: records of unidirectional view models, on the command line and in the terminal.
struct RewindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewind",
        abstract: "Step through, diff and replay recordings of Cycler, Ricemill, Unio and Flask view models.",
        discussion: """
            Attach a JournalLogger to a view model to record its dispatches, mutations, state changes \
            and activities into a .rewind journal; then read it here.

            Try it:  rewind demo        (records a sample session and opens it in the viewer)
                     rewind FILE        (the viewer: ←/→ step, ? for every key, q to quit)
            Exit codes: 0 success; 1 the answer is "no" (damage found, differences found); 2 bad usage \
            or unreadable input.
            """,
        version: RewindVersion.current,
        subcommands: [
            ViewCommand.self, InfoCommand.self, LogCommand.self, ShowCommand.self, DiffCommand.self, BlameCommand.self, QueryCommand.self, WatchCommand.self,
            VerifyCommand.self, RecoverCommand.self, DumpCommand.self, ExportCommand.self, ReplayCommand.self, ShrinkCommand.self, DemoCommand.self,
            MCPCommand.self,
        ],
        defaultSubcommand: ViewCommand.self
    )
}

/// Runs the command with the project's exit codes: argument errors exit 2 (ArgumentParser's
/// default is 64), failures print one line on standard error, never a crash trace.
@main
enum Main {
    static func main() {
        // What goes through `print` (help, usage, the version) is checked as every command's own
        // output is: a failed write ends with exit 2 and one line, a reader gone away quietly.
        atexit {
            guard fflush(nil) != 0 else { return }
            let code = errno
            if code == EPIPE { _exit(ExitStatus.success) }
            Output.error("rewind: cannot write standard output: \(String(cString: strerror(code)))")
            _exit(ExitStatus.badInput)
        }
        do {
            var command = try RewindCommand.parseAsRoot()
            try command.run()
            Output.pendingEnding?.end()
        } catch let failure as CommandFailure {
            // An output that could not be written says so first: it may be why the command failed.
            if case .failed? = Output.pendingEnding { Output.pendingEnding?.end() }
            Output.error("rewind: \(failure.description)")
            exit(ExitStatus.badInput)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            let status = RewindCommand.exitCode(for: error)
            if status == .success {
                RewindCommand.exit(withError: error)  // --help and --version
            }
            // One line, as for every other bad input; the usage is one --help away.
            Output.error("rewind: \(RewindCommand.message(for: error)) (see 'rewind --help')")
            exit(status == .validationFailure ? ExitStatus.badInput : status.rawValue)
        }
    }
}
