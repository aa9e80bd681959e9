import Foundation

/// The repository's files as tests reach them, by name, wherever the tests run from: one place
/// that knows where this file sits in the tree.
public enum Repository {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file or folder by its path from the root: `Repository.path("docs/JOURNAL_FORMAT.md")`.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// A fixture journal by name: `Repository.fixture("todo")` is `Fixtures/todo.rewind`.
    public static func fixture(_ name: String) -> String {
        path("Fixtures/\(name).rewind")
    }
}
