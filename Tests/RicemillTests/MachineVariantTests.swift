@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import Ricemill
import Testing

/// The README's first shape: a plain input of subjects, a store, and a separate output of a
/// publisher, a `@Published` value and a `CurrentValueSubject`, made by a separate resolver.
enum CounterResolver: ResolverType {
    struct Input: InputType {
        let increment = PassthroughSubject<Void, Never>()
        let isOn = PassthroughSubject<Bool, Never>()
    }

    final class Output: OutputType {
        let count: AnyPublisher<String?, Never>
        @Published var isIncrementEnabled: Bool = false
        let total = CurrentValueSubject<Int, Never>(0)

        init(count: AnyPublisher<String?, Never>) {
            self.count = count
        }
    }

    final class Store: StoreType {
        @Published var count = 0
        @Published var isIncrementEnabled: Bool = false
    }

    struct Extra: ExtraType {}

    static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
        var cancellables: [AnyCancellable] = []
        input.increment
            .flatMap { _ in Just(store.count) }
            .map { $0 + 1 }
            .assign(to: \.count, on: store)
            .store(in: &cancellables)
        input.isOn
            .assign(to: \.isIncrementEnabled, on: store)
            .store(in: &cancellables)
        let output = Output(count: store.$count.map(String.init).map(Optional.some).eraseToAnyPublisher())
        store.$isIncrementEnabled
            .assign(to: \.isIncrementEnabled, on: output)
            .store(in: &cancellables)
        store.$count
            .sink { output.total.send($0) }
            .store(in: &cancellables)
        return Polished(output: output, cancellables: cancellables)
    }
}

@Suite("Ricemill machine variants")
struct MachineVariantTests {
    @Test("a machine over a separate resolver: subjects in, publisher, value and subject out; output values are activities")
    func separateResolver() {
        let logger = InMemoryLogger()
        let machine = AnyResolverBasedMachine(input: CounterResolver.Input(), store: CounterResolver.Store(), extra: CounterResolver.Extra(), resolver: CounterResolver.self)
        machine.set(logger: logger)
        var texts: [String?] = []
        let subscription = machine.output.count.sink { texts.append($0) }
        machine.input.isOn.send(true)
        machine.input.increment.send()
        machine.input.increment.send()
        subscription.cancel()

        #expect(texts == ["0", "1", "2"])
        #expect(machine.output.isIncrementEnabled)
        #expect(machine.output.total == 2)
        #expect(logger.eventsInSequenceOrder.map(summary) == [
            "created {count: 0, isIncrementEnabled: false}",
            #"activity count "0""#,
            "willDispatch isOn true", "willMutate", "change isIncrementEnabled = true", "didMutate", "activity isIncrementEnabled true", "didDispatch isOn",
            "willDispatch increment", "willMutate", "change count = 1", "didMutate", #"activity count "1""#, "activity total 1", "didDispatch increment",
            "willDispatch increment", "willMutate", "change count = 2", "didMutate", #"activity count "2""#, "activity total 2", "didDispatch increment",
        ])
    }

    @Test("PrimitiveMachine over the same resolver behaves the same")
    func primitiveMachine() {
        let machine = PrimitiveMachine<CounterResolver>(input: .init(), store: .init(), extra: .init())
        machine.input.increment.send()
        #expect(machine.output.total == 1)
        #expect(machine.eventSource.typeName == "CounterResolver")
    }

    @Test("a binding reads and writes through its closures, and reaches into values")
    func binding() {
        struct Settings { var volume = 3 }
        var settings = Settings()
        let binding = Binding(get: { settings }, set: { settings = $0 })
        let volume = binding.volume
        volume.wrappedValue = 7
        #expect(settings.volume == 7)
        #expect(binding.projectedValue.wrappedValue.volume == 7)
        let constant = Binding.constant(5)
        constant.wrappedValue = 9
        #expect(constant.wrappedValue == 5)
    }

    @Test("proxies made without a machine pass values straight through")
    func standaloneProxies() {
        let input = CounterResolver.Input()
        var received: [Bool] = []
        let subscription = input.isOn.sink { received.append($0) }
        InputProxy(input).isOn.send(true)
        SubjectProxy(input.isOn).send(false)
        subscription.cancel()
        #expect(received == [true, false])
    }
}

/// An input with two `@Published` properties of one type: bindings to them print as `<computed …>`
/// on Linux, so their names come from the input's stored properties.
enum TwoSwitches: ResolverType {
    final class Input: BindableInputType {
        @Published var sound = false
        @Published var vibration = true
    }
    final class Store: StoredOutputType {
        @Published var summary = ""
    }
    struct Extra: ExtraType {}
    typealias Output = Store

    static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
        let subscription = input.$sound.combineLatest(input.$vibration)
            .map { "\($0 ? "sound" : "-") \($1 ? "vibration" : "-")" }
            .assign(to: \.summary, on: store)
        return Polished(cancellables: [subscription])
    }
}

@Suite("Ricemill bindings of one type")
struct BindingNameTests {
    @Test("bindings of one type are named after their properties, whatever the values")
    func namesOfSameTypedBindings() throws {
        let logger = InMemoryLogger()
        let machine = AnyResolverBasedMachine(input: TwoSwitches.Input(), store: TwoSwitches.Store(), extra: TwoSwitches.Extra(), resolver: TwoSwitches.self)
        machine.set(logger: logger)
        machine.input.sound.wrappedValue = true        // told apart by value: only `sound` is false
        machine.input.vibration.wrappedValue = false   // both are true: told apart by what changes
        machine.input.vibration.wrappedValue = true    // remembered
        #expect(machine.output.summary == "sound vibration")
        let dispatches = logger.eventsInSequenceOrder.filter { $0.kind.category == .willDispatch }
        #expect(dispatches.map(\.name) == ["sound", "vibration", "vibration"])
        // The dispatch whose name was learned afterwards keeps its place: its commit follows it.
        let events = logger.eventsInSequenceOrder
        let second = try #require(events.firstIndex { $0.sequence == dispatches[1].sequence })
        #expect(events[second + 1].kind.category == .willMutate && events[second + 1].parent == dispatches[1].sequence)
        #expect(events[second + 2].kind.category == .change && events[second + 2].parent == dispatches[1].sequence)
    }
}
