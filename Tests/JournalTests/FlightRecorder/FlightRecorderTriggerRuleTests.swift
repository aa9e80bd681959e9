import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Synchronization
import Testing

/// A clock the test moves by hand: a recorder's dump thread waiting for a tail wakes when it moves.
final class ManualDumpClock: DumpClock {
    private let state = Locked<(now: Duration, sleepers: [DispatchSemaphore])>((.seconds(1_000), []))

    var now: Duration { state.withLock { $0.now } }

    func wait(until deadline: Duration?, orUntil wake: DispatchSemaphore) {
        let passed = state.withLock { state -> Bool in
            if !state.sleepers.contains(where: { $0 === wake }) { state.sleepers.append(wake) }
            return deadline.map { $0 <= state.now } ?? false
        }
        if !passed { wake.wait() }
    }

    /// Moves the clock on, and wakes whoever waits on it to look at the time again.
    func advance(by duration: Duration) {
        let sleepers = state.withLock { state in
            state.now += duration
            return state.sleepers
        }
        for sleeper in sleepers { sleeper.signal() }
    }
}

/// Paths of the dumps a recorder made, as its `onDump` reports them, waited for without sleeping.
final class DumpsMade: Sendable {
    private let paths = Locked<[String]>([])
    private let made = DispatchSemaphore(value: 0)

    func record(_ path: String) {
        paths.withLock { $0.append(path) }
        made.signal()
    }

    var all: [String] { paths.withLock { $0 } }

    /// Waits for the next dump (a ten-minute guard against a hang, never reached when it works).
    func next() throws -> String {
        try #require(made.wait(timeout: .now() + .seconds(600)) == .success, "no dump was made")
        return paths.withLock { $0.last! }
    }
}

@Suite("Flight recorder trigger rules: rate limit and tail")
struct DumpScheduleTests {
    typealias Request = DumpSchedule.Request

    @Test("each window of the rate limit holds, to the nanosecond at its boundary, and each trigger counts on its own")
    func rateLimitWindows() {
        var schedule = DumpSchedule(limit: .dumps(1, per: .seconds(60)).and(3, per: .seconds(3600)))
        let start = Duration.seconds(10_000)
        func admit(_ key: String, at now: Duration) -> Bool { schedule.admit(key, at: now) }
        #expect(admit("call", at: start))
        #expect(!admit("call", at: start + .seconds(59)))
        #expect(!admit("call", at: start + .seconds(60) - .nanoseconds(1)))
        #expect(admit("condition a", at: start + .seconds(1)), "another trigger has its own count")
        #expect(admit("call", at: start + .seconds(60)))
        #expect(admit("call", at: start + .seconds(120)))
        // Three in the hour: the fourth waits until the first is an hour old.
        #expect(!admit("call", at: start + .seconds(180)))
        #expect(!admit("call", at: start + .seconds(3600) - .nanoseconds(1)))
        #expect(admit("call", at: start + .seconds(3600)))
        var unlimited = DumpSchedule(limit: .unlimited)
        let admittedUnlimited = (0..<100).allSatisfy { unlimited.admit("call", at: start + .nanoseconds($0)) }
        #expect(admittedUnlimited)
        var never = DumpSchedule(limit: .dumps(0, per: .seconds(1)))
        let admittedNever = never.admit("call", at: start)
        #expect(!admittedNever)
    }

    @Test("a request waits out its tail; the rate limit judges it when it is made; closing takes every request still waiting")
    func tail() {
        var schedule = DumpSchedule(limit: .dumps(1, per: .seconds(60)))
        let start = Duration.seconds(500)
        let first = Request(trigger: .condition, reason: "a", step: 7, key: "condition a")
        let admitted = schedule.schedule(first, at: start, tail: .seconds(5))
        let again = schedule.schedule(first, at: start + .seconds(1), tail: .seconds(5))
        #expect(admitted && !again, "the same trigger within the minute is held back")
        let second = Request(trigger: .signal, reason: "b", key: "signal")
        let other = schedule.schedule(second, at: start + .seconds(2), tail: .seconds(5))
        #expect(other)
        #expect(schedule.nextDue == start + .seconds(5))
        let early = schedule.takeDue(at: start + .seconds(5) - .nanoseconds(1))
        let due = schedule.takeDue(at: start + .seconds(5))
        #expect(early.isEmpty && due.map(\.reason) == ["a"])
        #expect(schedule.nextDue == start + .seconds(7))
        let rest = schedule.takeAll()
        #expect(rest.map(\.reason) == ["b"])
        #expect(schedule.nextDue == nil && schedule.pending.isEmpty)
    }
}

