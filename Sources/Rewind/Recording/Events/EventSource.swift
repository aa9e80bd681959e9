import Synchronization

/// Which unit emitted an event: its framework, its Swift type, a process-unique instance number and
/// an optional label the user gave it.
///
/// One source object is made per unit and shared by all its events, so recording an event costs a
/// reference, not a copy of these strings. This type is what the seed's `AnyCyclerType` stood for,
/// generalised to every framework: a Ricemill machine, a Unio stream and a Flask substance are
/// sources too.
public final class EventSource: Hashable, Sendable, CustomStringConvertible {
    /// The framework a unit belongs to.
    public struct Framework: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The framework's name as recorded in journals.
        public let rawValue: String
        /// Creates a framework name; use the constants unless you log from a framework of your own.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Cycler view models.
        public static let cycler = Framework(rawValue: "Cycler")
        /// Ricemill machines.
        public static let ricemill = Framework(rawValue: "Ricemill")
        /// Unio streams.
        public static let unio = Framework(rawValue: "Unio")
        /// Flask substances.
        public static let flask = Framework(rawValue: "Flask")
        /// The application's own swift-log loggers, one source per label (``RecordingLogHandler``).
        public static let swiftLog = Framework(rawValue: "swift-log")
        /// The framework's name.
        public var description: String { rawValue }
    }

    /// The framework the unit belongs to.
    public let framework: Framework
    /// The unit's Swift type, e.g. `"CounterViewModel"`.
    public let typeName: String
    /// A number unique to this unit within the process.
    public let instanceID: UInt64
    /// A name the user gave the unit, if any.
    public let label: String?
    /// The size of the unit's state as a journal's writer last measured it, in bytes (0: not yet):
    /// what a queued state counts for against ``JournalConfiguration/queueByteLimit``. Kept here so
    /// that a producer reads it with one load, not a lookup.
    let measuredStateBytes = Atomic<Int>(0)

    /// Creates a source with a fresh instance number.
    public init(framework: Framework, typeName: String, label: String? = nil) {
        self.framework = framework
        self.typeName = typeName
        self.label = label
        self.instanceID = Self.instanceCounter.add(1, ordering: .relaxed).newValue
    }

    /// Creates a source with a given instance number (journals read back, fixtures with fixed ids).
    package init(framework: Framework, typeName: String, instanceID: UInt64, label: String? = nil) {
        self.framework = framework
        self.typeName = typeName
        self.instanceID = instanceID
        self.label = label
    }

    /// Creates a source for an instance of `type`.
    public convenience init(framework: Framework, type: Any.Type, label: String? = nil) {
        self.init(framework: framework, typeName: Self.shortTypeName(type), label: label)
    }

    /// The label if there is one, otherwise `Type#id`: how the source is shown in logs and the viewer.
    public var description: String {
        label ?? "\(typeName)#\(instanceID)"
    }

    public static func == (lhs: EventSource, rhs: EventSource) -> Bool {
        lhs === rhs || (lhs.instanceID == rhs.instanceID && lhs.framework == rhs.framework
            && lhs.typeName == rhs.typeName && lhs.label == rhs.label)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(instanceID)
        hasher.combine(typeName)
    }

    /// A type's name without module names, keeping nesting and generic arguments (``TypeName/short(_:)``).
    package static func shortTypeName(_ type: Any.Type) -> String {
        TypeName.short(type)
    }

    private static let instanceCounter = Atomic<UInt64>(0)
}

/// The seed's name for the source of an event, kept so that loggers written for the original
/// Cycler compile: `func didEmit(activity: Any, …, on cycler: AnyCyclerType)`.
public typealias AnyCyclerType = EventSource
