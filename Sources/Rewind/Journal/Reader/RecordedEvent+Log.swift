import Logging

extension Logger.Level {
    /// The level a user names (`warning`, `ERROR`); `nil` for a word that is no level.
    package init?(named name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// Every level, least severe first, for messages: `trace, debug, info, …, critical`.
    package static var namesForHelp: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// A message for a word that is no level.
    package static func unknown(_ name: String) -> String {
        "unknown level '\(VisibleText.escaped(name))'; levels are: \(namesForHelp)"
    }

    /// The level of a `log` event of `kind` recorded under `name` (a log's name is its level):
    /// `nil` for any other kind, or a name that is no level.
    package init?(kind: Event.Category, name: String) {
        guard kind == .log, let level = Logger.Level(rawValue: name) else { return nil }
        self = level
    }

    /// Its rank, from `trace` (0) to `critical` (6): what `level >= warning` compares.
    package var rank: Int { Logger.Level.allCases.firstIndex(of: self) ?? 0 }
}

extension RecordedSource {
    /// Whether it is a logger of the app's own messages (``RecordingLogHandler``: framework
    /// `swift-log`), not a unit: nothing replays, binds or compares it.
    public var isLogger: Bool { framework == EventSource.Framework.swiftLog.rawValue }
}

extension RecordedEvent {
    /// For a `log` event: the level the message was logged at (its ``description`` is the
    /// message, its ``value`` the metadata, its source the logger's label); `nil` for any other
    /// kind.
    public var logLevel: Logger.Level? { Logger.Level(kind: kind, name: name) }
}

extension BlockRecords.Record {
    /// The same for a record read in its block.
    package var logLevel: Logger.Level? { Logger.Level(kind: kind, name: name) }
}
