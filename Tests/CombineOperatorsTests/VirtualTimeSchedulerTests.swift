import CombineOperators
@preconcurrency import OpenCombine
import Testing

@Suite("Virtual-time scheduler")
struct VirtualTimeSchedulerTests {
    @Test("actions run when the clock reaches them, in time order, ties in scheduling order")
    func ordering() {
        let scheduler = VirtualTimeScheduler()
        var ran: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(20)), tolerance: .nanoseconds(0), options: nil) { ran.append("b") }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10)), tolerance: .nanoseconds(0), options: nil) { ran.append("a") }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(20)), tolerance: .nanoseconds(0), options: nil) { ran.append("c") }
        scheduler.schedule(options: nil) { ran.append("now") }
        scheduler.advance(by: .milliseconds(15))
        #expect(ran == ["now", "a"])
        #expect(scheduler.now.nanoseconds == 15_000_000)
        scheduler.advance(by: .milliseconds(5))
        #expect(ran == ["now", "a", "b", "c"])
    }

    @Test("debounce and delay run on the virtual clock")
    func operators() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        let subscription = subject
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .delay(for: .milliseconds(100), scheduler: scheduler)
            .sink { values.append($0) }
        subject.send(1)
        scheduler.advance(by: .milliseconds(200))
        subject.send(2)
        scheduler.advance(by: .milliseconds(399))
        #expect(values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(values == [2])
        subscription.cancel()
    }

    @Test("a repeating action runs every interval until cancelled")
    func repeating() {
        let scheduler = VirtualTimeScheduler()
        var ticks = 0
        let cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ticks += 1 }
        scheduler.advance(by: .milliseconds(3_500))
        #expect(ticks == 4)
        cancellable.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(ticks == 4)
    }
}
