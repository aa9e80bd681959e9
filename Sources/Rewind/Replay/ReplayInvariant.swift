/// A condition every replayed state must meet, checked on the live units once the work of each input
/// has settled (before the next input is sent, and at the end).
///
/// ```swift
/// replay.invariants.append(ReplayInvariant("quantity is never negative") { (state: Cart.State) in
///     state.quantity >= 0
/// })
/// ```
///
/// An invariant applies to the bound units whose state decodes as its `State` type and is skipped
/// for the others; ``ReplayReport/invariantChecks`` counts where it applied.
public struct ReplayInvariant: Sendable {
    /// What the invariant says, for the report.
    public let description: String
    /// `nil` when the state is not the invariant's type, else whether it holds.
    let check: @Sendable (StateValue) -> Bool?

    /// An invariant over states of type `State`.
    public init<State: Decodable & SendableMetatype>(_ description: String = "", _ holds: @escaping @Sendable (State) -> Bool) {
        self.description = description
        self.check = { value in
            guard let state = try? StateCapture.decode(State.self, from: value) else { return nil }
            return holds(state)
        }
    }
}
