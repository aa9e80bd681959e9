import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind
import RewindSamples
import Ricemill
import Testing
import TestSupport

/// One event as a line that a test can compare: kind, name or path, and the value it carries.
func summary(_ event: Event) -> String {
    let options = CaptureOptions.current
    switch event.kind {
    case .willDispatch(let input):
        return "willDispatch \(event.name)" + (input.map { " " + $0.tree(options: options).compactDescription(limit: 80) } ?? "")
    case .didDispatch:
        return "didDispatch \(event.name)"
    case .change(let path, let value, _):
        return "change \(path) = \(value.tree(options: options).compactDescription(limit: 80))"
    case .activity(let value):
        return "activity \(event.name) \(value.tree(options: options).compactDescription(limit: 80))"
    case .created(let state):
        return "created " + (state.map { $0.tree(options: options).compactDescription(limit: 200) } ?? "")
    default:
        return event.kind.name
    }
}

@Suite("Ricemill machines, logged")
struct MachineLoggingTests {
    @Test("the README counter through its proxies: behaviour and the exact events it logs")
    func counterEndToEnd() throws {
        let logger = InMemoryLogger()
        let counter = RicemillCounterSample()
        counter.set(logger: logger)
        #expect(counter.output.toggleText == "Disabled")
        #expect(!counter.output.isIncrementEnabled)

        counter.input.isOn.wrappedValue = true
        #expect(counter.output.isIncrementEnabled && counter.output.toggleText == "Enabled")
        counter.input.increment.send()
        counter.input.increment.send()
        counter.input.decrement.send()
        counter.input.decrement.send()
        counter.input.decrement.send()
        #expect(counter.output.count == 0, "decrement never goes below zero")
        #expect(!counter.output.isDecrementEnabled)

        let events = logger.eventsInSequenceOrder
        #expect(events.map(summary) == [
            #"created {count: 0, isIncrementEnabled: false, isDecrementEnabled: false, toggleText: "Disabled"}"#,
            // A dispatch's changes are one commit, logged once every property has stored its
            // value, in the order the store declares them.
            "willDispatch isOn true",
            "willMutate",
            "change isIncrementEnabled = true",
            "change isDecrementEnabled = false",
            #"change toggleText = "Enabled""#,
            "didMutate",
            "didDispatch isOn",
            "willDispatch increment", "willMutate", "change count = 1", "change isDecrementEnabled = true", "didMutate", "didDispatch increment",
            "willDispatch increment", "willMutate", "change count = 2", "change isDecrementEnabled = true", "didMutate", "didDispatch increment",
            "willDispatch decrement", "willMutate", "change count = 1", "change isDecrementEnabled = true", "didMutate", "didDispatch decrement",
            "willDispatch decrement", "willMutate", "change count = 0", "change isDecrementEnabled = false", "didMutate", "didDispatch decrement",
            "willDispatch decrement", "willMutate", "change count = 0", "change isDecrementEnabled = false", "didMutate", "didDispatch decrement",
        ])
        // Every change and commit happened inside the dispatch that caused it; each commit holds
        // the state the store settled in.
        var dispatch: UInt64?
        for event in events {
            switch event.kind {
            case .willDispatch: dispatch = event.sequence
            case .change, .willMutate, .didMutate: #expect(event.parent == dispatch)
            default: break
            }
        }
        let settled = events.filter { $0.kind.category == .didMutate }.compactMap { $0.kind.state?.tree() }
        #expect(settled.last == counter.replayTarget.currentState())
        #expect(events.allSatisfy { $0.source.framework == .ricemill && $0.source.typeName == "RicemillCounterSample" })
    }

    @Test("a journal of the counter shows the store's state at every step")
    func journalStates() throws {
        let temporary = TemporaryDirectory()
        let path = temporary.file("ricemill.rewind")
        let journal = try JournalLogger(path: path)
        DemoSession.runRicemillCounter(logger: journal)
        journal.close()

        let reader = try JournalReader(path: path)
        let source = try #require(reader.sources.first)
        var expectedCount = 0
        var checked = 0
        for event in reader.events(matching: EventFilter()) where event.kind == .didDispatch {
            let state = try #require(try reader.state(of: source.source.instanceID, at: event.sequence))
            guard case .object(let fields) = state, case .integer(let count)? = fields["count"],
                  case .bool(let isOn)? = fields["isIncrementEnabled"], case .string(let text)? = fields["toggleText"] else {
                Issue.record("unexpected state \(state)")
                return
            }
            #expect(text == (isOn ? "Enabled" : "Disabled"))
            #expect(fields["isDecrementEnabled"] == .bool(isOn && count > 0))
            expectedCount = Int(count)
            checked += 1
        }
        #expect(checked == 10)
        #expect(expectedCount == 0)
    }

    @Test("a logger set later is told of the machine's creation, with the store's state then")
    func laterLoggerSeesCreation() {
        let first = InMemoryLogger()
        let second = InMemoryLogger()
        let counter = RicemillCounterSample()
        counter.set(logger: first)
        counter.input.increment.send()
        counter.set(logger: second)
        #expect(second.eventsInSequenceOrder.map(summary) == [
            #"created {count: 1, isIncrementEnabled: false, isDecrementEnabled: false, toggleText: "Disabled"}"#,
        ])
    }

    @Test("values piped in with subscribe(_:) are dispatches too")
    func subscribeToProxy() {
        let logger = InMemoryLogger()
        let counter = RicemillCounterSample()
        counter.set(logger: logger)
        let taps = PassthroughSubject<Void, Never>()
        let subscription = taps.subscribe(counter.input.increment)
        taps.send()
        taps.send()
        subscription.cancel()
        taps.send()
        #expect(counter.output.count == 2)
        #expect(logger.events.filter { $0.kind.category == .willDispatch }.map(\.name) == ["increment", "increment"])
    }

    @Test("objectWillChange fires before each store change, explicitly")
    func objectWillChange() {
        let counter = RicemillCounterSample()
        var counts: [Int] = []
        let subscription = counter.objectWillChange.sink { counts.append(counter.output.count) }
        counter.input.isOn.wrappedValue = true
        let afterToggle = counts.count
        counter.input.increment.send()
        subscription.cancel()
        #expect(afterToggle == 3, "isIncrementEnabled, isDecrementEnabled and toggleText")
        #expect(counts.count > afterToggle)
        #expect(counts.last == 0 || counts.last == 1)
        #expect(counts[afterToggle] == 0, "sent before the count is stored")
    }

    @Test("a machine is released with its last reference; its subscriptions are cancelled and it says so")
    func release() {
        let logger = InMemoryLogger()
        let cancelled = Locked(false)
        weak var released: ProbeMachine?
        var input: InputProxy<ProbeMachine.Input>?
        do {
            let machine = ProbeMachine(input: .init(), store: .init(), extra: .init(onCancel: { cancelled.withLock { $0 = true } }))
            machine.set(logger: logger)
            released = machine
            input = machine.input
            machine.input.ping.send(1)
        }
        #expect(released == nil)
        #expect(cancelled.withLock { $0 })
        input?.ping.send(2)
        #expect(logger.eventsInSequenceOrder.map(\.kind.category) == [.created, .willDispatch, .willMutate, .change, .didMutate, .didDispatch, .released])
    }
}

/// A machine whose resolver reports when its subscriptions are cancelled.
final class ProbeMachine: Machine<ProbeMachine> {
    typealias Output = Store
    struct Input: InputType {
        let ping = PassthroughSubject<Int, Never>()
    }
    final class Store: StoredOutputType {
        @Published var last = 0
    }
    struct Extra: ExtraType {
        let onCancel: @Sendable () -> Void
    }
    static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
        let subscription = input.ping
            .handleEvents(receiveCancel: extra.onCancel)
            .assign(to: \.last, on: store)
        return Polished(cancellables: [subscription])
    }
}
