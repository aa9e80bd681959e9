import Foundation
import Logging
import LoggerProbes
import Synchronization
import Testing
@_spi(Tooling) @testable import Rewind

@Suite("Events and loggers", .serialized)
struct EventChannelTests {
    @Test("events carry increasing sequence numbers, both clocks, source, call site and parent")
    func eventFields() throws {
        let memory = InMemoryLogger()
        let source = EventSource(framework: .ricemill, typeName: "Counter", label: "main counter")
        let channel = EventChannel(source: source)
        let site = CallSite(file: "App/Counter.swift", function: "increment()", line: 12)
        let dispatch = channel.emit(.willDispatch(), name: "increment", description: "by one", callSite: site, to: memory)
        _ = DispatchScope.run(inside: dispatch) {
            channel.emit(.activity(LoggedValue("tick")), callSite: site, to: memory)
        }
        channel.emit(.didDispatch(duration: .microseconds(5)), name: "increment", callSite: site, parent: dispatch, to: memory)

        let events = memory.events
        #expect(events.map(\.kind.category) == [.willDispatch, .activity, .didDispatch])
        // Increasing, not consecutive: other suites take numbers from the same process-wide counter.
        #expect(events[0].sequence < events[1].sequence && events[1].sequence < events[2].sequence)
        #expect(events[0].parent == nil)
        #expect(events[1].parent == dispatch)
        #expect(events[2].parent == dispatch)
        #expect(events[0].name == "increment" && events[0].description == "by one")
        #expect(events[0].callSite.description == "Counter.swift:12")
        #expect(events[0].source === source)
        #expect(source.description == "main counter")
        #expect(events[1].time.monotonicNanoseconds >= events[0].time.monotonicNanoseconds)
        #expect(events[0].time.wallNanoseconds > 1_700_000_000 * 1_000_000_000)
        guard case .didDispatch(let duration) = events[2].kind else { Issue.record("kind"); return }
        #expect(duration == .microseconds(5))
    }

