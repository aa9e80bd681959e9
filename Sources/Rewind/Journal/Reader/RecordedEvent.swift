/// A unit as recorded in a journal.
public struct RecordedSource: Hashable, Sendable, CustomStringConvertible {
    /// The unit's number within the recording process.
    public var instanceID: UInt64
    /// Its framework (`Cycler`, `Ricemill`, `Unio`, `Flask`, or another name).
    public var framework: String
    /// Its Swift type.
    public var typeName: String
    /// The label the user gave it, if any.
    public var label: String?

    /// Creates a recorded source.
    package init(instanceID: UInt64, framework: String, typeName: String, label: String?) {
        self.instanceID = instanceID
        self.framework = framework
        self.typeName = typeName
        self.label = label
    }

    /// The label if there is one, otherwise `Type#id`, as the live ``EventSource`` prints itself.
    public var description: String { label ?? "\(typeName)#\(instanceID)" }

    /// Whether `text` names this source: its label, `Type#id`, its type name, or its number.
    package func matches(_ text: String) -> Bool {
        text == description || text == label || text == typeName || text == "\(typeName)#\(instanceID)" || text == String(instanceID)
    }
}

/// An event as read back from a journal: every field of the live ``Event``, with captured values
/// turned into ``StateValue`` trees and the call site as text.
public struct RecordedEvent: Sendable, Equatable {
    /// The event's sequence number.
    public var sequence: UInt64
    /// Wall-clock time, nanoseconds since 1970 (UTC).
    public var wallNanoseconds: Int64
    /// Monotonic clock time, nanoseconds.
    public var monotonicNanoseconds: UInt64
    /// The unit that emitted it.
    public var source: RecordedSource
    /// What kind of event it is.
    public var kind: Event.Category
    /// Its name (dispatch or commit name).
    public var name: String
    /// Its description; for `log`, the message.
    public var description: String
    /// The call site's file.
    public var file: String
    /// The call site's function.
    public var function: String
    /// The call site's line.
    public var line: UInt
    /// The sequence number of the dispatch it happened inside.
    public var parent: UInt64?
    /// For `didDispatch` and `didMutate`: how long it took.
    public var duration: Duration?
    /// For `change`: the changed path, as text.
    public var path: String?
    /// For `change`: the new value; for `activity`: the activity; for `willDispatch`: the input the
    /// dispatch carried, if any; for `log`: the message's metadata, if it had any.
    public var value: StateValue?
    /// For `dropped`: how many events were dropped, and their sequence range.
    public var dropped: DroppedRange?
    /// The state record the event carries, if any (a full snapshot or a diff from the previous state
    /// of the same source). ``JournalReader/state(of:at:)`` rebuilds whole states from them.
    package var stateRecord: StateRecord?

    /// Whether this event changed (or re-stated) its source's state.
    public var carriesState: Bool { stateRecord != nil }

    /// `File.swift:42`, or empty when no line of user code caused the event.
    public var callSite: String { Self.callSite(file: file, line: line) }

    /// `File.swift:42` for a call site in `file` at `line`: the one rule, for an event and for a
    /// record read in its block.
    package static func callSite(file: String, line: UInt) -> String {
        guard !file.isEmpty else { return "" }
        let name = file.utf8.lastIndex(of: UInt8(ascii: "/")).map { file[file.utf8.index(after: $0)...] } ?? file[...]
        return name + ":" + String(line)
    }
}

/// How an event's state is stored: a full snapshot (a keyframe) or the changes from the previous
/// state of the same source.
package enum StateRecord: Sendable, Equatable {
    /// A full snapshot.
    case keyframe(StateValue)
    /// The changes from the source's previous state (old values are not stored).
    case diff(StateDiff)
}
