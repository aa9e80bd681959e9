/// What one block's steps can hold, written beside the block so that a question about past
/// states (``Condition``) skips blocks that cannot answer it without decompressing them.
///
/// For each source with events in the block: the kinds and names of its events, the top-level
/// fields its steps changed, and, for the key paths it tracks (fields reached through objects
/// only, and `.count` of lists), every value those paths held — at each of the source's steps in
/// the block and in the state the source entered the block with. A path not listed may hold
/// anything; a summary only ever says what *cannot* be there.
///
/// ```swift
/// if let summary = reader.summary(ofBlock: 12), let counter = summary.sources[1],
///    let count = counter.values[["count"]], !count.mayEqual(.integer(10)) {
///     // no step of source 1 in block 12 has count == 10
/// }
/// ```
package struct BlockSummary: Sendable, Equatable {
    /// The CRC-32 of the compressed payload of the events block this summary describes: a
    /// summary is used only for the very block it was made for.
    var eventsPayloadCRC: UInt32
    /// Per source (by instance number): what its steps in the block can hold.
    package var sources: [UInt64: Source]

    /// What one source's steps in one block can hold.
    package struct Source: Sendable, Equatable {
        /// The kinds of the source's events in the block.
        package var kinds: Set<Event.Category> = []
        /// The names of its events; `nil` when there were too many to list.
        package var names: Set<String>? = []
        /// The first component of every key path its steps changed (`items` for a change to
        /// `items[3].done`); `nil` when any may have changed.
        package var changedFields: Set<String>? = []
        /// The values of the tracked key paths (by their field names, `["cart", "total"]`,
        /// `["items", "count"]`); a path not here is not tracked and may hold anything.
        package var values: [[String]: ValueSpan] = [:]

        /// An empty summary, for a source that has no events yet.
        package init() {}
    }
}

/// The values one key path held across a block's steps: a range for numbers, and which of the
/// other kinds of value it took (texts by value while they are few and short).
package struct ValueSpan: Sendable, Equatable {
    /// The lowest and highest number, rounded outwards where a 64-bit integer has no exact
    /// `Double`; `nil` when the path never held a number.
    package var numbers: ClosedRange<Double>?
    /// Whether it held `false`.
    package var holdsFalse = false
    /// Whether it held `true`.
    package var holdsTrue = false
    /// Whether it was missing or `nil`.
    package var holdsNil = false
    /// Whether it held a list, an object or an opaque leaf (a redacted value among them).
    package var holdsContainer = false
    /// The texts it held, when ``holdsOtherTexts`` is false; some of them otherwise.
    package var texts: Set<String> = []
    /// Whether it held texts not in ``texts`` (too many, or too long, to list).
    package var holdsOtherTexts = false
    /// Whether it held a NaN, which has no place in ``numbers``. A summary of format 4 or older did
    /// not say, so a reader takes every span of one as possibly holding NaN.
    package var holdsNaN = false

    /// A span that holds nothing yet.
    package init() {}

    /// How many texts a span lists before it says only "other texts".
    static let textLimit = 8
    /// The longest text (in UTF-8 bytes) a span lists.
    static let textLengthLimit = 64

    /// Adds a value the path held.
    mutating func add(_ value: StateValue) {
        switch value {
        case .null: holdsNil = true
        case .bool(let flag): if flag { holdsTrue = true } else { holdsFalse = true }
        case .integer(let number): add(number: Double(number), exact: Int64(exactly: Double(number)) == number)
        case .unsignedInteger(let number): add(number: Double(number), exact: UInt64(exactly: Double(number)) == number)
        case .floatingPoint(let number):
            if number.isNaN { holdsNaN = true } else { add(number: number, exact: true) }
        case .string(let text):
            if holdsOtherTexts || texts.contains(text) { return }
            if texts.count < Self.textLimit && text.utf8.count <= Self.textLengthLimit { texts.insert(text) } else { holdsOtherTexts = true }
        case .array, .object, .opaque: holdsContainer = true
        }
    }

    private mutating func add(number: Double, exact: Bool) {
        let low = exact ? number : number.nextDown, high = exact ? number : number.nextUp
        numbers = numbers.map { min($0.lowerBound, low)...max($0.upperBound, high) } ?? low...high
    }

    /// Whether the span may hold `value` (numbers compare by value, `3 == 3.0`).
    package func mayEqual(_ value: StateValue) -> Bool {
        // A text is held when it is listed, or when the span holds texts it does not list (a
        // long one among them): a span that lists all its texts holds no other.
        if case .string(let text) = value { return texts.contains(text) || holdsOtherTexts }
        var single = ValueSpan()
        single.add(value)
        return overlaps(single)
    }

    /// Whether some value of this span may equal some value of `other`.
    func overlaps(_ other: ValueSpan) -> Bool {
        if let mine = numbers, let theirs = other.numbers, mine.overlaps(theirs) { return true }
        if (holdsFalse && other.holdsFalse) || (holdsTrue && other.holdsTrue) || (holdsNil && other.holdsNil) { return true }
        if holdsNaN && other.holdsNaN { return true }
        if holdsContainer && other.holdsContainer { return true }
        if (holdsOtherTexts && (other.holdsOtherTexts || !other.texts.isEmpty)) || (other.holdsOtherTexts && !texts.isEmpty) { return true }
        return !texts.isDisjoint(with: other.texts)
    }

    /// The one value the span holds, when it holds exactly one that compares equal only to itself.
    var onlyValue: StateValue? {
        let kinds = [numbers != nil, holdsFalse, holdsTrue, holdsNil, holdsContainer, holdsOtherTexts || !texts.isEmpty, holdsNaN].filter { $0 }.count
        guard kinds == 1 else { return nil }
        if holdsNaN { return .floatingPoint(.nan) }
        if let numbers, numbers.lowerBound == numbers.upperBound { return .floatingPoint(numbers.lowerBound) }
        if holdsFalse { return .bool(false) }
        if holdsTrue { return .bool(true) }
        if holdsNil { return .null }
        if !holdsOtherTexts, texts.count == 1 { return .string(texts.first!) }
        return nil
    }
}