    @Test("a unit is announced once per logger, before anything it did, and released only if announced")
    func unitLifecycle() async {
        let first = InMemoryLogger(), second = InMemoryLogger()
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Counter"))
        let stateReads = Locked(0)
        let state: @Sendable () -> LoggedValue? = {
            stateReads.withLock { $0 += 1 }
            return LoggedValue(7)
        }
        #expect(channel.announcedLogger(state: state) == nil)
        channel.set(logger: first)
        // Eight threads ask at once: one `created`, with the lowest sequence number.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    if let logger = channel.announcedLogger(state: state) {
                        channel.emit(.willMutate, callSite: .unknown, to: logger)
                    }
                }
            }
        }
        let events = first.eventsInSequenceOrder
        #expect(events.map(\.kind.category) == [.created] + Array(repeating: .willMutate, count: 8))
        #expect(stateReads.withLock { $0 } == 1)
        // A new logger has not seen the unit made: the next event announces it again.
        channel.set(logger: second)
        _ = channel.announcedLogger(state: state)
        #expect(second.events.map(\.kind.category) == [.created])
        channel.release()
        channel.release()
        #expect(second.events.map(\.kind.category) == [.created, .released])
        #expect(channel.announcedLogger(state: state) == nil && channel.isReleased)
        // A unit never announced goes without a `released`.
        let silent = EventChannel(source: EventSource(framework: .flask, typeName: "Substance"))
        silent.set(logger: first)
        silent.release()
        #expect(first.events.allSatisfy { $0.source !== silent.source })
    }

    @Test("an in-memory logger keeps its latest events up to its capacity and counts what it dropped")
    func inMemoryCapacity() {
        let memory = InMemoryLogger(capacity: 3)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Counter"))
        let sequences = (0..<5).map { index in channel.emit(.activity(LoggedValue(index)), callSite: .unknown, to: memory) }
        #expect(memory.events.map(\.sequence) == Array(sequences.suffix(3)))
        #expect(memory.eventsDropped == 2 && memory.capacity == 3)
        memory.removeAll()
        #expect(memory.events.isEmpty && memory.eventsDropped == 0)
        #expect(InMemoryLogger().capacity == InMemoryLogger.defaultCapacity)
    }

    @Test("a unit uses its own logger, else the process-wide default, and fans out to several")
    func loggerSelection() {
        let fallback = InMemoryLogger(), own = InMemoryLogger(), second = InMemoryLogger()
        CycleLoggingSystem.bootstrap(fallback)
        defer { CycleLoggingSystem.bootstrap(nil) }
        let channel = EventChannel(source: EventSource(framework: .flask, typeName: "Substance"))
        #expect(channel.logger as? InMemoryLogger === fallback)
        channel.set(logger: MultiplexLogger([own, second]))
        if let logger = channel.logger { channel.emit(.released, callSite: CallSite(), to: logger) }
        // Other suites run in parallel and may log to the default meanwhile: look at this source only.
        #expect(own.events.count == 1 && second.events.count == 1)
        #expect(!fallback.events.contains { $0.source === channel.source })
        channel.set(logger: nil)
        #expect(channel.logger as? InMemoryLogger === fallback)
        CycleLoggingSystem.bootstrap(nil)
        #expect(channel.logger == nil)
    }

    @Test("a multiplexer hands a record-taking child the unit's record, and its other children one event made from it, redacted alike")
    func multiplexerSplitsRecordsAndEvents() throws {
        let keeper = RecordKeeper(), first = InMemoryLogger(), second = InMemoryLogger()
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "SignIn"))
        let logger = MultiplexLogger([first, keeper, second])
        channel.set(logger: logger)
        channel.emit(.change(path: ChangedPath(name: "password"), value: LoggedValue("hunter2"), state: nil), name: "type", callSite: .unknown, to: logger)
        // A logger other than the channel's own gets the event too, whichever form it is in.
        channel.set(logger: nil)
        channel.emit(.willMutate, name: "submit", callSite: .unknown, to: logger)

        let records = keeper.records.withLock { $0 }
        #expect(records.map(\.category) == [.change, .willMutate])
        // The record holds the value as the unit had it: a record taker redacts on its own thread,
        // by the rule every event is redacted by.
        #expect(records[0].value?.value as? String == "hunter2")
        #expect(records[0].path?.description == "password")
        #expect(first.events.count == 2 && second.events.count == 2)
        var trees: [StateValue] = []
        for event in [first.events[0], second.events[0], Event(records[0])] {
            guard case .change(_, let value, _) = event.kind else {
                Issue.record("not a change: \(event.kind.category)")
                continue
            }
            trees.append(value.tree())
        }
        #expect(trees.count == 3 && trees.allSatisfy { $0.containsRedaction && $0 == trees[0] })
        #expect(first.events.map(\.sequence) == records.map(\.sequence))
        #expect(logger.takesRecords && !first.takesRecords)
    }

    @Test("sources are numbered uniquely and named without their module")
    func sources() {
        struct Local {}
        let first = EventSource(framework: .unio, type: Local.self)
        let second = EventSource(framework: .unio, type: Local.self)
        #expect(first.instanceID != second.instanceID)
        #expect(first.typeName.hasSuffix("Local"))
        #expect(!first.typeName.hasPrefix("RewindTests."))
        #expect(first.description == "\(first.typeName)#\(first.instanceID)")
    }

    @Test("the default log(_:) calls the seed's hook methods")
    func hookTranslation() {
        final class Hooks: CycleLogging {
            let calls = Mutex<[String]>([])
            func willDispatch(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) { calls.withLock { $0.append("willDispatch \(name) \(line)") } }
            func didDispatch(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) { calls.withLock { $0.append("didDispatch \(name)") } }
            func willMutate(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) { calls.withLock { $0.append("willMutate \(name)") } }
            func didMutate(name: String, description: String, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) { calls.withLock { $0.append("didMutate \(name)") } }
            func didChange(value: Any, for keyPath: AnyKeyPath, root: Any) { calls.withLock { $0.append("didChange \(value) \(root)") } }
            func didReplace(root: Any) { calls.withLock { $0.append("didReplace \(root)") } }
            func didEmit(activity: Any, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) { calls.withLock { $0.append("didEmit \(activity)") } }
        }
        struct Count { var count: Int }
        let hooks = Hooks()
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Counter"))
        let site = CallSite(file: "F.swift", function: "f()", line: 7)
        channel.emit(.willDispatch(), name: "inc", callSite: site, to: hooks)
        channel.emit(.willMutate, name: "inc", callSite: site, to: hooks)
        channel.emit(.change(path: ChangedPath(\Count.count), value: LoggedValue(1), state: LoggedValue(Count(count: 1))), name: "inc", callSite: site, to: hooks)
        channel.emit(.didMutate(duration: .zero, state: LoggedValue(Count(count: 1))), name: "inc", callSite: site, to: hooks)
        channel.emit(.replace(state: LoggedValue(Count(count: 5))), callSite: site, to: hooks)
        channel.emit(.activity(LoggedValue("big")), callSite: site, to: hooks)
        channel.emit(.didDispatch(duration: .zero), name: "inc", callSite: site, to: hooks)
        #expect(hooks.calls.withLock { $0 } == [
            "willDispatch inc 7", "willMutate inc", "didChange 1 Count(count: 1)", "didMutate inc",
            "didReplace Count(count: 5)", "didEmit big", "didDispatch inc",
        ])
    }

    @Test("concurrent producers never share or skip a sequence number")
    func concurrentSequenceNumbers() async {
        let memory = InMemoryLogger()
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Shared"))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<2_000 { channel.emit(.willMutate, callSite: CallSite(), to: memory) }
                }
            }
        }
        let numbers = memory.events.map(\.sequence).sorted()
        #expect(numbers.count == 16_000)
        #expect(Set(numbers).count == 16_000)
        // Other suites may take numbers meanwhile, so only uniqueness and order are asserted.
        #expect(numbers == numbers.sorted())
    }
}

