import Foundation

/// A journal still being written: whether its writer holds it, and the blocks added since.
extension JournalReader {
    /// Whether a writer has the file open: a Rewind writer holds an exclusive `flock` on its
    /// journal from creation until it closes it, and the kernel lets go of it when the writer
    /// ends in any way, `kill -9` included. `false` for a journal closed by its writer or left by
    /// one that crashed, and for a journal of format 4 or older, whose writers held no lock;
    /// `nil` where it cannot be told (a file system without `flock`).
    public var isHeldByWriter: Bool? {
        // Asked on the file this reader has open (a path may be a link to it).
        Self.isHeldByWriter(descriptor)
    }

    /// Whether a writer — a journal's or a flight recorder's — holds the file open at
    /// `descriptor` (its exclusive `flock`): the one probe every reader makes, a shared lock taken
    /// and let go at once; `nil` when the file system cannot tell.
    static func isHeldByWriter(_ descriptor: Int32) -> Bool? {
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK ? true : nil
    }

    /// Looks for blocks appended since the journal was opened (or last refreshed) — for following a
    /// journal another process is still writing. Returns how many new blocks were found; their
    /// events come next from ``events(matching:)``.
    @discardableResult
    public func refresh() -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return 0 }
        fileSize = Int(status.st_size)
        guard !hasIndex else { return 0 }
        let before = blocks.count
        walkBlocks(final: false)
        return blocks.count - before
    }
}
