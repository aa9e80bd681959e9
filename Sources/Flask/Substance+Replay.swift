@_spi(Tooling) import Rewind

extension Substance {
    /// This substance as a unit a recorded session can be replayed into: recorded mixers are
    /// applied again with their payloads (to this substance alone), a state is put back with one
    /// mix. Chained mixes are closures: a replay puts back the state they reached.
    public var replayTarget: any ReplayTarget {
        SubstanceReplayTarget(self)
    }
}

/// A substance as a ``ReplayTarget``.
final class SubstanceReplayTarget<T: State>: ReplayTarget {
    private let substance: Substance<T>

    init(_ substance: Substance<T>) {
        self.substance = substance
    }

    func currentState() -> StateValue {
        StateCapture.capture(substance.state)
    }

    func restore(to state: StateValue) throws {
        substance.replaceState(with: try StateCapture.decode(T.self, restoring: state, over: substance.state), named: "restore")
    }

    func replay(_ input: RecordedInput) throws -> Bool {
        guard let receiver = substance as? any MixerReceiving, let key = receiver.mixerKey(named: input.name) else { return false }
        let payload = StateKeys.plainValue(input.value) as? MixerPayload
        substance.scope.bus.perform { receiver.apply(key, payload: payload, lock: nil, callSite: .unknown) }
        return true
    }

    func set(logger: (any CycleLogging)?) {
        substance.set(logger: logger)
    }

    func stateSchema() -> TypeSchema? {
        TypeSchema(of: substance.state)
    }
}

extension Flux {
    /// The flux as a unit a replay binds: it has no state and no inputs (its locks and releases
    /// are what the substances' mixers do, and happen again when they are replayed), but binding
    /// it lets a re-record record its events again rather than drop them.
    ///
    /// ```swift
    /// expectReplay(of: path, driving: ["board": board.replayTarget, "Flux": Flask.bus.replayTarget])
    /// ```
    public var replayTarget: any ReplayTarget {
        FluxReplayTarget(self)
    }
}

/// The flux as a ``ReplayTarget``: nothing to compare, send or put back.
final class FluxReplayTarget: ReplayTarget {
    private let flux: Flux

    init(_ flux: Flux) {
        self.flux = flux
    }

    func currentState() -> StateValue { .null }

    func restore(to state: StateValue) throws {}

    func replay(_ input: RecordedInput) throws -> Bool { false }

    func set(logger: (any CycleLogging)?) {
        flux.set(logger: logger)
    }
}