@Suite("Console and swift-log loggers")
struct OutputLoggerTests {
    struct Cart: Codable { var items: [String]; var total: Int }

    func emitSession(to logger: any CycleLogging) {
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "CartViewModel", instanceID: 1))
        let site = CallSite(file: "App/CartViewModel.swift", function: "add()", line: 30)
        channel.emit(.created(state: LoggedValue(Cart(items: [], total: 0))), callSite: site, to: logger)
        let dispatch = channel.emit(.willDispatch(), name: "add", callSite: site, to: logger)
        channel.emit(.willMutate, name: "add", callSite: site, parent: dispatch, to: logger)
        channel.emit(.change(path: ChangedPath(\Cart.items), value: LoggedValue(["tea"]), state: LoggedValue(Cart(items: ["tea"], total: 0))), name: "add", callSite: site, parent: dispatch, to: logger)
        channel.emit(.didMutate(duration: .microseconds(4), state: LoggedValue(Cart(items: ["tea"], total: 3))), name: "add", callSite: site, parent: dispatch, to: logger)
        channel.emit(.activity(LoggedValue("added\u{1B}[2J")), callSite: site, parent: dispatch, to: logger)
    }

    @Test("the console logger prints one line per event and the diff of each mutation")
    func consoleOutput() {
        let lines = Mutex<[String]>([])
        emitSession(to: ConsoleLogger { line in lines.withLock { $0.append(line) } })
        let output = lines.withLock { $0 }.map { line in
            // Drop the time of day, which changes from run to run.
            line.replacingOccurrences(of: #"\d\d:\d\d:\d\d\.\d\d\d"#, with: "TIME", options: .regularExpression)
        }
        #expect(output.count == 6 + 7)
        #expect(output[0].hasPrefix("#") && output[0].contains("TIME CartViewModel#1 created"))
        #expect(output[1].contains("willDispatch  add") && output[1].hasSuffix("CartViewModel.swift:30"))
        #expect(output[3].hasSuffix(#"items = ["tea"]"#))
        #expect(output[4].contains("didMutate     add") && output[4].hasSuffix("4.0µs"))
        // The diff is against the state before the commit.
        #expect(Array(output[5...11]) == ["  {", "    items: [", "+     [0]: \"tea\"", "    ]", "-   total: 0", "+   total: 3", "  }"])
        #expect(output.last!.hasSuffix(#""added\u{1B}[2J""#))
        #expect(!output.joined().contains("\u{1B}"))
    }

    @Test("colour only when asked for, and never with NO_COLOR or TERM=dumb")
    func colour() {
        #expect(TerminalStyle.automatic(for: -1, environment: [:]) == .plain)
        #expect(TerminalStyle(usesColor: true).paint("x", .red) == "\u{1B}[31mx\u{1B}[0m")
        #expect(TerminalStyle.plain.paint("x", .red) == "x")
        let lines = Mutex<[String]>([])
        emitSession(to: ConsoleLogger(style: TerminalStyle(usesColor: true)) { line in lines.withLock { $0.append(line) } })
        #expect(lines.withLock { $0 }.contains { $0.contains("\u{1B}[32m+   total: 3") })
    }

    @Test("the swift-log bridge sends each event with its fields as metadata")
    func swiftLogBridge() throws {
        let handler = CapturingLogHandler()
        // A logger at swift-log's default level (its own handlers start at .info) shows the events
        // at the bridge's default level.
        var logger = Logger(label: "viewmodels") { _ in handler }
        logger.logLevel = StreamLogHandler.standardOutput(label: "default").logLevel
        #expect(logger.logLevel == .info)
        emitSession(to: SwiftLogBridge(logger))
        let entries = handler.entries
        #expect(entries.count == 6)
        let change = entries[3]
        #expect(change.message == "change add")
        #expect(change.level == .info)
        #expect(change.metadata["source"] == "CartViewModel#1")
        #expect(change.metadata["kind"] == "change")
        #expect(change.metadata["line"] == "30")
        #expect(change.metadata["value"] == #"items = ["tea"]"#)
        #expect(change.metadata["parent"] == entries[1].metadata["seq"])
        // Below the logger's level nothing is sent.
        emitSession(to: SwiftLogBridge(logger, level: .debug))
        #expect(handler.entries.count == 6)
        logger.logLevel = .debug
        emitSession(to: SwiftLogBridge(logger, level: .debug))
        #expect(handler.entries.count == 12)
    }
}

@Suite("Source names")
struct SourceNameTests {
    struct Outer<Value> { struct Inner {} }
    enum Nest { struct Leaf {} }

    @Test("type names drop module names, keeping nesting and generic arguments")
    func shortTypeNames() {
        #expect(EventSource.shortTypeName(Nest.Leaf.self) == "SourceNameTests.Nest.Leaf")
        #expect(EventSource.shortTypeName(Outer<Int>.self) == "SourceNameTests.Outer<Int>")
        #expect(EventSource.shortTypeName(Outer<Nest.Leaf>.Inner.self) == "SourceNameTests.Outer<SourceNameTests.Nest.Leaf>.Inner")
        #expect(EventSource.shortTypeName([String: Int?].self) == "Dictionary<String, Optional<Int>>")
        struct Local {}
        #expect(EventSource.shortTypeName(Local.self) == "SourceNameTests.Local", "without the function's `(unknown context at $…)`")
    }
}

/// A logger that takes the units' records as they are, and keeps them.
private final class RecordKeeper: CycleLogging, Sendable {
    let records = Locked<[EventRecord]>([])

    func record(_ record: consuming EventRecord) {
        let kept = record
        records.withLock { $0.append(kept) }
    }

    var takesRecords: Bool { true }
}
