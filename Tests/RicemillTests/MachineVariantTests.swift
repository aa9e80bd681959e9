@preconcurrency import OpenCombine
import Rewind
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
            "willDispatch isOn true", "change isIncrementEnabled = true", "activity isIncrementEnabled true", "didDispatch isOn",
            "willDispatch increment", "change count = 1", #"activity count "1""#, "activity total 1", "didDispatch increment",
            "willDispatch increment", "change count = 2", #"activity count "2""#, "activity total 2", "didDispatch increment",
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
