import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

@Suite("A journal names its recording: an identifier and the app's version in the header (format 4)")
struct RecordingIdentityTests {
    struct Counter: Codable, Equatable { var count = 0 }

    final class CounterModel: CyclerType, Sendable {
        let state: Storage<Counter> = .init(.init())
    }

    private func record(_ path: String, configuration: JournalConfiguration = JournalConfiguration(), commits: Int = 3) throws -> JournalLogger {
        let journal = try JournalLogger(path: path, configuration: configuration)
        let model = CounterModel()
        model.set(logger: journal)
        for value in 1...commits { model.commit { $0.update(value, \.count) } }
        journal.close()
        return journal
    }

    @Test("the identifier and app version a logger writes read back; each logger's identifier is its own")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        var configuration = JournalConfiguration()
        configuration.appVersion = "2.4.1 (812)"
        let first = try record(directory.file("a.rewind"), configuration: configuration)
        let second = try record(directory.file("b.rewind"))
        let reader = try JournalReader(path: directory.file("a.rewind"))
        #expect(reader.header.formatVersion == JournalFormat.version && reader.headerIsIntact && reader.damage.isEmpty)
        #expect(reader.header.recordingID == first.recordingID)
        #expect(reader.header.appVersion == "2.4.1 (812)")
        #expect(reader.eventCount == 10)
        let other = try JournalReader(path: directory.file("b.rewind"))
        #expect(other.header.recordingID == second.recordingID && other.header.appVersion == nil)
        #expect(first.recordingID != second.recordingID)
        #expect(reader.header.recordingIDString == first.recordingID.uuidString.lowercased())
    }

    @Test("a given identifier is kept, and the files of a rotated recording share it")
    func rotatedFilesShareIt() throws {
        let directory = TemporaryDirectory()
        var configuration = JournalConfiguration()
        let id = UUID()
        configuration.recordingID = id
        configuration.rotationSize = 4 * 1024
        configuration.blockSize = 1024
        _ = try record(directory.file("r.rewind"), configuration: configuration, commits: 2_000)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".rewind") }
        #expect(files.count > 1)
        for file in files {
            #expect(try JournalReader(path: directory.file(file)).header.recordingID == id, "\(file)")
        }
    }

    @Test("an app version longer than the header holds is cut before a character that would not fit")
    func longAppVersion() throws {
        let directory = TemporaryDirectory()
        var configuration = JournalConfiguration()
        configuration.appVersion = String(repeating: "a", count: 254) + "é"
        _ = try record(directory.file("long.rewind"), configuration: configuration)
        #expect(try JournalReader(path: directory.file("long.rewind")).header.appVersion == String(repeating: "a", count: 254))
    }

    @Test("a file written before format 4 gets an identifier made from its creation times, the same at every read")
    func olderFiles() throws {
        let path = Repository.fixture("todo-format-1")
        let reader = try JournalReader(path: path)
        #expect(reader.header.formatVersion == 1 && reader.header.appVersion == nil)
        let expected = JournalHeader.legacyRecordingID(
            createdWallNanoseconds: reader.header.createdWallNanoseconds,
            createdMonotonicNanoseconds: reader.header.createdMonotonicNanoseconds
        )
        #expect(reader.header.recordingID == expected)
        #expect(try JournalReader(path: path).header.recordingID == expected)
        // A version 8 (custom) UUID.
        #expect(reader.header.recordingIDString.dropFirst(14).first == "8")
    }

    @Test("a damaged header extension is damage: the identifier is unknown, every event still reads, and recover makes it whole")
    func damagedExtension() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("damaged.rewind")
        let journal = try record(path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[JournalFormat.fixedHeaderLength + 5] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))

        let reader = try JournalReader(path: path)
        #expect(!reader.headerIsIntact)
        #expect(reader.damage.map(\.reason) == ["the file header's extension is damaged (recording id and app version unknown)"])
        #expect(reader.header.recordingID != journal.recordingID)
        #expect(reader.eventCount == 10 && reader.allEvents().count == 10)

        let recovered = directory.file("recovered.rewind")
        _ = try reader.recover(to: recovered)
        let whole = try JournalReader(path: recovered)
        #expect(whole.damage.isEmpty && whole.headerIsIntact && whole.eventCount == 10)
    }

    @Test("a header length past what a reader accepts is not followed: the blocks are found after the fixed part")
    func impossibleLength() throws {
        let header = JournalHeader(formatVersion: 4, createdWallNanoseconds: 1, createdMonotonicNanoseconds: 2, writerVersion: "x", recordingID: UUID())
        var bytes = header.encoded()
        bytes[10] = 0xFF
        bytes[11] = 0xFF
        // The fixed part's CRC, made again over the lying length.
        let crc = Zlib.crc32(Array(bytes[0..<44]))
        for index in 0..<4 { bytes[44 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        guard case .success(let fixed) = JournalHeader.decodeFixedPart(Array(bytes.prefix(48))) else {
            Issue.record("the fixed part did not decode")
            return
        }
        #expect(fixed.isIntact && fixed.length == JournalFormat.fixedHeaderLength)
    }
}
