import Foundation

/// The file header: format version, creation time, the writer's version, and (from format
/// version 4) which recording the file belongs to and the version of the app that made it.
///
/// The recording's identity is what ties a file to the rest of a fleet: `rewind export` writes it
/// on every row (`recording_id`, `app_version`; see `docs/EXPORT_SCHEMA.md`), and an
/// OpenTelemetry exporter can put the same ``recordingID`` on its spans and log records.
public struct JournalHeader: Sendable, Equatable {
    /// The format version the file was written in.
    public var formatVersion: UInt16
    /// When the journal was created, in nanoseconds since 1970 (UTC).
    public var createdWallNanoseconds: Int64
    /// The writer's monotonic clock when the journal was created.
    package var createdMonotonicNanoseconds: UInt64
    /// The version of Rewind that wrote the file.
    public var writerVersion: String
    /// The recording this file belongs to: fresh for each ``JournalLogger``, shared by the files
    /// of one rotated recording. A file written before format version 4 has none of its own; its
    /// identifier is made from its creation times, so it is the same every time the file is read.
    public var recordingID: UUID
    /// The version of the app that recorded the file (``JournalConfiguration/appVersion``), when
    /// the app said it.
    public var appVersion: String?
    /// Why a flight recorder wrote this file, when it is a dump (``FlightRecorder/dump(reason:)``).
    public var dump: Dump?

    /// ``recordingID`` as text, in lower case as OpenTelemetry, ClickHouse and DuckDB print UUIDs:
    /// what `rewind info` and `rewind export` write (`recording_id`).
    public var recordingIDString: String { Self.text(ofRecordingID: recordingID) }

    /// A recording identifier as text, lower case: the one spelling of `recording_id` in the
    /// export, the CLI and OpenTelemetry's `rewind.recording_id`.
    @_spi(Tooling) public static func text(ofRecordingID id: UUID) -> String {
        id.uuidString.lowercased()
    }

    /// The longest app version a header holds, in UTF-8 bytes; a longer one is cut.
    package static let maximumAppVersionLength = 255

    /// Creates a header; without `recordingID`, the identifier a file written before format
    /// version 4 is given.
    package init(
        formatVersion: UInt16, createdWallNanoseconds: Int64, createdMonotonicNanoseconds: UInt64, writerVersion: String,
        recordingID: UUID? = nil, appVersion: String? = nil
    ) {
        self.formatVersion = formatVersion
        self.createdWallNanoseconds = createdWallNanoseconds
        self.createdMonotonicNanoseconds = createdMonotonicNanoseconds
        self.writerVersion = writerVersion
        self.recordingID = recordingID ?? Self.legacyRecordingID(
            createdWallNanoseconds: createdWallNanoseconds, createdMonotonicNanoseconds: createdMonotonicNanoseconds
        )
        self.appVersion = appVersion.map { String(decoding: Array($0.utf8).prefixOfWholeScalars(Self.maximumAppVersionLength), as: UTF8.self) }
    }

    /// The identifier of a recording written before format version 4: its creation times, wall
    /// then monotonic, little-endian, marked as a version 8 (custom) UUID.
    package static func legacyRecordingID(createdWallNanoseconds: Int64, createdMonotonicNanoseconds: UInt64) -> UUID {
        var writer = ByteWriter(capacity: 16)
        writer.fixed(createdWallNanoseconds)
        writer.fixed(createdMonotonicNanoseconds)
        return UUID(customBytes: writer.bytes)
    }
}

extension UUID {
    /// A version 8 UUID (RFC 9562: custom) from 16 bytes: the version and variant bits are set,
    /// the rest kept.
    init(customBytes bytes: [UInt8]) {
        var bytes = bytes
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        self.init(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }

    /// The 16 bytes, in order.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}

extension [UInt8] {
    /// At most `limit` bytes of UTF-8 text, cut before a Unicode scalar that would not fit whole.
    func prefixOfWholeScalars(_ limit: Int) -> [UInt8] {
        guard count > limit else { return self }
        var end = limit
        // A continuation byte (10xxxxxx) belongs to the character started before it.
        while end > 0, self[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(self[..<end])
    }
}
