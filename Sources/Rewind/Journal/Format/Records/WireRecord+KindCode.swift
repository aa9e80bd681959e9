extension WireRecord {
    /// The journal's code for each event kind: the low four bits of a record's first byte, and the
    /// kind's bit in a block summary's kind mask (docs/JOURNAL_FORMAT.md, "Event record").
    ///
    /// Fixed for good, whatever order ``Event/Category`` declares its cases in: every later
    /// version reads the files written today, so a code is never renumbered or reused. A new kind
    /// takes ``nextFree`` (the four bits hold codes up to 15) and the format document's table
    /// gains its line; `KindCodeTests` holds this table against the document's.
    enum KindCode {
        /// The code a new kind takes: the one after the highest in use.
        static let nextFree: UInt8 = 11

        static func code(of kind: Event.Category) -> UInt8 {
            switch kind {
            case .willDispatch: 0
            case .didDispatch: 1
            case .willMutate: 2
            case .didMutate: 3
            case .change: 4
            case .replace: 5
            case .activity: 6
            case .created: 7
            case .released: 8
            case .dropped: 9
            case .log: 10
            }
        }

        /// The kind of a record's first byte (its low four bits); `nil` for a code no kind has.
        static func kind(_ byte: UInt8) -> Event.Category? {
            switch byte & 0x0F {
            case 0: .willDispatch
            case 1: .didDispatch
            case 2: .willMutate
            case 3: .didMutate
            case 4: .change
            case 5: .replace
            case 6: .activity
            case 7: .created
            case 8: .released
            case 9: .dropped
            case 10: .log
            default: nil
            }
        }
    }
}

extension Event.Category {
    /// The kind's code in the journal (``WireRecord/KindCode``), from 0 to 15: a small number of its
    /// own, for tables indexed by kind.
    package var code: Int { Int(WireRecord.KindCode.code(of: self)) }
}
