import Logging

/// Reads the grammar of ``Condition`` by recursive descent (no evaluation of code):
///
/// ```
/// condition  := or
/// or         := and ("||" and)*
/// and        := unary ("&&" unary)*
/// unary      := "!" unary | comparison
/// comparison := operand (("==" | "!=" | "<" | "<=" | ">" | ">=") operand)?
/// operand    := "(" or ")" | number | "text" | true | false | nil | nan | inf
///             | changed "(" keypath ")" | old "(" keypath ")"
///             | count "(" or ")" | old "(" count "(" or ")" ")"
///             | kind | name | seq | source | keypath
/// keypath    := a FollowedPath, with [*] for every element: items[*].done
/// ```
///
/// What it builds stays shallow, so that nothing that walks a condition can run out of stack: a
/// run of `||` or `&&` terms becomes a balanced tree (its depth grows with the log of its length),
/// and parentheses, `!` and `count(…)` may nest ``maximumNesting`` deep.
struct ConditionParser {
    private let text: String
    private let tokens: [Token]
    private var index = 0
    /// How deep the parentheses and `!` around the current token nest.
    private var nesting = 0

    /// How deep parentheses and `!` may nest: far beyond what a person writes, far within the stack.
    static let maximumNesting = 200

    struct Token: Equatable {
        enum Kind: Equatable {
            case word(String)
            case number(StateValue)
            case text(String)
            case symbol(String)
            case end
        }
        var kind: Kind
        /// Character offset in the text.
        var offset: Int
    }

    init(_ text: String) throws(ConditionSyntaxError) {
        self.text = text
        var tokenizer = Tokenizer(text)
        tokens = try tokenizer.all()
    }

    mutating func parseWhole() throws(ConditionSyntaxError) -> Condition.Node {
        guard current.kind != .end else { throw failure("expected a condition, such as count > 10") }
        let node = try parseOr()
        guard current.kind == .end else { throw failure("expected && or || or the end, found \(describe(current))") }
        return node
    }

    // MARK: Grammar

    private mutating func parseOr() throws(ConditionSyntaxError) -> Condition.Node {
        var terms = [try parseAnd()]
        while current.kind == .symbol("||") {
            advance()
            terms.append(try parseAnd())
        }
        return Self.balanced(terms[...], joinedBy: Condition.Node.or)
    }

    private mutating func parseAnd() throws(ConditionSyntaxError) -> Condition.Node {
        var terms = [try parseUnary()]
        while current.kind == .symbol("&&") {
            advance()
            terms.append(try parseUnary())
        }
        return Self.balanced(terms[...], joinedBy: Condition.Node.and)
    }

    /// `terms` joined by `join` as a balanced tree: `a || b || c || d` as `(a || b) || (c || d)`,
    /// which means the same and is evaluated in the same order, left to right.
    private static func balanced(_ terms: ArraySlice<Condition.Node>, joinedBy join: (Condition.Node, Condition.Node) -> Condition.Node) -> Condition.Node {
        guard terms.count > 1 else { return terms.first! }
        let middle = terms.startIndex + terms.count / 2
        return join(balanced(terms[..<middle], joinedBy: join), balanced(terms[middle...], joinedBy: join))
    }

    private mutating func parseUnary() throws(ConditionSyntaxError) -> Condition.Node {
        if current.kind == .symbol("!") {
            try nest()
            advance()
            defer { nesting -= 1 }
            return .not(try parseUnary())
        }
        return try parseComparison()
    }

    /// Goes one level deeper, refusing to go beyond ``maximumNesting``.
    private mutating func nest() throws(ConditionSyntaxError) {
        guard nesting < Self.maximumNesting else {
            throw failure("the condition nests more than \(Self.maximumNesting) deep (parentheses, ! and count)")
        }
        nesting += 1
    }

    private mutating func parseComparison() throws(ConditionSyntaxError) -> Condition.Node {
        let leftToken = current
        let left = try parseOperand()
        guard case .symbol(let symbol) = current.kind, let comparison = Condition.Comparison(rawValue: symbol) else {
            if current.kind == .symbol("=") { throw failure("write == to compare") }
            return left
        }
        advance()
        let rightToken = current
        let right = try parseOperand()
        // `kind == dispatch`: the other side names a kind, in the rows' words or as JSON names it.
        if left == .step(.kind) { return .compare(left, comparison, try kindValue(right, at: rightToken)) }
        if right == .step(.kind) { return .compare(try kindValue(left, at: leftToken), comparison, right) }
        // `level >= warning`: the other side names a level, compared by its rank.
        if left == .step(.level) { return .compare(left, comparison, try levelValue(right, at: rightToken)) }
        if right == .step(.level) { return .compare(try levelValue(left, at: leftToken), comparison, right) }
        return .compare(left, comparison, right)
    }

