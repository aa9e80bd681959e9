import Foundation
import Testing

/// Reads the Swift code blocks of the README and of the documentation catalog's articles, so that a
/// test can check that they appear in a file the compiler builds: the examples cannot drift from
/// code that compiles.
public enum DocumentedCode {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let readmePath = repositoryRoot.appendingPathComponent("README.md").path

    /// The path of the article `name` of the `Rewind` documentation catalog (`AttachingALogger`).
    public static func articlePath(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("Sources/Rewind/Rewind.docc/\(name).md").path
    }

    /// The text of the article `name`, for tests that check what it shows.
    public static func article(_ name: String) throws -> String {
        try String(contentsOfFile: articlePath(name), encoding: .utf8)
    }

    /// The ```swift blocks of the README between `heading` and the next heading of the same level,
    /// as trimmed, non-empty lines with trailing `// …` comments removed.
    public static func swiftBlocks(under heading: String) throws -> [[String]] {
        let lines = try String(contentsOfFile: readmePath, encoding: .utf8).components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        let level = heading.prefix { $0 == "#" } + " "
        return swiftBlocks(in: lines[(start + 1)...].prefix { !$0.hasPrefix(level) })
    }

    /// Every ```swift block of the article `name`, as ``swiftBlocks(under:)`` gives them.
    public static func swiftBlocks(ofArticle name: String) throws -> [[String]] {
        swiftBlocks(in: try article(name).components(separatedBy: "\n")[...])
    }

    static func swiftBlocks(in lines: ArraySlice<String>) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines {
            if line.hasPrefix("```swift") { current = []; continue }
            if line.hasPrefix("```"), let block = current {
                blocks.append(block)
                current = nil
                continue
            }
            if current != nil, let kept = normalized(line) { current!.append(kept) }
        }
        return blocks
    }

    /// Records a test issue for each Swift block of the article `name` whose lines do not all
    /// appear, in order, in `file` (pass `#filePath`).
    public static func expectBlocks(ofArticle name: String, appearIn file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expect(try swiftBlocks(ofArticle: name), from: "the article \(name)", appearIn: file, sourceLocation: sourceLocation)
    }

    /// Records a test issue for each Swift block under `heading` whose lines do not all appear,
    /// in order, in `file` (pass `#filePath`).
    public static func expectBlocks(under heading: String, appearIn file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expect(try swiftBlocks(under: heading), from: "README under \(heading)", appearIn: file, sourceLocation: sourceLocation)
    }

    static func expect(_ blocks: [[String]], from document: String, appearIn file: String, sourceLocation: SourceLocation) throws {
        try #require(!blocks.isEmpty, "\(document) has no Swift blocks", sourceLocation: sourceLocation)
        let lines = try trimmedLines(ofFile: file)
        for block in blocks where !contains(lines, block) {
            Issue.record("block of \(document) not found in \(file):\n\(block.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
    }

    public static func trimmedLines(ofFile path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n").compactMap(normalized)
    }

    /// Whether every line of `block` appears in `lines`, in the same order.
    public static func contains(_ lines: [String], _ block: [String]) -> Bool {
        var remaining = block[...]
        for line in lines where line == remaining.first {
            remaining = remaining.dropFirst()
            if remaining.isEmpty { return true }
        }
        return remaining.isEmpty
    }

    static func normalized(_ line: String) -> String? {
        var text = line
        if let comment = text.range(of: "  //") { text = String(text[..<comment.lowerBound]) }
        text = text.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }
}
