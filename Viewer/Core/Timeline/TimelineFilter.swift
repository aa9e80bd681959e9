import Rewind

/// What the timeline shows, as typed after `f`: words that include or (with `!`) exclude kinds and
/// sources, and `path:KEYPATH` for the steps that changed a key path or anything under it.
///
/// ```
/// change,activity            only changes and activities
/// !change !willMutate        everything but changes and commit starts
/// TodoSample path:items      the todo list's steps that changed `items`
/// ```
public struct TimelineFilter: Sendable, Equatable {
    /// Kinds to show (`nil`: all) and to hide.
    public var kinds: Set<Event.Category>?
    public var excludedKinds: Set<Event.Category> = []
    /// Sources to show (`nil`: all) and to hide, by instance number.
    public var sources: Set<UInt64>?
    public var excludedSources: Set<UInt64> = []
    /// Only steps that changed this path (or below it).
    public var changedPath: StatePath?

    /// Reads a filter typed as words; `sources` are the journal's, to resolve names.
    public init(parsing text: String, sources: [RecordedSource]) throws(TimelineFilterError) {
        for word in text.split(separator: " ").map(String.init) {
            let excluded = word.hasPrefix("!")
            let body = excluded ? String(word.dropFirst()) : word
            if body.hasPrefix("path:") {
                guard !excluded else { throw TimelineFilterError("'\(word)': a key path can only be included") }
                do { changedPath = try StatePath(parsing: String(body.dropFirst(5))) } catch { throw TimelineFilterError(error.description) }
                continue
            }
            let kindNames = body.split(separator: ",").map(String.init)
            let kinds = kindNames.compactMap(Event.Category.init(named:))
            if !kinds.isEmpty, kinds.count == kindNames.count {
                if excluded { excludedKinds.formUnion(kinds) } else { self.kinds = (self.kinds ?? []).union(kinds) }
            } else if let source = sources.first(where: { $0.matches(body) }) {
                if excluded { excludedSources.insert(source.instanceID) } else { self.sources = (self.sources ?? []).union([source.instanceID]) }
            } else {
                throw TimelineFilterError("'\(VisibleText.escaped(body))' is neither a kind, a source nor path:KEYPATH")
            }
        }
    }

    /// Whether a block may hold events this filter shows, from the index alone.
    func mayMatch(_ block: JournalBlock) -> Bool {
        if let sources, sources.isDisjoint(with: block.sources.keys) { return false }
        if !excludedSources.isEmpty, Set(block.sources.keys).isSubset(of: excludedSources) { return false }
        return true
    }

    /// Whether the timeline shows `event`.
    public func matches(_ event: RecordedEvent) -> Bool {
        if let kinds, !kinds.contains(event.kind) { return false }
        if excludedKinds.contains(event.kind) { return false }
        if let sources, !sources.contains(event.source.instanceID) { return false }
        if excludedSources.contains(event.source.instanceID) { return false }
        if let changedPath, !Self.event(event, changes: changedPath) { return false }
        return true
    }

    /// Whether an event changed `path` or something under it: a change at such a path (or above
    /// it, replacing it whole), or a state diff touching it. Keyframes say nothing about what
    /// changed and do not count.
    static func event(_ event: RecordedEvent, changes path: StatePath) -> Bool {
        func overlaps(_ other: StatePath) -> Bool { path.isPrefix(of: other) || other.isPrefix(of: path) }
        switch event.stateStep {
        case .change(let text, _)?:
            return StatePath(recordedChange: text).map(overlaps) ?? text.hasPrefix(path.description)
        case .record(.diff(let changes))?:
            return changes.changedPaths.contains(where: overlaps)
        default:
            return false
        }
    }
}

/// Why a filter could not be read: one line for the status line.
public struct TimelineFilterError: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