    private mutating func parseOperand() throws(ConditionSyntaxError) -> Condition.Node {
        let token = current
        switch token.kind {
        case .symbol("("):
            try nest()
            advance()
            defer { nesting -= 1 }
            let node = try parseOr()
            guard current.kind == .symbol(")") else { throw failure("expected ) to close the ( at column \(token.offset + 1)") }
            advance()
            return node
        case .number(let value):
            advance()
            return .literal(value)
        case .text(let value):
            advance()
            return .literal(.string(value))
        case .word(let word):
            advance()
            if word == "count", current.kind == .symbol("(") {
                return try parseCount(at: token, before: false)
            }
            if (word == "changed" || word == "old"), current.kind == .symbol("(") {
                advance()
                let pathToken = current
                guard case .word(let pathText) = pathToken.kind else { throw failure("expected a key path inside \(word)(…)") }
                advance()
                if word == "old", pathText == "count", current.kind == .symbol("(") {
                    let count = try parseCount(at: pathToken, before: true)
                    guard current.kind == .symbol(")") else { throw failure("expected ) after count(…)") }
                    advance()
                    return count
                }
                let path = try keyPath(pathText, at: pathToken)
                guard current.kind == .symbol(")") else { throw failure("expected ) after the key path") }
                advance()
                return word == "changed" ? .changed(path) : .old(path)
            }
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "nil", "null": return .literal(.null)
            case "nan": return .literal(.floatingPoint(.nan))
            case "inf", "infinity": return .literal(.floatingPoint(.infinity))
            default: break
            }
            if let field = Condition.StepField(rawValue: word) { return .step(field) }
            return .path(try keyPath(word.hasPrefix("state.") ? String(word.dropFirst(6)) : word, at: token))
        case .end:
            throw failure("expected a value or a key path at the end")
        default:
            throw failure("expected a value or a key path, found \(describe(token))")
        }
    }

    /// `count(…)`, its `(` next: the condition inside, counted over the elements its first path
    /// through `[*]` goes over — in the state before the step for `old(count(…))`.
    private mutating func parseCount(at token: Token, before: Bool) throws(ConditionSyntaxError) -> Condition.Node {
        try nest()
        advance()
        defer { nesting -= 1 }
        let inner = try parseOr()
        guard current.kind == .symbol(")") else { throw failure("expected ) to close the count( at column \(token.offset + 1)") }
        guard let over = Self.firstWildcardPath(in: inner)?.firstContainer else {
            throw ConditionSyntaxError(text: text, column: token.offset + 1,
                                       reason: "count(…) counts the elements a path through [*] goes over, such as count(items[*].done)")
        }
        // Inside a count over a list, another count over the same list would count it whole
        // again, not the element's part of it: refused rather than answered wrongly.
        if Self.counts(over, inside: inner) {
            throw ConditionSyntaxError(text: text, column: token.offset + 1,
                                       reason: "a count(…) inside count(…) over the same list \(over) is not supported")
        }
        advance()
        guard before else {
            // The elements counted are the state's after the step: what they were before has no element to match.
            if Self.readsBefore(inner, through: over) {
                throw ConditionSyntaxError(text: text, column: token.offset + 1,
                                           reason: "count(…) counts elements after the step; to count them before it, write old(count(…))")
            }
            return .count(inner, over: over, before: false)
        }
        return .count(try Self.before(inner, at: token, in: text), over: over, before: true)
    }

    /// The first path through `[*]` a condition reads, left to right, outside the counts nested
    /// in it (they count their own lists).
    private static func firstWildcardPath(in node: Condition.Node) -> Condition.KeyPath? {
        switch node {
        case .path(let path), .old(let path), .changed(let path): path.hasWildcard ? path : nil
        case .count: nil
        case .not(let inner): firstWildcardPath(in: inner)
        case .and(let left, let right), .or(let left, let right), .compare(let left, _, let right):
            firstWildcardPath(in: left) ?? firstWildcardPath(in: right)
        case .literal, .step: nil
        }
    }

    /// Whether a count nested in the condition counts the list at `over`.
    private static func counts(_ over: FollowedPath, inside node: Condition.Node) -> Bool {
        switch node {
        case .count(let inner, let nested, _): nested == over || counts(over, inside: inner)
        case .not(let inner): counts(over, inside: inner)
        case .and(let left, let right), .or(let left, let right), .compare(let left, _, let right):
            counts(over, inside: left) || counts(over, inside: right)
        case .literal, .path, .old, .changed, .step: false
        }
    }

    /// Whether the condition reads, before the step, a path through `over[*]`.
    private static func readsBefore(_ node: Condition.Node, through over: FollowedPath) -> Bool {
        switch node {
        case .old(let path), .changed(let path): path.hasWildcard && path.firstContainer == over
        case .not(let inner): readsBefore(inner, through: over)
        case .count(let inner, let nested, _): nested != over && readsBefore(inner, through: over)
        case .and(let left, let right), .or(let left, let right), .compare(let left, _, let right):
            readsBefore(left, through: over) || readsBefore(right, through: over)
        case .literal, .path, .step: false
        }
    }

    /// The condition read in the state before the step, as `old(count(…))` asks.
    private static func before(_ node: Condition.Node, at token: Token, in text: String) throws(ConditionSyntaxError) -> Condition.Node {
        switch node {
        case .path(let path), .old(let path): return .old(path)
        case .changed:
            throw ConditionSyntaxError(text: text, column: token.offset + 1, reason: "changed(…) cannot be read inside old(…)")
        case .count(let inner, let over, _): return .count(try before(inner, at: token, in: text), over: over, before: true)
        case .not(let inner): return .not(try before(inner, at: token, in: text))
        case .and(let left, let right): return .and(try before(left, at: token, in: text), try before(right, at: token, in: text))
        case .or(let left, let right): return .or(try before(left, at: token, in: text), try before(right, at: token, in: text))
        case .compare(let left, let comparison, let right):
            return .compare(try before(left, at: token, in: text), comparison, try before(right, at: token, in: text))
        case .literal, .step: return node
        }
    }

    // MARK: Pieces

    private func keyPath(_ text: String, at token: Token) throws(ConditionSyntaxError) -> Condition.KeyPath {
        do {
            return try Condition.KeyPath(parsing: text)
        } catch {
            // The path's own offset, counted from where the token starts (and its `state.` prefix).
            let prefix = self.text.dropFirst(token.offset).hasPrefix("state.") && !text.hasPrefix("state.") ? 6 : 0
            throw ConditionSyntaxError(text: self.text, column: token.offset + prefix + error.offset + 1, reason: error.reason)
        }
    }

    /// The kind a word or text names, as a literal of the rows' word.
    private func kindValue(_ node: Condition.Node, at token: Token) throws(ConditionSyntaxError) -> Condition.Node {
        guard let name = Self.word(node) else {
            throw ConditionSyntaxError(text: text, column: token.offset + 1, reason: "compare kind with a kind: \(Event.Category.namesForHelp)")
        }
        guard let category = Event.Category(named: name) else {
            throw ConditionSyntaxError(text: text, column: token.offset + 1, reason: "unknown kind '\(VisibleText.escaped(name))'; kinds are: \(Event.Category.namesForHelp)")
        }
        return .literal(.string(category.word))
    }

    /// The word a value names, as a bare word (`error`, read as a one-field path) or as text
    /// (`"error"`): what `kind` and `level` are compared with.
    private static func word(_ node: Condition.Node) -> String? {
        if case .path(let path) = node, !path.hasWildcard, path.segments[0].components.count == 1, case .key(let key) = path.segments[0].components[0] {
            return key
        }
        if case .literal(.string(let text)) = node { return text }
        return nil
    }

    /// The level a word or text names, as a literal of its rank; `nil` stays `nil` (a step that
    /// is no log message).
    private func levelValue(_ node: Condition.Node, at token: Token) throws(ConditionSyntaxError) -> Condition.Node {
        if node == .literal(.null) { return node }
        guard let name = Self.word(node) else {
            throw ConditionSyntaxError(text: text, column: token.offset + 1, reason: "compare level with a level: \(Logger.Level.namesForHelp)")
        }
        guard let level = Logger.Level(named: name) else {
            throw ConditionSyntaxError(text: text, column: token.offset + 1, reason: Logger.Level.unknown(name))
        }
        return .literal(.integer(Int64(level.rank)))
    }

    private var current: Token { tokens[min(index, tokens.count - 1)] }

    private mutating func advance() { index += 1 }

    private func failure(_ reason: String) -> ConditionSyntaxError {
        ConditionSyntaxError(text: text, column: current.offset + 1, reason: reason)
    }

    private func describe(_ token: Token) -> String {
        switch token.kind {
        case .word(let word): "'\(VisibleText.escaped(word))'"
        case .number(let value): "the number \(value.compactDescription(limit: 20))"
        case .text: "a text"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end"
        }
    }
}

