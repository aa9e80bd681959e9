import Foundation

/// How to run this `rewind` again, for the commands a hint prints: `rewind`, or `swift run rewind`
/// when this binary is a package's build product (`.build/…/rewind`), where `rewind` alone is not
/// on the PATH.
enum Invocation {
    static let command: String = {
        let executable = CommandLine.arguments.first ?? "rewind"
        return executable.contains("/.build/") ? "swift run rewind" : "rewind"
    }()
}
