import Foundation
import Testing

/// Text a test's output must equal, kept in the repository beside the test (`Golden/NAME.txt`).
/// With `REWIND_UPDATE_GOLDEN=1` in the environment a run writes the files instead, for a person
/// to review as a diff after an intended change of output.
public enum GoldenFile {
    /// Whether this run rewrites golden files rather than comparing with them.
    public static var isUpdating: Bool { ProcessInfo.processInfo.environment["REWIND_UPDATE_GOLDEN"] == "1" }

    /// Compares `actual` with the golden file at `path` (or writes it there when updating); the
    /// message names the file and `regenerate`, the command that writes it again.
    public static func expect(_ actual: String, matches path: String, regenerate: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if isUpdating {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(actual == expected, "differs from Golden/\(name) (regenerate with REWIND_UPDATE_GOLDEN=1 \(regenerate))", sourceLocation: sourceLocation)
    }
}
