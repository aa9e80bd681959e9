@preconcurrency import OpenCombine
import Rewind
import Ricemill
import ReadmeChecking
import Testing

// The README's Ricemill example, compiled and run here; a test below checks that the README's code
// blocks appear in this file line for line (in order), so the README cannot drift from code that compiles.

final class ViewModel: Machine<ViewModel> {
    typealias Output = Store

    final class Input: BindableInputType {
        let increment = PassthroughSubject<Void, Never>()
        let decrement = PassthroughSubject<Void, Never>()
        @Published var isOn = false
    }

    final class Store: StoredOutputType {
        @Published var count: Int = 0
        @Published var isIncrementEnabled = false
        @Published var isDecrementEnabled = false
        @Published var toggleText = ""
    }

    struct Extra: ExtraType {}

    convenience init() {
        self.init(input: Input(), store: Store(), extra: Extra())
    }

    static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
        var cancellables: [AnyCancellable] = []

        let increment = input.increment
            .flatMap { _ in Just(store.count) }
            .map { $0 + 1 }
        let decrement = input.decrement
            .flatMap { _ in Just(store.count) }
            .map { $0 > 0 ? $0 - 1 : $0 }
        increment.merge(with: decrement)
            .assign(to: \.count, on: store)
            .store(in: &cancellables)

        input.$isOn
            .assign(to: \.isIncrementEnabled, on: store)
            .store(in: &cancellables)

        input.$isOn
            .combineLatest(store.$count)
            .map { $0 && $1 > 0 }
            .assign(to: \.isDecrementEnabled, on: store)
            .store(in: &cancellables)

        input.$isOn
            .map { $0 ? "Enabled" : "Disabled" }
            .assign(to: \.toggleText, on: store)
            .store(in: &cancellables)

        return Polished(cancellables: cancellables)
    }
}

@Suite("Ricemill README example")
struct RicemillReadmeExampleTests {
    @Test("the README's usage runs as it says")
    func usage() {
        let viewModel = ViewModel()
        viewModel.set(logger: ConsoleLogger())
        let isOn: Binding<Bool> = viewModel.input.isOn
        isOn.wrappedValue = true
        viewModel.input.increment.send()
        let count: Int = viewModel.output.count                       // 1
        let countChanges: Published<Int>.Publisher = viewModel.output.$count

        #expect(count == 1)
        #expect(viewModel.output.toggleText == "Enabled")
        #expect(viewModel.output.isDecrementEnabled)
        var latest: Int?
        let subscription = countChanges.sink { latest = $0 }
        #expect(latest == 1)
        subscription.cancel()
    }

    @Test("every Swift block of the README's Ricemill section is in this file, line for line, in order")
    func readmeMatchesThisFile() throws {
        try DocumentedCode.expectBlocks(ofArticle: "Ricemill", appearIn: #filePath)
    }
}
