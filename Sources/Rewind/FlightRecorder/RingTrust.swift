import Foundation

/// Whether a file at a ring's path may be taken by this process's recorder: the one rule for what
/// a flight recorder trusts (the flight recorder article, "Whose ring it is").
///
/// A ring is known by its signature, nothing less: a file of zeros, an empty log file, a disk image
/// is not one. A ring is trusted only when this user owns it and nobody else may write it — a ring
/// planted in a shared folder (`/var/tmp`) by another user is neither dumped as this process's
/// previous run nor recorded into, since its owner could read every event or feed the dump.
enum RingTrust: Equatable {
    /// A ring this user owns, that only this user may write.
    case trusted
    /// A ring another user owns.
    case foreignOwner(uid: UInt32)
    /// A ring this user owns that group or others may write.
    case writableByOthers(mode: UInt32)

    /// The trust of the file `status` describes, a ring.
    init(_ status: stat) {
        if status.st_uid != geteuid() {
            self = .foreignOwner(uid: status.st_uid)
        } else if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            self = .writableByOthers(mode: status.st_mode & 0o7777)
        } else {
            self = .trusted
        }
    }

    /// Whether `descriptor`'s first bytes are a ring's signature.
    static func hasRingSignature(_ descriptor: Int32) -> Bool {
        JournalReader.read(descriptor, at: 0, count: JournalFormat.ringMagic.count) == JournalFormat.ringMagic
    }

    /// The error a recorder refusing the ring at `path` throws: its one line says why.
    func refusal(path: String) -> JournalWriteError? {
        switch self {
        case .trusted: nil
        case .foreignOwner: JournalWriteError(path: path, operation: "trust", code: EPERM)
        case .writableByOthers: JournalWriteError(path: path, operation: "trust", code: EACCES)
        }
    }
}
