import Foundation
import Testing

/// Reads the Swift code blocks of one README section, so that a test can check that they appear in
/// a file the compiler builds: the README's examples cannot drift from code that compiles.
public enum ReadmeSection {
    static let readmePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md").path

    /// The ```swift blocks between `heading` and the next heading of the same level, as trimmed,
    /// non-empty lines with trailing `// …` comments removed.
    public static func swiftBlocks(under heading: String) throws -> [[String]] {
        let lines = try String(contentsOfFile: readmePath, encoding: .utf8).components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        let level = heading.prefix { $0 == "#" } + " "
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines[(start + 1)...] {
            if current == nil, line.hasPrefix(level) { break }
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

    /// Records a test issue for each Swift block under `heading` whose lines do not all appear,
    /// in order, in `file` (pass `#filePath`).
    public static func expectBlocks(under heading: String, appearIn file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let blocks = try swiftBlocks(under: heading)
        try #require(!blocks.isEmpty, "README has no Swift blocks under \(heading)", sourceLocation: sourceLocation)
        let lines = try trimmedLines(ofFile: file)
        for block in blocks where !contains(lines, block) {
            Issue.record("README block not found in \(file):\n\(block.joined(separator: "\n"))", sourceLocation: sourceLocation)
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
