import Foundation

/// The header's bytes, as `docs/JOURNAL_FORMAT.md` lays them out: a fixed part of 48 bytes with
/// its own CRC, then (from version 4) an extension of tagged fields with another.
extension JournalHeader {
    /// The tags of the extension's fields. A reader skips a tag it does not know, so fields can be
    /// added without a new format version.
    enum ExtensionTag: UInt8 {
        /// 16 bytes.
        case recordingID = 1
        /// UTF-8, at most ``JournalHeader/maximumAppVersionLength`` bytes.
        case appVersion = 2
        /// A flight recorder's dump (``JournalHeader/Dump``): what triggered it, UTF-8.
        case dumpTrigger = 3
        /// The reason the program gave, UTF-8, at most ``JournalHeader/Dump/maximumReasonLength`` bytes.
        case dumpReason = 4
        /// The step that fired the trigger, varint.
        case dumpStep = 5
        /// The signal, varint.
        case dumpSignal = 6
        /// When the dump was made, wall ns, 8 bytes.
        case dumpTime = 7
        // The next free tag: 8.
    }

    /// The header's bytes; before format version 4 (a test's old file), the fixed part alone. A
    /// ring file's header has the ring's signature and its flags.
    func encoded(signature: [UInt8] = JournalFormat.magic, flags: UInt32 = 0) -> [UInt8] {
        guard formatVersion >= 4 else { return fixedPart(length: JournalFormat.fixedHeaderLength, signature: signature, flags: flags) }
        var fields = ByteWriter()
        fields.byte(ExtensionTag.recordingID.rawValue)
        fields.varint(16)
        fields.append(recordingID.bytes)
        if let appVersion {
            fields.byte(ExtensionTag.appVersion.rawValue)
            fields.string(appVersion)
        }
        if let dump {
            dump.encode(into: &fields)
        }
        fields.fixed(Zlib.crc32(fields.bytes))
        return fixedPart(length: JournalFormat.fixedHeaderLength + fields.bytes.count, signature: signature, flags: flags) + fields.bytes
    }

    private func fixedPart(length: Int, signature: [UInt8], flags: UInt32) -> [UInt8] {
        var writer = ByteWriter(capacity: JournalFormat.fixedHeaderLength)
        writer.append(signature)
        writer.fixed(formatVersion)
        writer.fixed(UInt16(length))
        writer.fixed(flags)
        writer.fixed(createdWallNanoseconds)
        writer.fixed(createdMonotonicNanoseconds)
        var version = Array(writerVersion.utf8.prefix(JournalFormat.writerVersionLength))
        version += [UInt8](repeating: 0, count: JournalFormat.writerVersionLength - version.count)
        writer.append(version)
        writer.fixed(Zlib.crc32(writer.bytes))
        return writer.bytes
    }

    enum DecodingProblem: Error { case notAJournal, newerVersion(UInt16), damaged }

    /// The fixed part, read from the file's first 48 bytes.
    struct FixedPart {
        var header: JournalHeader
        /// Whether its CRC held; when it did not, only the signature is known.
        var isIntact: Bool
        /// Where the first block starts: the header's length field, for an intact version 4 header.
        var length: Int
        /// Whether the file is a flight recorder's ring (its signature says so).
        var isRing = false
        /// The header's flags (a ring's ``JournalFormat/RingFlags``); 0 when the header is damaged.
        var flags: UInt32 = 0
    }

    /// Reads the fixed part; a damaged one with an intact signature still yields a header (its
    /// fields unknown) so that the blocks after it can be read.
    static func decodeFixedPart(_ bytes: [UInt8]) -> Result<FixedPart, DecodingProblem> {
        let signature = Array(bytes.prefix(8))
        let isRing = signature == JournalFormat.ringMagic
        guard bytes.count >= JournalFormat.magic.count, signature == JournalFormat.magic || isRing else { return .failure(.notAJournal) }
        guard bytes.count >= JournalFormat.fixedHeaderLength else { return .failure(.damaged) }
        var reader = ByteReader(bytes, offset: 8, end: JournalFormat.fixedHeaderLength)
        do {
            let version = try reader.fixed(UInt16.self)
            let length = try reader.fixed(UInt16.self)
            let flags = try reader.fixed(UInt32.self)
            let wall = try reader.fixed(Int64.self)
            let monotonic = try reader.fixed(UInt64.self)
            let versionBytes = bytes[reader.offset..<(reader.offset + JournalFormat.writerVersionLength)].prefix { $0 != 0 }
            try reader.skip(JournalFormat.writerVersionLength)
            let storedCRC = try reader.fixed(UInt32.self)
            guard storedCRC == Zlib.crc32(Array(bytes[0..<(JournalFormat.fixedHeaderLength - 4)])) else {
                let unknown = JournalHeader(formatVersion: JournalFormat.version, createdWallNanoseconds: 0, createdMonotonicNanoseconds: 0, writerVersion: "unknown")
                return .success(FixedPart(header: unknown, isIntact: false, length: JournalFormat.fixedHeaderLength, isRing: isRing))
            }
            if version > JournalFormat.version { return .failure(.newerVersion(version)) }
            let header = JournalHeader(
                formatVersion: version, createdWallNanoseconds: wall, createdMonotonicNanoseconds: monotonic,
                writerVersion: String(decoding: versionBytes, as: UTF8.self)
            )
            // Before version 4 the length was always 48; from it, the extension must at least hold its CRC.
            let extended = version >= 4 && Int(length) >= JournalFormat.fixedHeaderLength + 4
                && Int(length) <= JournalFormat.maximumHeaderLength
            return .success(
                FixedPart(header: header, isIntact: true, length: extended ? Int(length) : JournalFormat.fixedHeaderLength, isRing: isRing, flags: flags))
        } catch {
            return .failure(.damaged)
        }
    }

    /// Reads the extension (the bytes from 48 to the header's length) into `self`; `false`, with
    /// `self` unchanged, when its CRC does not hold or a field is cut short.
    mutating func decodeExtension(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        let fieldsEnd = bytes.count - 4
        var crcReader = ByteReader(bytes, offset: fieldsEnd)
        guard let storedCRC = try? crcReader.fixed(UInt32.self), storedCRC == Zlib.crc32(Array(bytes[..<fieldsEnd])) else { return false }
        var reader = ByteReader(bytes, end: fieldsEnd)
        var decoded = self
        do {
            while !reader.isAtEnd {
                let tag = try reader.byte()
                let length = try reader.count(atMost: reader.remaining)
                let start = reader.offset
                try reader.skip(length)
                let value = Array(bytes[start..<(start + length)])
                switch ExtensionTag(rawValue: tag) {
                case .recordingID where length == 16: decoded.recordingID = UUID(uuid: value.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
                case .appVersion: decoded.appVersion = String(decoding: value.prefixOfWholeScalars(Self.maximumAppVersionLength), as: UTF8.self)
                case .dumpTrigger, .dumpReason, .dumpStep, .dumpSignal, .dumpTime: decoded.decodeDumpField(ExtensionTag(rawValue: tag)!, value)
                default: break
                }
            }
        } catch {
            return false
        }
        self = decoded
        return true
    }
}
