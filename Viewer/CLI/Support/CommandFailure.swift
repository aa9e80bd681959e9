import ArgumentParser
@_spi(Tooling) import Rewind

/// The exit codes every command uses (PRODUCT.md): 0 success, 1 when the answer is "no" (damage
/// found, differences found), 2 for bad usage or unreadable input.
enum ExitStatus {
    static let success: Int32 = 0
    static let no: Int32 = 1
    static let badInput: Int32 = 2
    /// `rewind replay`: the recording cannot be replayed on this build, so `git bisect run` skips
    /// the commit.
    static let cannotReplay: Int32 = 125
}

/// A failure to report as one line on standard error, with exit code 2.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) {
        description = message
    }

    init(_ error: JournalReadError) {
        description = error.description
    }
}
