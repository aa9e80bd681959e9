import CZlib

/// Raw deflate and CRC-32 from the system zlib, as the journal uses them.
enum Zlib {
    /// The CRC-32 (ISO-HDLC, as zlib computes it) of `bytes`.
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return UInt32(CZlib.crc32(0, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0) }
    }

    /// `input` compressed as raw deflate (no zlib or gzip wrapper: blocks carry their own CRC).
    static func deflate(_ input: [UInt8], level: Int32) -> [UInt8] {
        var stream = z_stream()
        let status = deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib deflateInit2 failed: \(status)")
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let written: Int = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                let result = CZlib.deflate(&stream, Z_FINISH)
                precondition(result == Z_STREAM_END, "zlib deflate did not finish: \(result)")
                return target.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }

    /// Inflates raw deflate data that must decompress to exactly `expectedCount` bytes; anything else
    /// (corrupt data, a size that lies) is `nil`. The output is never larger than `expectedCount`, so
    /// a hostile file cannot make the reader allocate more than its header admits.
    static func inflate(_ input: UnsafeRawBufferPointer, expectedCount: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: expectedCount)
        let status: Int32 = output.withUnsafeMutableBufferPointer { target in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            stream.next_out = target.baseAddress
            stream.avail_out = uInt(target.count)
            return CZlib.inflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expectedCount else { return nil }
        return output
    }
}
