import Foundation

/// A fresh temporary directory per test, removed when the value is released.
public final class TemporaryDirectory {
    /// The directory.
    public let path: String

    /// Creates the directory.
    public init() {
        path = NSTemporaryDirectory() + "rewind-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
