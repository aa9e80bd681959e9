import Logging

/// A condition over one step of a recording — the state after the step, the state before it, and
/// the step itself — for questions like "the first step where `cart.total` went negative". `rewind
/// query`, `rewind watch` and the viewer's `w` read the same grammar:
///
/// ```
/// count > 10                          a key path compared with a value
/// cart.total < 0 && items.count >= 3   && || ! and parentheses; .count of a list or text
/// items[id: 3].done == true            list elements by id (or by position: items[2].done)
/// items[*].quantity < 0                some element (of a list, or value of a dictionary)
/// count(items[*].done) != doneCount    how many elements it holds for
/// changed(items[id: 3])                the step changed it
/// status != old(status)                old(…) is the value before the step
/// kind == mutated && changed(total) && !changed(items)
///                                      a commit that changed one but not the other
/// kind == dispatch && name == "add"    the step's kind (as rows say it), name, seq and source
/// kind == log && level >= error        an app's log message and its level (trace … critical)
/// state.name == "Ada"                  a state field named like a step field
/// ```
///
/// Values are numbers, `"text"`, `true`, `false` and `nil` (a path that is missing or nil). `==`
/// and `!=` compare any two values; `<`, `<=`, `>`, `>=` compare numbers with numbers and text with
/// text, and are false for anything else. A key path alone is true when its value is `true`.
///
/// A path through `[*]` stands for each element's value: a comparison holds when it holds for
/// some element (`items[*].done != true` — some item is not done), and never over an empty list.
/// `count(…)` counts the elements the condition inside holds for: there, paths through the same
/// `[*]` read the element being counted (`count(items[*].price > 10 && items[*].quantity > 0)`
/// counts items that are both). `count(…)` reads the state after the step; `old(count(…))` the
/// state before it.
///
/// "Before" is the state just before the step — except at a commit's end (`mutated`), where it is
/// the state when the commit began: so `old(…)` and `changed(…)` there speak of the whole commit,
/// and `kind == mutated && changed(a) && changed(b)` finds the commits that changed both (each
/// `change` step changes one path).
/// Parentheses, `!` and `count(…)` nest up to 200 deep; deeper is a syntax error, never a crash.
///
/// ```swift
/// let condition = try Condition(parsing: "cart.total < 0")
/// condition.isTrue(at: ConditionStep(event: event, before: before, after: after))
/// ```
public struct Condition: Sendable, Equatable, CustomStringConvertible {
    /// The condition as written.
    public let text: String
    let root: Node

    /// Reads a condition; a mistake is an error that names the column.
    public init(parsing text: String) throws(ConditionSyntaxError) {
        var parser = try ConditionParser(text)
        self.init(text: text, root: try parser.parseWhole())
    }

    /// `kind == log && level >= LEVEL`: the app's log messages at `lowest` or above, as the
    /// parser reads it — what `log --level` asks block summaries and the viewer marks errors with.
    package static func logMessages(from lowest: Logger.Level) -> Condition {
        Condition(
            text: "kind == log && level >= \(lowest.rawValue)",
            root: .and(
                .compare(.step(.kind), .equal, .literal(.string(Event.Category.log.word))),
                .compare(.step(.level), .greaterOrEqual, .literal(.integer(Int64(lowest.rank))))
            )
        )
    }

    private init(text: String, root: Node) {
        self.text = text
        self.root = root
        holdsOnlyAtLogMessages = Self.holdsOnlyAtLogMessages(root)
        readsBefore = Self.readsBefore(root)
        // Term by term of a top-level `||`: a term that does not read the state before, or cannot
        // hold at a commit's end, needs no commit's start (`count > 3 || (kind == change && changed(x))`).
        readsBeforeACommit = readsBefore && Self.terms(of: root).contains { Self.readsBefore($0) && Self.mayHoldAtACommitsEnd($0) }
    }

    /// The terms of a top-level `||`, or the condition itself.
    private static func terms(of node: Node) -> [Node] {
        guard case .or(let left, let right) = node else { return [node] }
        return terms(of: left) + terms(of: right)
    }

