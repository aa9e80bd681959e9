/// One source's state folded through its steps: the one rule every reader of a journal uses for
/// "the state after a step" — `show`, `diff`, `export`, `blame`, replay, the viewer and the
/// OpenTelemetry export all fold through this type (directly, through ``StateWalker``, or, for
/// blame's projection, through ``PathWalker``, which follows the same rule).
///
/// - A state record sets the state: a keyframe whole, a diff applied to the state the previous
///   record left (``recorded``) — each diff was made from exactly that state.
/// - A change recorded inside a commit (no record of its own) is applied on top (``current``), so
///   the state after a change step holds that change.
/// - **The failure rule.** A change that does not apply (a place the recording could not name or
///   the state does not have — a missing field of an object is added, though — or a value set to
///   `nil`; see ``StateStep/applied(to:)``) leaves the state as it was; the commit's record, which
///   follows, brings it up to date. A diff that does not apply means the file was
///   altered: the source has no state until its next keyframe, since no state is better than a
///   wrong one.
package struct StateFold: Sendable, Equatable {
    /// The state as the source's state records left it: what the next diff applies to.
    package private(set) var recorded: StateValue?
    /// The state after the last step: ``recorded`` with the changes made since on top.
    package private(set) var current: StateValue?

    /// A fold that starts from a state known whole (or from none).
    package init(state: StateValue? = nil) {
        recorded = state
        current = state
    }

    /// A fold that starts from both of its states, as another fold left them.
    package init(recorded: StateValue?, current: StateValue?) {
        self.recorded = recorded
        self.current = current
    }

    /// Applies one step; returns whether the state moved (its new value is ``current``).
    @discardableResult
    package mutating func apply(_ step: StateStep) -> Bool {
        var old = ValueBefore.unknown
        return apply(step, old: &old)
    }

    /// ``apply(_:)``, telling what a change's path held just before it (``ValueBefore``): for a
    /// change without a record, read where the change is made (``StateStep/apply(_:at:to:)``);
    /// `old` is left as it is for a state record's step.
    package mutating func apply(_ step: StateStep, old: inout ValueBefore) -> Bool {
        if case .record(.diff(let changes)) = step {
            // Both states let go of the tree first, so that the diff edits it in place rather
            // than a copy of it (a diff of one field would otherwise copy every field).
            current = nil
            guard var state = recorded else { return false }
            recorded = nil
            recorded = (try? state.applyInPlace(changes)) != nil ? state : nil
            current = recorded
            return recorded != nil
        }
        if case .record = step {
            recorded = step.applied(to: recorded)
            current = recorded
            return recorded != nil
        }
        guard case .change(let text, let value) = step, var state = current else { return false }
        guard let path = StatePath(recordedChange: text) else { return false }
        // The fold lets go of the state while it changes, so that a state no one else holds is
        // changed in place (one the recorded state shares is copied once, by the change).
        current = nil
        defer { current = state }
        let (applied, before) = StateStep.apply(value, at: path, to: &state)
        old = before
        return applied
    }
}