@Suite("Flight recorder triggers on a running recorder")
struct FlightRecorderConditionTests {
    struct Cart: Codable { var items: [String] = []; var total = 0; var open = false }

    final class CartModel: CyclerType, Sendable {
        let state: Storage<Cart> = .init(.init())
    }

    static func recorder(
        in directory: TemporaryDirectory, conditions: [String] = [], rateLimit: FlightRecorder.RateLimit = .unlimited, tail: Duration = .zero,
        clock: ManualDumpClock, dumps: DumpsMade
    ) throws -> FlightRecorder {
        var configuration = FlightRecorderTests.configuration()
        configuration.conditions = try conditions.map { try Condition(parsing: $0) }
        configuration.rateLimit = rateLimit
        configuration.tail = tail
        configuration.clock = clock
        configuration.onDump = { dumps.record($0) }
        return try FlightRecorder(path: directory.file("cart.rewind-ring"), configuration: configuration)
    }

    @Test("a condition over the recorded state dumps on the writer's side when it becomes true, at the step it did, once while it holds")
    func conditionDumps() throws {
        let directory = TemporaryDirectory()
        let dumps = DumpsMade()
        let recorder = try Self.recorder(in: directory, conditions: ["total < 0", "changed(items) && items.count > 3"], clock: ManualDumpClock(), dumps: dumps)
        let cart = CartModel()
        cart.set(logger: recorder)
        for price in [5, 7, -20, -1, -3] {
            // Negative at the third commit, and still so after: one dump. The commit's first
            // change makes it negative for a moment only inside the commit.
            cart.commit("price \(price)") { state in
                state.update(state.value.total - 100, \.total)
                state.update(state.value.total + 100 + price, \.total)
            }
        }
        try recorder.sync()
        let negative = try JournalReader(path: try dumps.next())
        let why = try #require(negative.header.dump)
        let events = negative.allEvents()
        let step = try #require(events.first { $0.sequence == why.step })
        #expect(why.trigger == .condition && why.reason == "total < 0 on \(step.source.description)", "\(why.summary)")
        #expect(step.kind == .didMutate && step.name == "price -20", "the step where the total went negative")
        // The dump is written on its own thread, perhaps before the commits after the trigger
        // were logged: it ends somewhere after the trigger's step.
        let commits = events.filter { $0.kind == .didMutate }.map(\.name)
        let afterTrigger = Array(commits.drop { $0 != "price -20" })
        #expect(!afterTrigger.isEmpty && ["price -20", "price -1", "price -3"].starts(with: afterTrigger), "\(commits)")

        for number in 0..<5 {
            cart.commit("add") { $0.update($0.value.items + ["item \(number)"], \.items) }
        }
        try recorder.sync()
        let items = try JournalReader(path: try dumps.next())
        #expect(items.header.dump?.reason.hasPrefix("changed(items) && items.count > 3 on ") == true)
        recorder.close()
        #expect(dumps.all.count == 2, "each condition fired once: \(dumps.all)")
    }

    @Test("a condition is judged at a change made outside any commit, which carries its unit's state")
    func conditionAtChangeOutsideCommit() throws {
        let directory = TemporaryDirectory()
        let dumps = DumpsMade()
        let recorder = try Self.recorder(in: directory, conditions: ["count == 3"], clock: ManualDumpClock(), dumps: dumps)
        let channel = EventChannel(source: EventSource(framework: .unio, typeName: "Relay"))
        channel.emit(.created(state: LoggedValue(["count": 0])), callSite: CallSite(), to: recorder)
        for count in 1...5 {
            let change = Event.Kind.change(path: ChangedPath(name: "count"), value: LoggedValue(count), state: LoggedValue(["count": count]))
            channel.emit(change, callSite: CallSite(), to: recorder)
        }
        try recorder.sync()
        let dump = try JournalReader(path: try dumps.next())
        recorder.close()
        let why = try #require(dump.header.dump)
        let step = try #require(dump.allEvents().first { $0.sequence == why.step })
        #expect(step.kind == .change && step.value == .integer(3), "\(step)")
        #expect(dumps.all.count == 1)
    }

