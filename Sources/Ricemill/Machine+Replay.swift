@preconcurrency import OpenCombine
import ReactiveRecording
@_spi(Tooling) import Rewind

extension PrimitiveMachine {
    /// This machine as a unit a recorded session can be replayed into: input values are sent again
    /// through the input's subjects and `@Published` properties, the store is restored property by
    /// property.
    public var replayTarget: any ReplayTarget { core.replayTarget }
}

extension AnyResolverBasedMachine {
    /// This machine as a unit a recorded session can be replayed into.
    public var replayTarget: any ReplayTarget { core.replayTarget }
}

/// A machine as a ``ReplayTarget``.
final class MachineReplayTarget: ReplayTarget {
    private let core: MachineCore

    init(_ core: MachineCore) {
        self.core = core
    }

    func currentState() -> StateValue {
        StateCapture.capture(core.recorder.currentState())
    }

    func restore(to state: StateValue) throws {
        try RecordedNames.restore(state, into: core.store)
    }

    func replay(_ input: RecordedInput) throws -> Bool {
        try RecordedNames.replay(input, into: core.input, through: core.recorder)
    }

    func set(logger: (any CycleLogging)?) {
        core.recorder.set(logger: logger)
    }

    func stateSchema() -> TypeSchema? {
        TypeSchema(of: core.recorder.currentState())
    }

    func inputProblem(_ input: RecordedInput) -> SchemaProblem? {
        RecordedNames.problem(sending: input, into: core.input)
    }
}

extension MachineCore {
    var replayTarget: any ReplayTarget { MachineReplayTarget(self) }
}

extension Published: ReplayableInput, RestorableProperty {
    package var replayValueType: Any.Type { Value.self }

    /// Sets the property through its publisher, as a write to the property would: subscribers see
    /// the new value.
    func set(_ value: Value) {
        var shared = self
        var publisher = shared.projectedValue
        Just(value).assign(to: &publisher)
    }

    package func replaySend(_ value: StateValue?) throws {
        set(try StateCapture.decode(Value.self, from: value) as! Value)
    }

    package func restorer(for value: StateValue) throws -> () -> Void {
        let restored = try StateCapture.decode(Value.self, restoring: value, over: currentValue()) as! Value
        return { set(restored) }
    }
}
