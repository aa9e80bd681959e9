import Foundation

/// Writing an output file whole or not at all: the content goes to a new file beside the
/// destination, which is moved into place (an atomic `rename`) only once it is complete and synced.
/// A failed or interrupted write never leaves a half-written destination, and a destination that
/// is not a regular file — a device such as `/dev/null`, a FIFO, a directory, a symbolic link — is
/// refused before anything is written, so its mode and contents are never touched.
///
/// The one home of that rule for every output Rewind writes: `recover -o`, `export -o`, and the
/// journal a replay re-records.
package struct FileReplacement: Sendable {
    /// Where the file ends up.
    package let destination: String
    /// Where it is written first: a name of its own in the destination's directory (a `rename`
    /// across file systems is not atomic), unique to this process and moment, so that two writers of
    /// one destination never share it.
    package let temporaryPath: String

    /// Checks `destination` and picks the temporary path. Nothing is created yet.
    package init(destination: String) throws(FileReplacementError) {
        var status = stat()
        if lstat(destination, &status) == 0 {
            let type = status.st_mode & S_IFMT
            if type == S_IFLNK { throw FileReplacementError(path: destination, reason: "it is a symbolic link, and outputs are never written through one") }
            if type != S_IFREG { throw FileReplacementError(path: destination, reason: "it is \(FileKind.describe(type)), not a regular file") }
        }
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        let unique = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        temporaryPath = directory + "/." + url.lastPathComponent + ".partial-" + unique
    }

    /// Creates the temporary file (mode 0600, never an existing file) and returns its descriptor.
    package func createTemporary() throws(FileReplacementError) -> Int32 {
        let descriptor = open(temporaryPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw FileReplacementError(path: destination, code: errno) }
        return descriptor
    }

    /// Moves the finished temporary file into place and syncs the directory, so that the new name
    /// survives a crash. The file's own data must be synced before (``JournalFile`` does; a plain
    /// output through ``sync(_:)``).
    package func moveIntoPlace() throws(FileReplacementError) {
        guard rename(temporaryPath, destination) == 0 else {
            let code = errno
            discard()
            throw FileReplacementError(path: destination, code: code)
        }
        let directory = open(URL(fileURLWithPath: destination).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Syncs and closes a descriptor from ``createTemporary()``.
    package func sync(_ descriptor: Int32) throws(FileReplacementError) {
        let synced = fsync(descriptor) == 0 || errno == EINVAL
        let code = errno
        close(descriptor)
        guard synced else {
            discard()
            throw FileReplacementError(path: destination, code: code)
        }
    }

    /// Removes the temporary file: the destination stays as it was.
    package func discard() {
        unlink(temporaryPath)
    }
}

/// An output file could not be written; the destination was left as it was.
package struct FileReplacementError: Error, CustomStringConvertible, Equatable {
    /// The destination.
    package var path: String
    /// Why, in words.
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package init(path: String, code: Int32) {
        self.init(path: path, reason: String(cString: strerror(code)))
    }

    package var description: String { "cannot write \(path): \(reason)" }
}
