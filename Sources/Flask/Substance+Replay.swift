import Rewind

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
        Flux.bus.perform { receiver.apply(key, payload: payload, lock: nil) }
        return true
    }

    func set(logger: (any CycleLogging)?) {
        substance.set(logger: logger)
    }

    func stateSchema() -> TypeSchema? {
        TypeSchema(of: substance.state)
    }
}
