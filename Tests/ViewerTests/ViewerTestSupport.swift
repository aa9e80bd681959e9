import Foundation
@_spi(Tooling) import Rewind
import RewindViewer
import Testing
import TestSupport

enum ViewerFixtures {
    static let root = Repository.root.path
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path

    static func timeline(_ name: String) throws -> Timeline {
        Timeline(reader: try JournalReader(path: root + "/Fixtures/" + name))
    }

    /// A program on a fixture after pressing `keys`.
    static func program(_ name: String, width: Int = 80, height: Int = 24, keys: [Key] = []) throws -> ViewerProgram {
        let program = ViewerProgram(timeline: try timeline(name), model: ViewerModel(width: width, height: height, colors: false, title: "Fixtures/" + name))
        for key in keys { program.press(key) }
        return program
    }

    /// Runs `body` with the path of a new journal file in a fresh temporary directory, removed after.
    static func withJournalPath<Result>(_ name: String, _ body: (String) throws -> Result) throws -> Result {
        let directory = TemporaryDirectory()
        return try body(directory.file(name))
    }

    /// Keys typed as text, one character each.
    static func typing(_ text: String) -> [Key] { text.map { Key.character($0) } }

    /// Compares a rendered frame with its golden text; REWIND_UPDATE_GOLDEN=1 rewrites it.
    static func expectFrame(_ name: String, _ frame: ScreenBuffer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try GoldenFile.expect(frame.plainText + "\n", matches: golden + "/" + name + ".txt", regenerate: "swift test --filter ViewerTests", sourceLocation: sourceLocation)
    }
}
