import Foundation

/// A file with no name, in memory: what a reader builds from a ring leaves nothing behind when the
/// reader is killed, and needs no `$TMPDIR` (full, missing or shared).
enum AnonymousFile {
    /// A new, empty read-write file in memory (Linux's `memfd_create`), closed on exec; `nil` where
    /// the system has none, or refuses (`errno` says why).
    static func create(name: String) -> Int32? {
        guard let create = GNUCalls.memfdCreate else {
            errno = ENOSYS
            return nil
        }
        let descriptor = create(name, GNUCalls.closeOnExec)
        return descriptor >= 0 ? descriptor : nil
    }
}
