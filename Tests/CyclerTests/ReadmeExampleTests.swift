import Cycler
import Rewind
import Synchronization
import Testing

// The README's example, compiled and run here so the README cannot drift from the code.

final class CounterViewModel: CyclerType {
    enum Activity { case didReachTen }
    struct State: Codable { var count = 0; var title = "Clicks" }

    let state: Storage<State> = .init(.init())

    func increment() {
        dispatch("increment") { context in
            context.commit("add one") { state in
                state.updateIfChanged(state.value.count + 1, \.count)
            }
            if context.currentState?.count == 10 { context.emit(.didReachTen) }
        }
    }
}

@Suite("README example")
struct ReadmeExampleTests {
    @Test("the console logger prints the events and the diff shown in the README")
    func consoleLoggerOnACounter() throws {
        let printed = Mutex<[String]>([])
        let viewModel = CounterViewModel()
        viewModel.set(logger: ConsoleLogger { line in printed.withLock { $0.append(line) } })
        viewModel.increment()

        let lines = printed.withLock { $0 }
        for line in lines { print("README:", line) }
        try #require(lines.count == 6 + 5)
        #expect(lines[1].contains("willDispatch  increment"))
        #expect(lines[3].contains("change") && lines[3].hasSuffix("count = 1"))
        #expect(Array(lines[5...9]) == ["  {", "-   count: 0", "+   count: 1", "    … 1 unchanged", "  }"])
        #expect(lines[10].contains("didDispatch   increment"))
    }
}