extension ConditionParser {
    /// Splits a condition into tokens: symbols, numbers, quoted text, and words — a word being a
    /// key path with its dots and brackets (`items[id: "a b"].done`), read whole.
    struct Tokenizer {
        private let characters: [Character]
        private let text: String
        private var offset = 0
        private var read: [Token] = []

        init(_ text: String) {
            self.text = text
            characters = Array(text)
        }

        mutating func all() throws(ConditionSyntaxError) -> [Token] {
            while let token = try next() { read.append(token) }
            read.append(Token(kind: .end, offset: characters.count))
            return read
        }

        private static let symbols = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "="]

        private mutating func next() throws(ConditionSyntaxError) -> Token? {
            while offset < characters.count, characters[offset].isWhitespace { offset += 1 }
            guard offset < characters.count else { return nil }
            let start = offset
            let character = characters[offset]
            if character == "\"" { return Token(kind: .text(try quoted()), offset: start) }
            if character.isNumber || (character == "-" && offset + 1 < characters.count && characters[offset + 1].isNumber) {
                return Token(kind: .number(try number()), offset: start)
            }
            if character.isLetter || character == "_" { return Token(kind: .word(try word()), offset: start) }
            for symbol in Self.symbols where matches(symbol) {
                offset += symbol.count
                return Token(kind: .symbol(symbol), offset: start)
            }
            throw ConditionSyntaxError(text: text, column: start + 1, reason: "unexpected '\(VisibleText.escaped(String(character)))'")
        }

