import Foundation
import Testing

/// Checks that code a test compiles is the seed READMEs' code as written: the lines between
/// `// seed:begin` and `// seed:end` in a test file must appear, in order, in the seed file.
public enum SeedText {
    static let seedsDirectory = URL(fileURLWithPath: DocumentedCode.readmePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/seeds").path

    /// Records an issue for each marked region of `file` (pass `#filePath`) whose lines do not all
    /// appear, in order, in the seed file `seed` (for example `003_eca022b7923a1ddf.txt`). When the
    /// seeds are not beside the checkout (a clone elsewhere), the check is skipped with a note.
    public static func expectRegions(of file: String, in seed: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let seedPath = seedsDirectory + "/" + seed
        guard FileManager.default.fileExists(atPath: seedPath) else {
            print("seed check skipped: \(seedPath) is not on this machine")
            return
        }
        let seedLines = try DocumentedCode.trimmedLines(ofFile: seedPath)
        let regions = try regions(ofFile: file)
        try #require(!regions.isEmpty, "\(file) marks no seed regions", sourceLocation: sourceLocation)
        for region in regions where !DocumentedCode.contains(seedLines, region) {
            Issue.record("not the seed's code as written (\(seed)):\n\(region.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
    }

    static func regions(ofFile path: String) throws -> [[String]] {
        var regions: [[String]] = []
        var current: [String]?
        for line in try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// seed:begin" { current = []; continue }
            if trimmed == "// seed:end", let region = current {
                regions.append(region)
                current = nil
                continue
            }
            if current != nil, let kept = DocumentedCode.normalized(line) { current!.append(kept) }
        }
        return regions
    }
}
