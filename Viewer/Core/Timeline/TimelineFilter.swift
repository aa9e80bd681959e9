import Logging
@_spi(Tooling) import Rewind

/// What the timeline shows, as typed after `f`: words that include or (with `!`) exclude kinds and
/// sources, and `path:KEYPATH` for the steps that changed a key path's value or anything under it
/// — the steps blame lists, by blame's rule (``Rewind/PathWalker``): `items[id: 3].done` follows
/// one item wherever it moves, `items[1].done` whatever item is second, without the steps that only
/// moved another item there.
///
/// ```
/// change,activity            only changes and activities
/// !change !mutate            everything but changes and commit starts
/// TodoSample path:items      the todo list's steps that changed `items`
/// path:items[id: 2].done     the steps that changed the done of the item whose id is 2
/// level>=warning             the app's log messages from warnings up, and every other step
/// log level>=error           only the app's errors
/// ```
package struct TimelineFilter: Sendable, Equatable {
    /// Kinds to show (`nil`: all) and to hide.
    package var kinds: Set<Event.Category>?
    package var excludedKinds: Set<Event.Category> = []
    /// Sources to show (`nil`: all) and to hide, by instance number.
    package var sources: Set<UInt64>?
    package var excludedSources: Set<UInt64> = []
    /// Only steps that changed this path's value (or anything below it).
    package var changedPath: FollowedPath?
    /// The app's log messages below this level are hidden (`level>=warning`); other kinds as the
    /// other words say.
    package var lowestLevel: Logger.Level?

    /// Reads a filter typed as words; `sources` are the journal's, to resolve names.
    package init(parsing text: String, sources: [RecordedSource]) throws(TimelineFilterError) {
        for word in Self.words(text) {
            let excluded = word.hasPrefix("!")
            let body = excluded ? String(word.dropFirst()) : word
            if body.hasPrefix("level>=") {
                guard !excluded else { throw TimelineFilterError("'\(word)': a level can only be included") }
                let name = String(body.dropFirst("level>=".count))
                guard let level = Logger.Level(named: name) else { throw TimelineFilterError(Logger.Level.unknown(name)) }
                lowestLevel = level
                continue
            }
            if body.hasPrefix("path:") {
                guard !excluded else { throw TimelineFilterError("'\(word)': a key path can only be included") }
                do { changedPath = try FollowedPath(parsing: String(body.dropFirst(5))) } catch { throw TimelineFilterError(error.description) }
                continue
            }
            let kindNames = body.split(separator: ",").map(String.init)
            let kinds = kindNames.compactMap(Event.Category.init(named:))
            if !kinds.isEmpty, kinds.count == kindNames.count {
                if excluded { excludedKinds.formUnion(kinds) } else { self.kinds = (self.kinds ?? []).union(kinds) }
            } else if let source = sources.first(where: { $0.matches(body) }) {
                if excluded { excludedSources.insert(source.instanceID) } else { self.sources = (self.sources ?? []).union([source.instanceID]) }
            } else {
                throw TimelineFilterError("'\(VisibleText.escaped(body))' is neither a kind, a source, path:KEYPATH nor level>=LEVEL")
            }
        }
    }

    /// Whether a block may hold events this filter shows, from the index alone.
    func mayMatch(_ block: JournalBlock) -> Bool {
        if let sources, sources.isDisjoint(with: block.sources.keys) { return false }
        if !excludedSources.isEmpty, Set(block.sources.keys).isSubset(of: excludedSources) { return false }
        return true
    }

    /// Whether `event` is of a kind and a source the filter shows. Whether it changed the path is
    /// for a ``Matcher``, which follows the path through every step in order.
    package func matchesKindAndSource(_ event: RecordedEvent) -> Bool {
        if let kinds, !kinds.contains(event.kind) { return false }
        if excludedKinds.contains(event.kind) { return false }
        if let sources, !sources.contains(event.source.instanceID) { return false }
        if excludedSources.contains(event.source.instanceID) { return false }
        if let lowestLevel, let level = event.logLevel, level < lowestLevel { return false }
        return true
    }

    /// Decides, event by event in journal order, whether the timeline shows each: kinds and
    /// sources, and whether the step changed the path's value (blame's rule).
    package struct Matcher: Sendable {
        package let filter: TimelineFilter
        private var walker: PathWalker?

        package init(_ filter: TimelineFilter) {
            self.filter = filter
            walker = filter.changedPath.map { PathWalker(path: $0) }
        }

        /// Whether the timeline shows `event`; give it every event of the sources shown, in order.
        package mutating func shows(_ event: RecordedEvent) -> Bool {
            guard walker != nil else { return filter.matchesKindAndSource(event) }
            // The walker sees every step, shown or not: the next one's value depends on it.
            let verdict = walker?.verdict(event)
            guard filter.matchesKindAndSource(event), case .changed? = verdict else { return false }
            return true
        }
    }

    /// The filter `L` makes of `text` (the filter as typed, `nil` for none; `sources` the
    /// journal's): the app's log messages from all levels, to warnings and above, to errors and
    /// above, to none (`!log`), and back — the filter's other words kept as they are, each word
    /// read by the filter's own rule. With the `log` kind included, errors and above go back to
    /// every level (`!log` would leave nothing). `nil` when nothing is left to filter.
    package static func nextLogLevel(after text: String?, sources: [RecordedSource]) -> String? {
        let current = text.flatMap { try? TimelineFilter(parsing: $0, sources: sources) }
        var words: [String] = []
        for word in text.map(Self.words) ?? [] {
            guard let alone = try? TimelineFilter(parsing: word, sources: sources) else {
                words.append(word)
                continue
            }
            // The words that choose the messages shown are made anew below.
            if alone.lowestLevel != nil { continue }
            if alone.excludedKinds.contains(.log) {
                let others = alone.excludedKinds.subtracting([.log]).map(\.word).sorted()
                if !others.isEmpty { words.append("!" + others.joined(separator: ",")) }
                continue
            }
            words.append(word)
        }
        let hidden = current?.excludedKinds.contains(.log) == true
        let lowest = current?.lowestLevel
        if hidden {
            // Back to every message.
        } else if let lowest, lowest >= .error {
            if current?.kinds?.contains(.log) != true { words.append("!log") }
        } else if let lowest, lowest >= .warning {
            words.append("level>=error")
        } else {
            words.append("level>=warning")
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The words of a filter: spaces separate them, except inside `[…]` (`path:items[id: 2].done`).
    private static func words(_ text: String) -> [String] {
        var words: [String] = [], word = "", depth = 0
        for character in text {
            if character == "[" { depth += 1 }
            if character == "]" { depth = max(0, depth - 1) }
            if character == " ", depth == 0 {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}

/// Why a filter could not be read: one line for the status line.
package struct TimelineFilterError: Error, Equatable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