        private func matches(_ symbol: String) -> Bool {
            let symbolCharacters = Array(symbol)
            guard offset + symbolCharacters.count <= characters.count else { return false }
            return Array(characters[offset..<(offset + symbolCharacters.count)]) == symbolCharacters
        }

        private mutating func quoted() throws(ConditionSyntaxError) -> String {
            let start = offset
            offset += 1
            var value = ""
            while offset < characters.count {
                let character = characters[offset]
                offset += 1
                switch character {
                case "\"": return value
                case "\\":
                    guard offset < characters.count else { break }
                    let escaped = characters[offset]
                    offset += 1
                    switch escaped {
                    case "n": value.append("\n")
                    case "t": value.append("\t")
                    default: value.append(escaped)
                    }
                default: value.append(character)
                }
            }
            throw ConditionSyntaxError(text: text, column: start + 1, reason: "this text has no closing \"")
        }

        private mutating func number() throws(ConditionSyntaxError) -> StateValue {
            let start = offset
            offset += 1
            while offset < characters.count, characters[offset].isNumber || characters[offset] == "." || characters[offset] == "e" || characters[offset] == "E"
                    || ((characters[offset] == "-" || characters[offset] == "+") && (characters[offset - 1] == "e" || characters[offset - 1] == "E")) {
                offset += 1
            }
            let literal = String(characters[start..<offset])
            if let integer = Int64(literal) { return .integer(integer) }
            if let number = Double(literal), number.isFinite { return .floatingPoint(number) }
            throw ConditionSyntaxError(text: text, column: start + 1, reason: "'\(literal)' is not a number")
        }

        /// A key path: letters, digits, `_` and `.`, and bracket groups (quotes inside read whole).
        private mutating func word() throws(ConditionSyntaxError) -> String {
            let start = offset
            while offset < characters.count {
                let character = characters[offset]
                if character.isLetter || character.isNumber || character == "_" || character == "." {
                    offset += 1
                } else if character == "[" {
                    try skipBrackets()
                } else {
                    break
                }
            }
            return String(characters[start..<offset])
        }

        private mutating func skipBrackets() throws(ConditionSyntaxError) {
            let start = offset
            var inQuotes = false
            offset += 1
            while offset < characters.count {
                let character = characters[offset]
                offset += 1
                if inQuotes {
                    if character == "\\" { offset += 1 } else if character == "\"" { inQuotes = false }
                } else if character == "\"" {
                    inQuotes = true
                } else if character == "]" {
                    return
                }
            }
            throw ConditionSyntaxError(text: text, column: start + 1, reason: "this [ has no closing ]")
        }
    }
}
