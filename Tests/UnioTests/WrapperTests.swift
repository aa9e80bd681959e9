import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import Testing
import Unio

/// A stream with every kind of input and output, whose logic records how it was called.
final class ProbeStream: UnioStream<ProbeStream> {
    struct Input: InputType {
        let text = PublishRelay<String>()
        let count = BehaviorRelay<Int>(value: 0)
        let tap = PublishSubject<Void>()
    }

    struct Output: OutputType {
        let echoed: Observable<String>
        let total: BehaviorRelay<Int>
        let isEnabled: BehaviorSubject<Bool>
        let taps: Property<Int>
        let double: Computed<Int>
    }

    struct State: StateType {
        let total = BehaviorRelay<Int>(value: 0)
        let taps = BehaviorRelay<Int>(value: 0)
    }

    struct Extra: ExtraType {
        let bindCalls: Locked<[(state: State, extra: Int)]>
        let marker: Int
    }

    static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
        let state = dependency.state
        dependency.extra.bindCalls.withLock { $0.append((state, dependency.extra.marker)) }
        dependency.inputObservables.count
            .bind(to: state.total)
            .disposed(by: disposeBag)
        dependency.inputObservables.tap
            .map { _ in state.taps.value + 1 }
            .bind(to: state.taps)
            .disposed(by: disposeBag)
        let isEnabled = BehaviorSubject<Bool>(value: false)
        dependency.inputObservable(for: \.text)
            .map { !$0.isEmpty }
            .bind(to: isEnabled)
            .disposed(by: disposeBag)
        return Output(
            echoed: dependency.inputObservables.text.map { $0.uppercased() }.asObservable(),
            total: state.total,
            isEnabled: isEnabled,
            taps: Property(state.taps),
            double: Computed { state.total.value * 2 }
        )
    }
}

func makeProbe(calls: Locked<[(state: ProbeStream.State, extra: Int)]> = Locked([])) -> ProbeStream {
    ProbeStream(input: .init(), state: .init(), extra: .init(bindCalls: calls, marker: 42))
}

struct Failure: Error, Equatable {}

@Suite("Unio wrappers")
struct WrapperTests {
    @Test("input wrappers reach relays as function calls and relays and subjects as observers")
    func inputs() {
        let stream = makeProbe()
        var echoed: [String] = []
        let subscription = stream.output.echoed.subscribe(onNext: { echoed.append($0) })
        stream.input.text("hello")
        stream.input.text.onNext("again")
        stream.input.count(3)
        stream.input.count.onNext(5)
        stream.input.tap.onNext(())
        stream.input.tap.onNext()
        subscription.cancel()
        #expect(echoed == ["HELLO", "AGAIN"])
        #expect(stream.output.total.value == 5)
        let taps: Property<Int> = stream.output.taps
        #expect(taps.value == 2)
    }

    @Test("output wrappers: observables, Property.value, throwableValue() and computed values")
    func outputs() throws {
        let stream = makeProbe()
        let total: Property<Int> = stream.output.total
        var seen: [Int] = []
        let subscription = total.asObservable().subscribe(onNext: { seen.append($0) })
        stream.input.count(4)
        subscription.cancel()
        #expect(seen == [0, 4])
        #expect(total.value == 4)
        #expect(stream.output.double == 8)

        let isEnabled: ThrowableProperty<Bool> = stream.output.isEnabled
        #expect(try isEnabled.throwableValue() == false)
        stream.input.text("x")
        #expect(try isEnabled.throwableValue() == true)

        let failing = BehaviorSubject<Int>(value: 1)
        let property = ThrowableProperty(failing)
        failing.onError(Failure())
        #expect(throws: Failure.self) { try property.throwableValue() }
    }

    @Test("bind is called exactly once, at creation, with the stream's state and extra")
    func bindOnce() {
        let calls = Locked<[(state: ProbeStream.State, extra: Int)]>([])
        let stream = makeProbe(calls: calls)
        stream.input.count(9)
        let recorded = calls.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first?.extra == 42)
        // The state given to bind is the one the stream keeps: its relay now holds the input.
        #expect(recorded.first?.state.total.value == 9)
    }

    @Test("the dependency forwards each input's values to the logic, by name and by key path")
    func dependencyForwarding() throws {
        let stream = makeProbe()
        let isEnabled: ThrowableProperty<Bool> = stream.output.isEnabled
        stream.input.text("a")                  // reaches bind through inputObservable(for: \.text)
        #expect(try isEnabled.throwableValue())
        stream.input.text("")
        #expect(try !isEnabled.throwableValue())
        stream.input.count(11)                  // through inputObservables.count
        #expect(stream.output.total.value == 11)
        stream.input.tap.onNext()               // a subject, through inputObservables.tap
        #expect(stream.output.taps.value == 1)
    }

    @Test("AnyUnioStream keeps the real stream alive until the wrapper goes")
    func typeErasure() {
        weak var real: ProbeStream?
        var erased: AnyUnioStream<ProbeStream.Input, ProbeStream.Output>?
        do {
            let stream = makeProbe()
            real = stream
            erased = AnyUnioStream(stream)
        }
        #expect(real != nil)
        erased?.input.count(2)
        #expect(erased?.output.total.value == 2)
        erased = nil
        #expect(real == nil)
    }

    @Test("relays never end; subjects fail and complete")
    func relaysAndSubjects() {
        let relay = PublishRelay<Int>()
        var relayed: [Int] = []
        var relayEnded = false
        let first = relay.subscribe(onNext: { relayed.append($0) }, onCompleted: { relayEnded = true })
        relay.accept(1)
        relay.onCompleted()
        relay.onError(Failure())
        relay.accept(2)
        #expect(relayed == [1, 2] && !relayEnded)

        let subject = PublishSubject<Int>()
        var failed = false
        let second = subject.subscribe(onError: { _ in failed = true })
        subject.onError(Failure())
        #expect(failed)
        first.cancel()
        second.cancel()
    }

    @Test("a dispose bag cancels its subscriptions when it goes")
    func disposeBag() {
        let relay = PublishRelay<Int>()
        var seen: [Int] = []
        var bag: DisposeBag? = DisposeBag()
        relay.subscribe(onNext: { seen.append($0) }).disposed(by: bag!)
        relay.accept(1)
        bag = nil
        relay.accept(2)
        #expect(seen == [1])
    }
}
