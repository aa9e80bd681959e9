/// Named values recorded as one object state, in the order given.
///
/// Some units keep their state spread over properties rather than in one value — a Ricemill store's
/// `@Published` properties, a Unio state's relays. Their frameworks read the current values into a
/// `StateFields` and log that; it is captured as an object with one field per name (secrets redacted
/// by name as for any other field), so a journal shows such a state like any struct.
///
/// ```swift
/// let state = StateFields([("count", store.count), ("isOn", store.isOn)])
/// StateCapture.capture(state)  // {count: 3, isOn: true}
/// ```
public struct StateFields: @unchecked Sendable {
    // Unchecked: like `LoggedValue`, the values are read after capture, never written.

    /// The fields, in order.
    public let fields: [(name: String, value: Any)]

    /// Wraps the fields.
    public init(_ fields: [(name: String, value: Any)]) {
        self.fields = fields
    }
}
