/// What the writer learns once about a change path, rather than at every change through it: its
/// text, its parsed form, and whether it goes through a subscript whose index the key path does
/// not tell (`items[…].done`).
struct ChangeShape {
    /// The path as its key path prints it: `count`, `items[…].done`.
    let text: String
    /// The path parsed, when it names every step (no `[…]`).
    let path: StatePath?
    /// The path split at its subscripts, when it goes through one whose index must be found by
    /// comparing states.
    let subscripted: SubscriptedPath?
    /// Whether the path goes through a subscript whose index must be found by comparing states.
    let throughSubscript: Bool
    /// Whether the path names each of its fields and none of them is a secret's: a value changed
    /// through it is recorded as it is (``Redaction/visibleChange(at:value:options:state:)``
    /// decides the rest).
    let isShownByName: Bool

    init(text: String, redaction: Redaction) {
        self.text = text
        self.path = StatePath(recordedChange: text)
        self.throughSubscript = text.utf8.contains(0xE2) && text.contains("[…]")
        self.subscripted = throughSubscript ? SubscriptedPath(text) : nil
        self.isShownByName = Redaction.namesEveryField(text) && !redaction.redacts(path: text)
    }
}

/// The shapes of the paths one writer has seen, each worked out once: the same few paths change
/// again and again. Used on the writer's thread only.
struct ChangeShapes {
    /// The rules a shape's ``ChangeShape/isShownByName`` is decided by: the journal's, which do not
    /// change while it is open.
    let redaction: Redaction
    private var shapes: [String: ChangeShape] = [:]
    /// The key path of the last change and its shape: a key path without subscript arguments is
    /// one object for the life of the process, so the same field changed again is told by
    /// identity, without turning the key path into text.
    private var lastKeyPath: AnyKeyPath?
    private var lastShape: ChangeShape?
    /// Value types already asked whether they are lists seen through `Any` (``LiveElements``): a
    /// dynamic cast per change costs a protocol-conformance lookup.
    private var listTypes: [ObjectIdentifier: Bool] = [:]
    /// Beyond this many distinct paths (a dictionary keyed by ids, written key by key), new ones
    /// are worked out each time rather than kept.
    private static let limit = 4_096

    init(redaction: Redaction) {
        self.redaction = redaction
    }

    mutating func shape(of path: ChangedPath) -> ChangeShape {
        if let keyPath = path.keyPath, keyPath === lastKeyPath, let lastShape { return lastShape }
        let text = path.description
        let shape: ChangeShape
        if let known = shapes[text] {
            shape = known
        } else {
            shape = ChangeShape(text: text, redaction: redaction)
            if shapes.count < Self.limit { shapes[text] = shape }
        }
        lastKeyPath = path.keyPath
        lastShape = shape
        return shape
    }

    /// Whether `value` is an array, seen through `Any`.
    mutating func isList(_ value: Any) -> Bool {
        let type = ObjectIdentifier(Swift.type(of: value))
        if let known = listTypes[type] { return known }
        let isList = value is any LiveElements
        listTypes[type] = isList
        return isList
    }
}
