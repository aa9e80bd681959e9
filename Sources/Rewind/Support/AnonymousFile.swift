import Foundation

/// A file with no name, in memory: what a reader builds from a ring leaves nothing behind when the
/// reader is killed, and needs no `$TMPDIR` (full, missing or shared) where the system has
/// `memfd_create`.
enum AnonymousFile {
    /// A new, empty read-write file, closed on exec: in memory (Linux's `memfd_create`), or where
    /// the system has none or refuses it (a seccomp profile), a private file in `$TMPDIR` unlinked
    /// at once; `nil` when neither can be had (`errno` says why).
    static func create(name: String) -> Int32? {
        if let create = GNUCalls.memfdCreate {
            let descriptor = create(name, GNUCalls.closeOnExec)
            if descriptor >= 0 { return descriptor }
        }
        var template = Array((NSTemporaryDirectory() + "/.\(name)-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        unlink(String(cString: template))
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }
}
