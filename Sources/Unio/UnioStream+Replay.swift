import ReactiveRecording
@_spi(Tooling) import Rewind

extension PrimitiveStream {
    /// This stream as a unit a recorded session can be replayed into: input values are sent again
    /// through the input's relays and subjects, the state is restored relay by relay.
    ///
    /// The target keeps the stream alive — its logic's subscriptions go with it — so a stream
    /// made only to be replayed into (`Replay.Setup(driving: ["Search": SearchStream().replayTarget])`)
    /// still answers its inputs.
    public var replayTarget: any ReplayTarget {
        StreamReplayTarget(stream: self, input: rawInput, state: state, recorder: recorder)
    }
}

/// A stream as a ``ReplayTarget``.
final class StreamReplayTarget: ReplayTarget {
    /// The stream, kept alive for as long as the replay is: its dispose bag holds the logic.
    private let stream: AnyObject
    private let input: Any
    private let state: Any
    private let recorder: UnitRecorder

    init(stream: AnyObject, input: Any, state: Any, recorder: UnitRecorder) {
        self.stream = stream
        self.input = input
        self.state = state
        self.recorder = recorder
    }

    func currentState() -> StateValue {
        StateCapture.capture(recorder.currentState())
    }

    func restore(to state: StateValue) throws {
        try RecordedNames.restore(state, into: self.state)
    }

    func replay(_ input: RecordedInput) throws -> Bool {
        try RecordedNames.replay(input, into: self.input, through: recorder)
    }

    func set(logger: (any CycleLogging)?) {
        recorder.set(logger: logger)
    }

    func stateSchema() -> TypeSchema? {
        TypeSchema(of: recorder.currentState())
    }

    func inputProblem(_ input: RecordedInput) -> SchemaProblem? {
        RecordedNames.problem(sending: input, into: self.input)
    }
}

extension PublishRelay: ReplayableInput {
    package var replayValueType: Any.Type { Element.self }

    package func replaySend(_ value: StateValue?) throws {
        accept(try StateCapture.decode(Element.self, from: value) as! Element)
    }
}

extension BehaviorRelay: ReplayableInput, RestorableProperty {
    package var replayValueType: Any.Type { Element.self }

    package func replaySend(_ value: StateValue?) throws {
        accept(try StateCapture.decode(Element.self, from: value) as! Element)
    }

    package func restorer(for value: StateValue) throws -> () -> Void {
        let restored = try StateCapture.decode(Element.self, restoring: value, over: self.value) as! Element
        return { self.accept(restored) }
    }
}

extension PublishSubject: ReplayableInput {
    package var replayValueType: Any.Type { Element.self }

    package func replaySend(_ value: StateValue?) throws {
        onNext(try StateCapture.decode(Element.self, from: value) as! Element)
    }
}

extension BehaviorSubject: ReplayableInput, RestorableProperty {
    package var replayValueType: Any.Type { Element.self }

    package func replaySend(_ value: StateValue?) throws {
        onNext(try StateCapture.decode(Element.self, from: value) as! Element)
    }

    package func restorer(for value: StateValue) throws -> () -> Void {
        let restored = try StateCapture.decode(Element.self, restoring: value, over: lastValue as Any) as! Element
        return { self.onNext(restored) }
    }
}
