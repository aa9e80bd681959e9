import Foundation

/// How the command line asks the C allocator to keep memory it frees.
///
/// Readers allocate a block's records (a few hundred kilobytes), use them on one thread and free
/// them, a block at a time, on every core. glibc's allocator hands chunks that large back to
/// the system (`mmap`, or trimming its heaps) and takes fresh pages for the next block, each
/// one a page fault: a fifth of a first `log --grep`'s time went to faulting the same few
/// megabytes in again. Kept, freed memory serves the next block, at the cost of up to
/// `retained` bytes more per thread's heap: worth it where little else is held (`log`), not
/// where a block's output is large (`export` of a journal with big states, whose peak it raised
/// from 49 to 65 MB).
enum MemoryTuning {
    /// Keeps up to `retained` bytes of freed memory, and serves allocations below it from the
    /// heap. Does nothing where the C library has no `mallopt` (it is looked up, not linked:
    /// Swift's Glibc module does not declare it).
    static func keepFreedMemory(upTo retained: Int32 = 8 << 20) {
        #if canImport(Glibc)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            // A null handle is glibc's RTLD_DEFAULT: every object the process has loaded.
            guard let symbol = dlsym(nil, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            // glibc's <malloc.h>: M_TRIM_THRESHOLD is -1, M_MMAP_THRESHOLD is -3.
            _ = mallopt(-1, retained)
            _ = mallopt(-3, retained / 2)
        #endif
    }
}
