@_spi(Tooling) import Rewind

/// What every command's `--json` writes: objects that begin with `schema_version`, the version of
/// the documented schemas in `docs/schemas/` — raised when a field changes meaning or goes away,
/// not when one is added.
enum CommandJSON {
    /// The version of the commands' JSON schemas.
    static let schemaVersion = 1

    /// Why a flight recorder's dump was made: `info --json`'s `dump`, and `log --json`'s on the
    /// trigger's step.
    static func dump(_ dump: JournalHeader.Dump) -> String {
        JSONText.object {
            $0.field("trigger", dump.trigger.rawValue)
            $0.field("reason", dump.reason)
            $0.field("step", dump.step)
            $0.field("signal", dump.signal.map { UInt64(UInt32(bitPattern: $0)) })
            $0.field("made", EventTime.iso8601(wallNanoseconds: dump.dumpedWallNanoseconds))
        }
    }

    /// An object of a command's answer, `schema_version` first.
    static func object(_ build: (inout JSONText.Object) -> Void) -> JSONText.Object {
        JSONText.buildObject { object in
            begin(&object)
            build(&object)
        }
    }

    /// What every object of a command's answer starts with.
    private static func begin(_ object: inout JSONText.Object) {
        object.field("schema_version", schemaVersion)
    }

    /// Writes an object of a command's answer, `schema_version` first, as a line at the end of
    /// `buffer`, in place (``JSONText/Object/closeLine(into:)``).
    static func writeLine(to buffer: inout [UInt8], _ build: (inout JSONText.Object) -> Void) {
        var object = JSONText.Object(continuing: &buffer)
        begin(&object)
        build(&object)
        object.closeLine(into: &buffer)
    }

    /// A JSON array of already-made objects.
    static func array(_ items: [String]) -> String {
        "[" + items.joined(separator: ",") + "]"
    }

    /// One damaged stretch: `{"bytes_from", "bytes_to", "first_seq", "last_seq", "reason", "description"}`
    /// (the steps `null` when the damaged frame did not say).
    static func damage(_ damage: JournalDamage) -> String {
        JSONText.object { object in
            object.field("bytes_from", damage.byteRange.lowerBound)
            object.field("bytes_to", damage.byteRange.upperBound)
            object.field("first_seq", damage.sequences?.lowerBound)
            object.field("last_seq", damage.sequences?.upperBound)
            object.field("reason", damage.reason)
            object.field("description", damage.description)
        }
    }

    /// A run of dropped events: `{"count", "from", "to"}` (`log`'s and `export`'s `dropped`).
    static func dropped(_ dropped: DroppedRange) -> String {
        JSONText.object {
            $0.field("count", dropped.count)
            $0.field("from", dropped.sequences.lowerBound)
            $0.field("to", dropped.sequences.upperBound)
        }
    }

}

extension JSONText.Object {
    /// Adds what changed from one state to another, one object per changed path —
    /// `{"path": "items[id: 2].done", "old": false, "new": true}`, `old` or `new` left out where
    /// the path was added or removed — named as blame names them: `export`'s and `diff`'s `changes`.
    /// Written in place: an export writes one list per row.
    mutating func changes(_ key: JSONText.Key, from before: StateValue, to after: StateValue) {
        array(key, of: StateDiff(from: before, to: after).changes) { item, change in
            let (old, new) = change.values
            item.field("path", change.followedPath(before: before, after: after).description)
            if let old { item.field("old", old) }
            if let new { item.field("new", new) }
        }
    }
}
