import Foundation

/// What kind of file a `stat` mode says, in words for messages ("a FIFO", "a character device").
package enum FileKind {
    static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}

extension FileKind {
    /// Whether two paths name one file (the same device and inode, whatever links lead there);
    /// `false` when either does not exist.
    package static func areSameFile(_ first: String, _ second: String) -> Bool {
        var firstStatus = stat(), secondStatus = stat()
        guard stat(first, &firstStatus) == 0, stat(second, &secondStatus) == 0 else { return false }
        return firstStatus.st_dev == secondStatus.st_dev && firstStatus.st_ino == secondStatus.st_ino
    }
}
