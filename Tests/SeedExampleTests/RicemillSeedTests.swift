@preconcurrency import OpenCombine
import ReadmeChecking
import Ricemill
import Testing

// The Ricemill seed's examples (004, the English README), as written. Where the seed leaves a
// piece out (`Output`'s initializer, the `decrement` its resolver merges), the piece is added
// outside the marked regions.

final class ViewModel: AnyResolverBasedMachine<ViewModel.Input, ViewModel.Output> {
    // seed:begin
    struct Input: InputType {
        let increment = PassthroughSubject<Void, Never>()
        let isOn = PassthroughSubject<Bool, Never>()
    }
    // seed:end

    // seed:begin
    class Output: OutputType {
        let count: AnyPublisher<String?, Never>
        @Published var isIncrementEnabled: Bool
    // seed:end
        init(count: AnyPublisher<String?, Never>) {
            self.count = count
            isIncrementEnabled = false
        }
    // seed:begin
    }
    // seed:end

    // seed:begin
    class Store: StoreType {
        @Published var count = 0
        @Published var isIncrementEnabled: Bool = false
    }
    // seed:end

    struct Extra: ExtraType {}

    // seed:begin
    enum Resolver: ResolverType {
        typealias Input = ViewModel.Input
        typealias Output = ViewModel.Output
        typealias Store = ViewModel.Store
        typealias Extra = ViewModel.Extra
    // seed:end
    }

    convenience init() {
        self.init(input: Input(), store: Store(), extra: Extra(), resolver: Resolver.self)
    }
}

// seed:begin
extension ViewModel.Resolver {

    static func polish(input: Publishing<Input>,
                       store: Store,
                       extra: Extra) -> Polished<Output> {

         var cancellables: [AnyCancellable] = []

         let increment = input.increment
             .flatMap { _ in Just(store.count) }
             .map { $0 + 1 }
// seed:end
         let decrement = input.isOn.filter { !$0 }.map { _ in store.count - 1 }
// seed:begin

         increment.merge(with: decrement)
             .assign(to: \.count, on: store)
             .store(in: &cancellables)

         let count = store.$count
             .map(String.init)
             .map(Optional.some)
             .eraseToAnyPublisher()

         return Polished(output: Output(count: count),
                         cancellables: cancellables)
      }
}
// seed:end

/// The seed's "SwiftUI usage": a machine whose output is its store.
enum SwiftUIUsage {
    final class ViewModel: Machine<ViewModel> {
        // seed:begin
        typealias Output = Store

        final class Input: BindableInputType {
            let increment = PassthroughSubject<Void, Never>()
            @Published var isOn = false
        }

        final class Store: StoredOutputType {
            @Published var count: Int = 0
        }
        // seed:end

        struct Extra: ExtraType {}

        convenience init() {
            self.init(input: Input(), store: Store(), extra: Extra())
        }

        static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
            var cancellables: [AnyCancellable] = []
            input.increment.map { _ in store.count + 1 }.assign(to: \.count, on: store).store(in: &cancellables)
            return Polished(cancellables: cancellables)
        }
    }
}

@Suite("The Ricemill seed's examples")
struct RicemillSeedTests {
    @Test("inputs through typed subject proxies; the resolver's output")
    func proxiesAndResolver() {
        let viewModel = ViewModel()
        var counts: [String?] = []
        let subscription = viewModel.output.count.sink { counts.append($0) }
        let input = viewModel.input
        // seed:begin
        let increment: SubjectProxy<Void> = input.increment
        increment.send()
        let isOn: SubjectProxy<Bool> = input.isOn
        isOn.send(true)
        // seed:end
        isOn.send(false)
        #expect(counts == ["0", "1", "0"])
        subscription.cancel()
    }

    @Test("SwiftUI usage: a binding in, a value and its publisher out")
    func swiftUIUsage() {
        let viewModel = SwiftUIUsage.ViewModel()
        let isOn: Binding<Bool> = viewModel.input.isOn
        isOn.wrappedValue = true
        viewModel.input.increment.send()
        let count: Int = viewModel.output.count
        let publisher: Published<Int>.Publisher = viewModel.output.$count
        var published: [Int] = []
        let subscription = publisher.sink { published.append($0) }
        #expect(count == 1 && published == [1])
        subscription.cancel()
    }

    @Test("the code above is the seed's, as written")
    func asWritten() throws {
        try SeedText.expectRegions(of: #filePath, in: "004_d799f5c596aad1a4.txt")
    }
}
