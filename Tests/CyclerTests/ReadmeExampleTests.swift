import CombineOperators
import Cycler
import ReadmeChecking
import Rewind
import Synchronization
import Testing

// The README's Cycler examples, compiled and run here; a test below checks that the README's code
// blocks appear in this file line for line (in order), so the README cannot drift from the code.

final class CounterViewModel: ReplayableCycler {
    enum Action: Codable { case increment, add(Int) }
    enum Activity { case didReachTen }
    struct State: Codable { var count = 0; var title = "Clicks" }

    let state: Storage<State> = .init(.init())

    func handle(_ action: Action) {
        switch action {
        case .increment:
            commit("add one") { state in
                state.updateIfChanged(state.value.count + 1, \.count)
            }
        case .add(let amount):
            commit("add") { state in
                state.updateIfChanged(state.value.count + amount, \.count)
            }
        }
        if state.value.count == 10 { emit(.didReachTen) }
    }
}

final class NotesViewModel: CyclerType {
    struct State: Codable { var notes: [String] = [] }

    let state: Storage<State> = .init(.init())

    func add(_ note: String) {
        dispatch("add", with: note) { context, note in
            context.commit("append") { $0.update($0.value.notes + [note], \.notes) }
        }
    }

    func clear() {
        dispatch("clear") { context in
            context.commit("clear") { $0.update([], \.notes) }
        }
    }

    var replayTarget: any ReplayTarget {
        replayTarget(resending: [
            .dispatch("add") { (viewModel: NotesViewModel, note: String) in viewModel.add(note) },
            .dispatch("clear") { $0.clear() },
        ])
    }
}

actor Catalog {
    func names() -> [String] { ["Cycler", "Flask", "Ricemill", "Unio"] }
}

final class CatalogViewModel: CyclerType {
    struct State: Codable { var names: [String] = []; var isLoading = false }

    let state: Storage<State> = .init(.init())
    private let catalog: Catalog

    init(catalog: Catalog) { self.catalog = catalog }

    func load() {
        dispatch("load") { context in
            context.commit("start") { $0.update(true, \.isLoading) }
            Task { [catalog] in
                let names = await catalog.names()
                context.commit("loaded") { state in
                    state.update(names, \.names)
                    state.update(false, \.isLoading)
                }
            }
        }
    }
}

final class CheckoutViewModel: ReplayableCycler {
    enum Action: Codable { case checkout }
    struct State: Codable { var status = "open"; var orderID: String? }

    let state: Storage<State> = .init(.init())
    private let scheduler: SessionScheduler   // .realTime(queue:) in the app, .virtual(clock) in tests and replays

    init(scheduler: SessionScheduler) { self.scheduler = scheduler }

    func handle(_ action: Action) {
        let context = dispatchContext
        commit("submit") { $0.update("submitting", \.status) }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) {
            context.commit("confirm") { state in
                state.update("ORD-1001", \.orderID)
                state.update("confirmed", \.status)
            }
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
        viewModel.send(.increment)

        let lines = printed.withLock { $0 }
        for line in lines { print("README:", line) }
        try #require(lines.count == 6 + 5)
        #expect(lines[1].contains("willDispatch  increment"))
        #expect(lines[3].contains("change") && lines[3].hasSuffix("count = 1"))
        #expect(Array(lines[5...9]) == ["  {", "-   count: 0", "+   count: 1", "    … 1 unchanged", "  }"])
        #expect(lines[10].contains("didDispatch   increment"))
    }

    @Test("a dispatch with a payload records it; the view model's replay target re-sends it")
    func payloadDispatch() throws {
        let recorded = InMemoryLogger()
        let notes = NotesViewModel()
        notes.set(logger: recorded)
        notes.add("milk")
        let dispatch = try #require(recorded.events.first { $0.kind.category == .willDispatch })
        guard case .willDispatch(let input) = dispatch.kind else { return }
        #expect(dispatch.name == "add" && input?.tree() == .string("milk"))

        let today = NotesViewModel()
        #expect(try today.replayTarget.replay(RecordedInput(name: "add", value: .string("eggs"), step: 1)))
        #expect(try today.replayTarget.replay(RecordedInput(name: "rename", value: nil, step: 2)) == false)
        #expect(today.state.value.notes == ["eggs"])
    }

    @Test("async work in a Task finishes through the context, logged as caused by its dispatch")
    func taskInADispatch() async throws {
        let recorded = InMemoryLogger()
        let viewModel = CatalogViewModel(catalog: Catalog())
        viewModel.set(logger: recorded)
        let (loaded, continuation) = AsyncStream<Void>.makeStream()
        let token = viewModel.state.add { state in
            if !state.names.isEmpty { continuation.yield(()) }
        }
        viewModel.load()
        var iterator = loaded.makeAsyncIterator()
        _ = await iterator.next()
        viewModel.state.remove(subscriber: token)
        #expect(viewModel.state.value.names.count == 4 && !viewModel.state.value.isLoading)
        let load = try #require(recorded.events.first { $0.kind.category == .willDispatch && $0.name == "load" })
        let finished = try #require(recorded.events.first { $0.kind.category == .willMutate && $0.name == "loaded" })
        #expect(finished.parent == load.sequence)
    }

    @Test("async work on a scheduler: the commit comes when the clock says, caused by its dispatch")
    func schedulerInADispatch() throws {
        let recorded = InMemoryLogger()
        let clock = VirtualTimeScheduler()
        let viewModel = CheckoutViewModel(scheduler: .virtual(clock))
        viewModel.set(logger: recorded)
        viewModel.send(.checkout)
        #expect(viewModel.state.value.status == "submitting")
        clock.advance(by: .milliseconds(300))
        #expect(viewModel.state.value.status == "confirmed" && viewModel.state.value.orderID == "ORD-1001")
        let checkout = try #require(recorded.events.first { $0.kind.category == .willDispatch && $0.name == "checkout" })
        let confirm = try #require(recorded.events.first { $0.kind.category == .willMutate && $0.name == "confirm" })
        #expect(confirm.parent == checkout.sequence)
    }

    @Test("every Swift block of the README's Cycler section is in this file, line for line, in order")
    func readmeMatchesThisFile() throws {
        try DocumentedCode.expectBlocks(ofArticle: "AttachingALogger", appearIn: #filePath)
    }
}

extension ReadmeExampleTests {
    /// The README's first block, as it is used.
    func readmeUsage() {
        let viewModel = CounterViewModel()
        viewModel.set(logger: ConsoleLogger())   // or CycleLoggingSystem.bootstrap(ConsoleLogger()) for every unit
        viewModel.send(.increment)
    }
}

// The README's "Secrets" block: compiled here, not run (it changes the process's redaction rules).
struct LoginState: Codable {
    var user: String
    @Secret var password: String   // never recorded, printed or shown
    var apiToken: String           // redacted too: its name matches the default rules
}

func readmeRedactionRules() {
    Redaction.current = Redaction.default.adding(["iban", "licensePlate"])
}
