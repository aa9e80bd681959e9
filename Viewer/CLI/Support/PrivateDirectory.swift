import Foundation

/// A new directory in the temporary directory that only this user can enter (`mkdtemp`, mode
/// 0700), for the files a command makes while it runs: no other user can plant a link at a name in
/// it, nor guess one to read.
enum PrivateDirectory {
    /// Makes one named `prefix-XXXXXX`, and returns its path.
    static func make(_ prefix: String) throws(CommandFailure) -> String {
        var template = Array((NSTemporaryDirectory() + "\(prefix)-XXXXXX").utf8CString)
        // The path is read while the buffer mkdtemp filled in is still borrowed.
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        guard let made else {
            throw CommandFailure("cannot make a private directory in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))")
        }
        return made
    }

    /// Opens `path` (in a private directory) for appending, making it (mode 0600) if it is not
    /// there, never through a link.
    static func appending(to path: String) throws(CommandFailure) -> FileHandle {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CommandFailure("cannot open \(path): \(String(cString: strerror(errno)))") }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
