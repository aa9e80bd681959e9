import Foundation

/// Where substances archive their state: a key → data store. The default on Linux is a directory of
/// JSON files (``JSONFileArchiveStore``); ``UserDefaultsArchiveStore`` is the original's choice.
///
/// ```swift
/// Flask.archiveStore = JSONFileArchiveStore(directory: URL(fileURLWithPath: "/var/lib/myapp/flask"))
/// ```
public protocol ArchiveStore: Sendable {
    /// The data archived under `key`, if any.
    func data(forKey key: String) -> Data?
    /// Archives `data` under `key`; `nil` removes it.
    func setData(_ data: Data?, forKey key: String)
}

/// An archive of one JSON file per key in a directory (made when first written).
public struct JSONFileArchiveStore: ArchiveStore {
    /// The directory holding the files.
    public let directory: URL

    /// A store in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The default directory: `$XDG_DATA_HOME/flask`, or `~/.local/share/flask`.
    public static var defaultDirectory: URL {
        if let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !dataHome.isEmpty {
            return URL(fileURLWithPath: dataHome).appendingPathComponent("flask")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/flask")
    }

    public func data(forKey key: String) -> Data? {
        try? Data(contentsOf: file(for: key))
    }

    public func setData(_ data: Data?, forKey key: String) {
        let file = file(for: key)
        guard let data else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Atomic: a crash mid-write leaves the previous archive, not half of a new one.
        try? data.write(to: file, options: .atomic)
    }

    private func file(for key: String) -> URL {
        let safe = key.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" ? $0 : "_" }
        return directory.appendingPathComponent(String(safe) + ".json")
    }
}

/// An archive in `UserDefaults`, as the original Flask kept it.
public struct UserDefaultsArchiveStore: ArchiveStore, @unchecked Sendable {
    // Unchecked: UserDefaults is thread-safe.
    private let defaults: UserDefaults

    /// A store in `defaults`.
    public init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    public func data(forKey key: String) -> Data? {
        defaults.data(forKey: key)
    }

    public func setData(_ data: Data?, forKey key: String) {
        defaults.set(data, forKey: key)
    }
}