    /// Whether it reads the state before a step (`old(…)`, `changed(…)`).
    let readsBefore: Bool
    /// Whether it can hold only at one of the app's log messages: it requires `kind == log`, or
    /// compares the step's `level` with a level by anything but `!=` (a step that is no message has
    /// no level), in every term of a `||` and in some term of a `&&`. A flight recorder judges
    /// these at each message (and no other condition there: `filter != "all"` or
    /// `!(level >= error)` would hold at every message, whose logger has no state).
    package let holdsOnlyAtLogMessages: Bool

    /// What of it a flight recorder judges at the app's log messages: the whole condition when it
    /// holds only at one, else the terms of its top-level `||` that do (`level >= error` of
    /// `level >= error || count > 1000000`; the others are judged where a unit's state settles,
    /// where a message's terms never hold); `nil` when no term does.
    package var atLogMessages: Condition? {
        if holdsOnlyAtLogMessages { return self }
        let terms = Self.terms(of: root).filter(Self.holdsOnlyAtLogMessages)
        guard let first = terms.first else { return nil }
        return Condition(text: text, root: terms.dropFirst().reduce(first) { .or($0, $1) })
    }

    private static func holdsOnlyAtLogMessages(_ node: Node) -> Bool {
        switch node {
        case .compare(.step(.kind), .equal, .literal(.string(let word))), .compare(.literal(.string(let word)), .equal, .step(.kind)):
            word == Event.Category.log.word
        case .compare(.step(.level), let comparison, .literal(.integer)), .compare(.literal(.integer), let comparison, .step(.level)):
            comparison != .notEqual
        case .and(let left, let right): holdsOnlyAtLogMessages(left) || holdsOnlyAtLogMessages(right)
        case .or(let left, let right): holdsOnlyAtLogMessages(left) && holdsOnlyAtLogMessages(right)
        case .literal, .path, .old, .changed, .step, .not, .count, .compare: false
        }
    }
    /// Whether it reads the state before a step and may hold at a commit's end (see
    /// ``mayHold(in:source:sequences:)``).
    let readsBeforeACommit: Bool

    public var description: String { text }

    /// One node of a condition.
    indirect enum Node: Sendable, Equatable {
        case literal(StateValue)
        /// A key path's values after the step.
        case path(KeyPath)
        /// A key path's values before the step.
        case old(KeyPath)
        /// Whether the step changed a key path's values.
        case changed(KeyPath)
        /// How many elements of the list (or values of the dictionary) at `over` the condition
        /// holds for, in the state after the step (or before it, with `before`); paths through
        /// `over[*]` read the element being counted.
        case count(Node, over: FollowedPath, before: Bool)
        case step(StepField)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case compare(Node, Comparison, Node)
    }

    /// What a condition can ask of the step itself.
    enum StepField: String, Sendable, CaseIterable {
        case kind, name, seq, source
        /// A log message's level, as its rank (`trace` 0 … `critical` 6; `nil` for other steps),
        /// so that `level >= warning` orders levels by how severe they are.
        case level
    }

    enum Comparison: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">=", less = "<", greater = ">"
    }
}

/// What a condition is judged on: a step, and its source's state before and after it (the same
/// state when the step does not move it). Before a commit's end (`mutated`) is the state when the
/// commit began.
public struct ConditionStep: Sendable {
    public var event: RecordedEvent
    public var before: StateValue?
    public var after: StateValue?

    package init(event: RecordedEvent, before: StateValue?, after: StateValue?) {
        self.event = event
        self.before = before
        self.after = after
    }
}

/// Why a condition could not be read: where (a column, from 1) and what was expected there.
public struct ConditionSyntaxError: Error, Equatable, CustomStringConvertible {
    /// The condition as given.
    public var text: String
    /// The column (from 1) where reading failed.
    public var column: Int
    /// What was wrong there.
    public var reason: String

    /// One line: `malformed condition at column 9: expected a value — count > && x`; a long
    /// condition is shown around the column (`…((((count…`).
    public var description: String {
        "malformed condition at column \(column): \(reason) — \(VisibleText.escaped(Self.excerpt(of: text, around: column)))"
    }

    /// At most about 80 characters of `text` around `column`, cut with `…`.
    private static func excerpt(of text: String, around column: Int) -> String {
        let characters = Array(text)
        guard characters.count > 80 else { return text }
        let start = max(0, min(column - 41, characters.count - 80))
        let end = min(characters.count, start + 80)
        return (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
    }
}
