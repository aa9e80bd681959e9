import Foundation
import Testing

/// The `Rewind` module's folders depend on each other in one direction: support, then state, then
/// recording, then the journal, then what reads it. A type a folder uses from a folder above it
/// is a cycle in waiting; those there are today are listed, and a new one fails this test.
@Suite("Folder dependencies")
struct FolderDependencyTests {
    static let sources = LayoutTests.root.appendingPathComponent("Sources/Rewind")

    /// The folders, lowest first: each may use the ones before it.
    static let layers = ["Support", "State", "Recording", "Journal", "Query", "Replay", "Export", "Presentation"]

    /// Uses of a higher folder that are there today (`user → used: type`), each a cycle to undo.
    /// Empty since the house was put in order: nothing may join it.
    static let known: Set<String> = []

    /// Top-level types by the folder (first level) that declares them.
    static func declarations(_ files: [(folder: String, text: String)]) -> [String: String] {
        var owners: [String: String] = [:]
        for file in files {
            for match in file.text.matches(of: /(?m)^(?:@\w+(?:\([^)]*\))? )*(?:public |package |internal |final |indirect )*(?:struct|enum|class|protocol|actor|typealias) (\w+)/) {
                owners[String(match.output.1)] = file.folder
            }
        }
        return owners
    }

    @Test("no folder uses a type of a folder above it, beyond the known ones; and the check can fail")
    func noNewCycles() throws {
        var files: [(folder: String, text: String)] = []
        for case let path as String in try #require(FileManager.default.enumerator(atPath: Self.sources.path)) where path.hasSuffix(".swift") {
            guard let folder = path.split(separator: "/").first.map(String.init), Self.layers.contains(folder) else { continue }
            let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
            files.append((folder, text))
        }
        let owners = Self.declarations(files)
        var found = Set<String>()
        for file in files {
            // Code only: comments and doc comments name types freely.
            let code = file.text.split(separator: "\n").map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }.joined(separator: "\n")
            // Simple word boundaries: by Unicode's rules `VisibleText.escaped` is one word.
            for match in code.matches(of: /\b[A-Z]\w+\b/.wordBoundaryKind(.simple)) {
                let name = String(match.output)
                guard let owner = owners[name], owner != file.folder,
                      Self.layers.firstIndex(of: owner)! > Self.layers.firstIndex(of: file.folder)! else { continue }
                found.insert("\(file.folder) → \(owner): \(name)")
            }
        }
        #expect(found.subtracting(Self.known).isEmpty, "new uses of a folder above: \(found.subtracting(Self.known).sorted())")
        #expect(Self.known.subtracting(found).isEmpty, "gone, and to be taken off the list: \(Self.known.subtracting(found).sorted())")
        // The check itself: a lower folder that names a higher folder's type is seen.
        let probe = Self.declarations([("Query", "public struct Condition {}"), ("State", "struct StateValue {}")])
        #expect(probe["Condition"] == "Query" && probe["StateValue"] == "State")
    }
}
