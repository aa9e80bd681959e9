import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

/// `--color auto|always|never`, shared by every command that colours its output (as git and
/// ripgrep have it). `auto`, the default, colours a terminal unless `NO_COLOR` is set or `TERM` is
/// `dumb`; `always` colours pipes too (`rewind log F --color always | less -R`); `never` never does.
struct ColorOptions: ParsableArguments {
    enum Choice: String, CaseIterable, ExpressibleByArgument {
        case auto, always, never
    }

    @Option(name: .customLong("color"), help: "When to colour the output: auto (a terminal without NO_COLOR), always or never.")
    var choice: Choice = .auto

    /// The style for output written to `descriptor`.
    func style(for descriptor: Int32 = STDOUT_FILENO) -> TerminalStyle {
        switch choice {
        case .auto: TerminalStyle.automatic(for: descriptor)
        case .always: TerminalStyle(usesColor: true)
        case .never: .plain
        }
    }
}
