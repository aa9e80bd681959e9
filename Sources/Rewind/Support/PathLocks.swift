import Foundation

/// One lock per file, taken by path within this process: work on one file runs one at a time,
/// work on different files side by side. Paths are compared once resolved (`./a.rewind` and
/// `a.rewind` are one file).
final class PathLocks: Sendable {
    private let locks = Locked<[String: NSLock]>([:])

    /// Runs `body` while holding the lock of `path`.
    func serialised<Result, Failure: Error>(_ path: String, _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let key = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let lock = locks.withLock { locks in
            if let existing = locks[key] { return existing }
            let created = NSLock()
            locks[key] = created
            return created
        }
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
