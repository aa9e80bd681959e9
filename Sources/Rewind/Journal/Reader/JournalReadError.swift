import Foundation

/// Why a journal could not be opened or read. Each case prints one line saying what is wrong and
/// what to do, for the command line to show as is.
public enum JournalReadError: Error, Equatable, CustomStringConvertible {
    case fileNotFound(String)
    case isDirectory(String)
    /// A device, FIFO or socket: `kind` says which ("a FIFO").
    case notARegularFile(String, kind: String)
    case unreadable(String, code: Int32)
    /// A flight recorder's ring whose blocks could not be put together in memory to be read.
    case ringImage(String, code: Int32)
    case empty(String)
    case notAJournal(String)
    case newerFormat(String, version: UInt16)
    case damagedBlock(String, offset: Int, reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path): "no such file: \(path) (check the path; journals end in .rewind)"
        case .isDirectory(let path): "\(path) is a directory, not a journal (give the path of a .rewind file)"
        case .notARegularFile(let path, let kind): "\(path) is \(kind), not a journal (give the path of a .rewind file)"
        case .unreadable(let path, let code): "cannot read \(path): \(String(cString: strerror(code)))"
        case .ringImage(let path, let code):
            "cannot read ring \(path): its blocks could not be put together in memory (\(String(cString: strerror(code)))); the ring itself is untouched"
        case .empty(let path): "\(path) is empty: nothing was recorded (was the recording process stopped before its first event?)"
        case .notAJournal(let path): "\(path) is not a Rewind journal (its first bytes are not the journal signature)"
        case .newerFormat(let path, let version): "\(path) uses journal format \(version), newer than this rewind reads (\(JournalFormat.version)): update rewind"
        case .damagedBlock(let path, let offset, let reason): "\(path): the block at byte \(offset) is damaged (\(reason)); run 'rewind verify' for a full report"
        }
    }
}

/// A stretch of a journal that could not be read.
public struct JournalDamage: Sendable, Equatable, CustomStringConvertible {
    /// The bytes that were skipped.
    public var byteRange: Range<Int>
    /// The sequence numbers lost, when the damaged block's frame still said which.
    public var sequences: ClosedRange<UInt64>?
    /// What was wrong.
    public var reason: String

    /// How many events the stretch held, as far as its frame said (0 when it did not). Saturates,
    /// since a damaged frame can claim any range.
    public var lostEventCount: Int {
        guard let sequences else { return 0 }
        let span = Int(clamping: sequences.upperBound - sequences.lowerBound)
        return span == .max ? .max : span + 1
    }

    public var description: String {
        let lost = sequences.map { "events \($0.lowerBound)–\($0.upperBound) lost" } ?? "sequence range unknown"
        return "bytes \(byteRange.lowerBound)..<\(byteRange.upperBound): \(reason); \(lost)"
    }
}

extension Sequence<JournalDamage> {
    /// How many events the stretches held together (saturating).
    var lostEventCount: Int {
        reduce(0) { total, damage in
            let (sum, overflow) = total.addingReportingOverflow(damage.lostEventCount)
            return overflow ? .max : sum
        }
    }
}
