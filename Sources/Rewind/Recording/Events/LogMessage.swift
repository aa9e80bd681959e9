import Logging

/// A message the application logged through swift-log, as a `log` event carries it
/// (``Event/Kind/log(_:)``; recorded by ``RecordingLogHandler``).
///
/// Little in it is formatted when it is made: the message is the text swift-log already built,
/// and the metadata is kept as swift-log handed it, its self-describing values described
/// (``RecordingLogHandler`` does that on the caller's thread, as they were when logged), turned
/// into a tree — its secrets redacted by name, as a state's fields are — only where a logger asks
/// for it (``metadataTree(options:)``), on the journal's own thread.
public struct LogMessage: Sendable {
    /// How severe it is.
    public let level: Logger.Level
    /// The message.
    public let message: String
    /// Its metadata: the handler's, its provider's and the call's, merged as swift-log merges them.
    public let metadata: Logger.Metadata
    /// The file it was logged in, as swift-log gives it (`#fileID`).
    public let file: String
    /// The function it was logged in.
    public let function: String
    /// The line it was logged at.
    public let line: UInt
    /// The metadata's tree as a journal recorded it, for a message written again (a shrunk
    /// recording): its secrets were redacted when it was first recorded.
    private var recordedMetadata: StateValue?

    /// A message as swift-log hands it to a handler.
    public init(level: Logger.Level, message: String, metadata: Logger.Metadata = [:], file: String, function: String, line: UInt) {
        self.level = level
        self.message = message
        self.metadata = metadata
        self.file = file
        self.function = function
        self.line = line
    }

    /// A message as a journal recorded it, its metadata already a tree.
    package init(level: Logger.Level, message: String, recordedMetadata: StateValue?, file: String, function: String, line: UInt) {
        self.init(level: level, message: message, file: file, function: function, line: line)
        self.recordedMetadata = recordedMetadata
    }

    /// The metadata as a tree — an object of its keys in a stable order, nested metadata as
    /// objects and lists, every value as its text — with keys named like secrets redacted at any
    /// depth (``Redaction``); `nil` when there is none.
    public func metadataTree(options: CaptureOptions = .current) -> StateValue? {
        if let recordedMetadata { return recordedMetadata }
        guard !metadata.isEmpty else { return nil }
        return Self.tree(metadata, options: options, depth: 0)
    }

    /// The tree a state capture makes of the same values as plain dictionaries, lists and texts
    /// (each key redacted by the state's rule, entries in the stable order, the depth limit),
    /// built from swift-log's values without reading them by reflection: on the journal's thread
    /// a capture by `Mirror` cost 84,000 instructions for a message with two fields.
    private static func tree(_ fields: Logger.Metadata, options: CaptureOptions, depth: Int) -> StateValue {
        guard depth < options.maximumDepth else { return .opaque(OpaqueValue(typeName: "Dictionary<String, Any>", text: "<too deep>")) }
        var object = StateObjectFields(minimumCapacity: fields.count)
        for (key, value) in fields {
            let tree = tree(value, options: options, depth: depth + 1)
            object[key] = options.redaction.redacts(key: key) ? .opaque(options.redactedLeaf(typeName: tree.shapeName, of: tree)) : tree
        }
        return StableOrder.sorted(.object(object), isDictionary: true)
    }

    private static func tree(_ value: Logger.MetadataValue, options: CaptureOptions, depth: Int) -> StateValue {
        switch value {
        case .string(let text): return .string(text)
        case .stringConvertible(let convertible): return .string(convertible.description)
        case .dictionary(let fields): return tree(fields, options: options, depth: depth)
        case .array(let elements):
            guard depth < options.maximumDepth else { return .opaque(OpaqueValue(typeName: "Array<Any>", text: "<too deep>")) }
            return .array(elements.map { tree($0, options: options, depth: depth + 1) })
        }
    }
}