    @Test("the rate limit holds a condition's dumps back and lets one through when a minute has passed, on the recorder's clock")
    func conditionRateLimit() throws {
        let directory = TemporaryDirectory()
        let dumps = DumpsMade()
        let clock = ManualDumpClock()
        let recorder = try Self.recorder(in: directory, conditions: ["open"], rateLimit: .dumps(1, per: .seconds(60)), clock: clock, dumps: dumps)
        let cart = CartModel()
        cart.set(logger: recorder)
        func flip(_ times: Int) {
            for _ in 0..<times { cart.commit("toggle") { $0.update(!$0.value.open, \.open) } }
        }
        flip(20)  // opens ten times
        try recorder.sync()
        _ = try dumps.next()
        #expect(recorder.dumpsHeldBack == 9)
        clock.advance(by: .seconds(59))
        flip(2)
        try recorder.sync()
        #expect(recorder.dumpsHeldBack == 10)
        clock.advance(by: .seconds(1))
        flip(2)
        try recorder.sync()
        _ = try dumps.next()
        recorder.close()
        #expect(dumps.all.count == 2 && recorder.dumpsHeldBack == 10)
    }

    @Test("with a tail, the dump is written when the tail has passed and holds what followed the trigger; closing during a tail writes it")
    func tailAfterTheTrigger() throws {
        let directory = TemporaryDirectory()
        let dumps = DumpsMade()
        let clock = ManualDumpClock()
        let recorder = try Self.recorder(in: directory, conditions: ["total >= 10"], tail: .seconds(10), clock: clock, dumps: dumps)
        let cart = CartModel()
        cart.set(logger: recorder)
        for _ in 0..<10 { cart.commit("add") { $0.update($0.value.total + 1, \.total) } }
        for _ in 0..<5 { cart.commit("after") { $0.update($0.value.total + 1, \.total) } }
        try recorder.sync()
        clock.advance(by: .seconds(9))
        #expect(dumps.all.isEmpty, "the tail is not over")
        clock.advance(by: .seconds(1))
        let dump = try JournalReader(path: try dumps.next())
        #expect(dump.header.dump?.trigger == .condition)
        let names = dump.allEvents().filter { $0.kind == .didMutate }.map(\.name)
        #expect(names.suffix(6) == ["add", "after", "after", "after", "after", "after"], "the five commits after the trigger are in it")
        #expect(dump.allEvents().contains { $0.sequence == dump.header.dump?.step && $0.kind == .didMutate })

        // A request in its tail when the recorder closes is written then.
        #expect(recorder.requestDump(reason: "closing soon"))
        recorder.close()
        #expect(try JournalReader(path: try dumps.next()).header.dump?.reason == "closing soon")
        #expect(!recorder.requestDump(reason: "after close"))
    }

    @Test("a recorder released without close() still writes the dump waiting for its tail; threads closing at once all return after it")
    func releasedOrClosedTwiceDuringATail() throws {
        let directory = TemporaryDirectory()
        let dumps = DumpsMade()
        do {
            let recorder = try Self.recorder(in: directory, tail: .seconds(10), clock: ManualDumpClock(), dumps: dumps)
            let cart = CartModel()
            cart.set(logger: recorder)
            cart.commit("add") { $0.update(1, \.total) }
            #expect(recorder.requestDump(reason: "released"))
        }
        #expect(dumps.all.count == 1, "the recorder's release wrote the dump in its tail")
        #expect(try JournalReader(path: try #require(dumps.all.first)).header.dump?.reason == "released")

        let recorder = try Self.recorder(in: directory, tail: .seconds(10), clock: ManualDumpClock(), dumps: dumps)
        #expect(recorder.requestDump(reason: "closed twice"))
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            recorder.close()
            #expect(dumps.all.count == 2, "close() returned before the dump in its tail was written")
        }
    }

    @Test("dump(reason:) and dump(unless:) are rate-limited each on its own; a held-back call returns nil and writes nothing")
    func callsAreRateLimited() throws {
        let directory = TemporaryDirectory()
        let dumps = DumpsMade()
        let recorder = try Self.recorder(in: directory, rateLimit: .standard, clock: ManualDumpClock(), dumps: dumps)
        let cart = CartModel()
        cart.set(logger: recorder)
        cart.commit("add") { $0.update(1, \.total) }
        #expect(try recorder.dump(reason: "first") != nil)
        #expect(try recorder.dump(reason: "second") == nil)
        #expect(try recorder.dump(unless: false, "asserted") != nil)
        #expect(try recorder.dump(unless: false, "asserted again") == nil)
        recorder.close()
        #expect(dumps.all.count == 2 && recorder.dumpsHeldBack == 2)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".rewind") }
        #expect(files.count == 2)
    }
}
