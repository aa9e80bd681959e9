@_spi(Tooling) import Rewind

extension CyclerType where State: Codable {
    /// This view model as a unit a recorded session can be replayed into, with the methods that
    /// re-send its dispatches by the names they were recorded under.
    ///
    /// ```swift
    /// let target = viewModel.replayTarget(resending: [
    ///     .dispatch("increment") { $0.increment() },
    ///     .dispatch("add") { (viewModel: CounterViewModel, amount: Int) in viewModel.add(amount) },
    /// ])
    /// ```
    ///
    /// A dispatch whose name is not listed cannot be re-sent: the replay puts back the state it
    /// reached and names it in the report (which fails a strict `expectReplay`). A payload comes from
    /// `dispatch(_:with:_:)`, which records it.
    public func replayTarget(resending dispatches: [ReplayableDispatch<Self>]) -> any ReplayTarget {
        let byName = Dictionary(dispatches.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        return CyclerReplayTarget(self, resend: { cycler, input in
            guard let dispatch = byName[input.name] else { return false }
            try dispatch.resend(cycler, input.value)
            return true
        }, inputProblem: { input in
            guard input.value != nil, let payload = byName[input.name]?.payloadType else { return nil }
            return .sending(input, as: payload)
        })
    }
}

/// A dispatch a replay can send again: its recorded name and the view-model method that makes it.
///
/// ```swift
/// .dispatch("reset") { $0.reset() }
/// .dispatch("add") { (viewModel: CounterViewModel, amount: Int) in viewModel.add(amount) }
/// ```
public struct ReplayableDispatch<Cycler: CyclerType> {
    let name: String
    /// The payload's type, when the dispatch carries one.
    var payloadType: (any Decodable.Type)?
    let resend: (Cycler, StateValue?) throws -> Void

    /// A dispatch without a payload, re-sent by calling `method`.
    public static func dispatch(_ name: String, _ method: @escaping (Cycler) -> Void) -> Self {
        Self(name: name, payloadType: nil) { cycler, _ in method(cycler) }
    }

    /// A dispatch recorded with `dispatch(_:with:_:)`: its payload is decoded as `Payload` and passed
    /// to `method`.
    public static func dispatch<Payload: Decodable>(_ name: String, _ method: @escaping (Cycler, Payload) -> Void) -> Self {
        Self(name: name, payloadType: Payload.self) { cycler, value in
            guard let value else { throw ReplayError.notRestorable("the dispatch '\(name)' was recorded without a payload") }
            method(cycler, try StateCapture.decode(Payload.self, from: value))
        }
    }
}

/// A view model as a ``ReplayTarget``: dispatches are re-sent by `resend`, a state is put back with
/// one commit.
final class CyclerReplayTarget<Cycler: CyclerType>: ReplayTarget where Cycler.State: Codable {
    private let cycler: Cycler
    private let resend: (Cycler, RecordedInput) throws -> Bool
    private let check: (RecordedInput) -> SchemaProblem?

    init(_ cycler: Cycler, resend: @escaping (Cycler, RecordedInput) throws -> Bool, inputProblem: @escaping (RecordedInput) -> SchemaProblem?) {
        self.cycler = cycler
        self.resend = resend
        self.check = inputProblem
    }

    func currentState() -> StateValue {
        StateCapture.capture(cycler.state.value)
    }

    func restore(to state: StateValue) throws {
        let restored: Cycler.State = try StateCapture.decode(Cycler.State.self, restoring: state, over: cycler.state.value)
        cycler.commit("restore") { $0.replace(restored) }
    }

    func replay(_ input: RecordedInput) throws -> Bool {
        try resend(cycler, input)
    }

    func set(logger: (any CycleLogging)?) {
        cycler.set(logger: logger)
    }

    func stateSchema() -> TypeSchema? {
        TypeSchema(of: cycler.state.value)
    }

    func inputProblem(_ input: RecordedInput) -> SchemaProblem? {
        check(input)
    }
}
