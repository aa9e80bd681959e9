import Foundation
import Testing
import TestSupport

/// The README's layout table and the `Rewind` module's folders tell the same story.
@Suite("Layout")
struct LayoutTests {
    static let root = Repository.root

    @Test("every folder of Sources/Rewind with code has a row in the README's layout table (or is named in its parent's row), and every row's folder exists")
    func tableMatchesTheTree() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `Sources/Rewind/") }
        let table: [String: String] = Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            guard let path = row.firstMatch(of: /^\| `([^`]+)`/)?.output.1 else { return nil }
            return (String(path), String(row))
        })
        for path in table.keys {
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path, isDirectory: &isDirectory) && isDirectory.boolValue,
                    "the layout table names \(path), which is not a folder")
        }
        let sources = Self.root.appendingPathComponent("Sources/Rewind")
        let folders = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.map { ($0 as NSString).deletingLastPathComponent }.filter { !$0.isEmpty }
        for folder in Set(folders) {
            let path = "Sources/Rewind/" + folder
            let parent = (path as NSString).deletingLastPathComponent
            let named = table[path] != nil || table[parent]?.contains("`\((folder as NSString).lastPathComponent)/`") == true
            #expect(named, "\(path) has code and no row in the README's layout table")
        }
    }

    /// Test folders and the source folders they test, by target.
    static let mirrors: [(tests: String, sources: String)] = [
        ("Tests/RewindTests", "Sources/Rewind"), ("Tests/JournalTests", "Sources/Rewind"),
        ("Tests/ViewerTests", "Viewer/Core"), ("Tests/CommandLineTests", "Viewer/CLI"),
    ]

    @Test("the test folders mirror the source folders: a test in Tests/JournalTests/Journal/Fold tests Sources/Rewind/Journal/Fold")
    func testFoldersMirrorSourceFolders() throws {
        for (tests, sources) in Self.mirrors {
            let root = Self.root.appendingPathComponent(tests).path
            let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            for folder in Set(files.map { ($0 as NSString).deletingLastPathComponent }) where !folder.isEmpty && folder != "House" {
                var isDirectory: ObjCBool = false
                let mirrored = Self.root.appendingPathComponent(sources + "/" + folder).path
                #expect(FileManager.default.fileExists(atPath: mirrored, isDirectory: &isDirectory) && isDirectory.boolValue,
                        "\(tests)/\(folder) has tests, but \(sources)/\(folder) is not a source folder")
            }
        }
    }
}
