import Foundation

/// Linux calls that Swift's Glibc module does not declare (glibc declares them only under
/// `_GNU_SOURCE`, which the module does not define), found at run time; `nil` where the C
/// library has none.
enum GNUCalls {
    /// `memfd_create(name, flags)` (glibc 2.27).
    static let memfdCreate: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32)? = symbol("memfd_create")
    /// `renameat2(olddirfd, oldpath, newdirfd, newpath, flags)` (glibc 2.28).
    static let renameat2: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = symbol("renameat2")

    /// `MFD_CLOEXEC`.
    static let closeOnExec: UInt32 = 1
    /// `RENAME_NOREPLACE`.
    static let noReplace: UInt32 = 1
    /// `AT_FDCWD`.
    static let currentDirectory: Int32 = -100

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }

    /// Moves `source` to `destination` unless a file is there (`EEXIST`); where the system cannot
    /// say so atomically, links and unlinks instead (an open descriptor of the file then names
    /// the removed name in `/proc`). Returns 0 or -1 with `errno` set.
    static func renameNoReplace(_ source: String, to destination: String) -> Int32 {
        if let renameat2 {
            let result = renameat2(currentDirectory, source, currentDirectory, destination, noReplace)
            if result == 0 || (errno != ENOSYS && errno != EINVAL) { return result }
        }
        guard link(source, destination) == 0 else { return -1 }
        unlink(source)
        return 0
    }
}
