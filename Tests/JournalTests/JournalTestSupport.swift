import Foundation
@testable import Rewind

/// A fresh temporary directory per test, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "rewind-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension JournalReader {
    /// Every readable event, in file order.
    func allEvents() -> [RecordedEvent] { Array(events()) }
}
