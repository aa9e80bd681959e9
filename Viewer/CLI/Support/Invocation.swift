import Foundation

/// How to run this `rewind` again, for the commands a hint prints: `rewind`, or `swift run rewind`
/// when this binary is a package's build product (`.build/…/rewind`, or another scratch folder
/// named `.build-something`), where `rewind` alone is not on the PATH.
enum Invocation {
    static let command: String = {
        let executable = CommandLine.arguments.first ?? "rewind"
        let isBuildProduct = executable.split(separator: "/").contains { $0 == ".build" || $0.hasPrefix(".build-") || $0.hasPrefix(".build_") }
        return isBuildProduct ? "swift run rewind" : "rewind"
    }()
}
