import Foundation
import Synchronization
import Testing
@_spi(Tooling) @testable import Rewind

@Suite("The queue between the app's threads and a logger's thread")
struct EventQueueTests {
    private static let source = EventSource(framework: .cycler, typeName: "QueueProbe")

    private static func event(_ sequence: UInt64) -> EventRecord {
        EventRecord(
            sequence: sequence, time: EventTime(wallNanoseconds: 0, monotonicNanoseconds: 0), source: source,
            kind: .willMutate, name: "", description: "", callSite: .unknown, parent: nil
        )
    }

    @Test("events come out in the order they went in, across laps of the ring")
    func fifoAcrossLaps() {
        let queue = EventQueue(capacity: 4)
        var batch: [EventRecord] = []
        var taken: [UInt64] = []
        for lap in 0..<5 {
            for offset in 1...3 { #expect(queue.push(Self.event(UInt64(lap * 3 + offset)))) }
            #expect(queue.take(into: &batch) == nil)
            taken += batch.map(\.sequence)
            batch.removeAll()
        }
        #expect(taken == Array(1...15))
        #expect(!queue.hasQueuedEvents)
    }

    @Test("a take moves at most its limit, and the next take goes on where it stopped")
    func boundedTake() {
        let queue = EventQueue(capacity: 16)
        for sequence in 1...10 { #expect(queue.push(Self.event(UInt64(sequence)))) }
        var batch: [EventRecord] = []
        #expect(queue.take(into: &batch, limit: 4) == nil)
        #expect(batch.map(\.sequence) == [1, 2, 3, 4])
        batch.removeAll()
        #expect(queue.take(into: &batch, limit: 100) == nil)
        #expect(batch.map(\.sequence) == Array(5...10))
    }

    @Test("capacity is rounded up to a power of two, and a full queue in drop mode drops and counts")
    func dropWhenFull() throws {
        let queue = EventQueue(capacity: 3, overflow: .drop)
        #expect(queue.capacity == 4)
        for sequence in 1...4 { #expect(queue.push(Self.event(UInt64(sequence)))) }
        #expect(!queue.push(Self.event(5)))
        #expect(!queue.push(Self.event(6)))
        #expect(queue.droppedCount == 2)
        var batch: [EventRecord] = []
        let drops = try #require(queue.take(into: &batch))
        #expect(batch.map(\.sequence) == [1, 2, 3, 4])
        #expect(drops.range == DroppedRange(count: 2, sequences: 5...6))
        #expect(drops.source === Self.source)
    }

    @Test("drops keep their place: a take stops where they happened, and the events after them come next")
    func dropsKeepTheirPlace() throws {
        // The byte bound drops the second event while the ring still has room for the third.
        let queue = EventQueue(capacity: 8, byteLimit: 1_000, overflow: .drop)
        var batch: [EventRecord] = []
        #expect(queue.push(Self.event(1), bytes: 600))
        #expect(!queue.push(Self.event(2), bytes: 600))
        #expect(queue.push(Self.event(3), bytes: 100))
        let drops = try #require(queue.take(into: &batch))
        #expect(batch.map(\.sequence) == [1])
        #expect(drops.range == DroppedRange(count: 1, sequences: 2...2))
        batch.removeAll()
        #expect(queue.take(into: &batch) == nil)
        #expect(batch.map(\.sequence) == [3])
    }

    @Test("drops with events queued between them are reported apart, each at its own place")
    func dropsApartStayApart() throws {
        let queue = EventQueue(capacity: 8, byteLimit: 1_000, overflow: .drop)
        var batch: [EventRecord] = []
        #expect(queue.push(Self.event(1), bytes: 600))
        #expect(!queue.push(Self.event(2), bytes: 600))
        #expect(queue.push(Self.event(3), bytes: 100))
        #expect(queue.push(Self.event(4), bytes: 300))
        #expect(!queue.push(Self.event(5), bytes: 600))
        #expect(queue.push(Self.event(6)))
        var taken: [[UInt64]] = []
        var reported: [ClosedRange<UInt64>?] = []
        for _ in 0..<3 {
            reported.append(queue.take(into: &batch)?.range.sequences)
            taken.append(batch.map(\.sequence))
            batch.removeAll()
        }
        #expect(taken == [[1], [3, 4], [6]])
        #expect(reported == [2...2, 5...5, nil])
    }

    @Test("drops are reported after the events queued before them, not with the events after")
    func dropsReportedInOrder() throws {
        let queue = EventQueue(capacity: 2, overflow: .drop)
        var batch: [EventRecord] = []
        #expect(queue.push(Self.event(1)))
        #expect(queue.push(Self.event(2)))
        #expect(!queue.push(Self.event(3)))
        // Before the consumer comes, it frees nothing: the next event is dropped too, and the
        // range covers both.
        #expect(!queue.push(Self.event(4)))
        let drops = try #require(queue.take(into: &batch))
        #expect(batch.map(\.sequence) == [1, 2])
        #expect(drops.range == DroppedRange(count: 2, sequences: 3...4))
        batch.removeAll()
        #expect(queue.take(into: &batch) == nil)
        #expect(batch.isEmpty)
    }

    @Test("the byte bound counts only queued events, and one event always fits in an empty queue")
    func byteBound() {
        let queue = EventQueue(capacity: 64, byteLimit: 1_000, overflow: .drop)
        #expect(queue.push(Self.event(1), bytes: 600))
        #expect(queue.push(Self.event(2), bytes: 400))
        #expect(!queue.push(Self.event(3), bytes: 1))
        var batch: [EventRecord] = []
        _ = queue.take(into: &batch)
        #expect(batch.map(\.sequence) == [1, 2])
        // Taken events no longer count: a state larger than the whole bound still goes in.
        #expect(queue.push(Self.event(4), bytes: 5_000))
        #expect(!queue.push(Self.event(5), bytes: 1))
    }

    @Test("in wait mode producers facing a full queue wait for the consumer; nothing is lost, and each producer's events keep their order")
    func producersWait() async {
        let queue = EventQueue(capacity: 8, overflow: .wait)
        let producers = 4
        let perProducer = 5_000
        let taken = Locked<[UInt64]>([])
        let consumerDone = DispatchSemaphore(value: 0)
        let consumer = Thread {
            var batch: [EventRecord] = []
            var seen: [UInt64] = []
            while seen.count < producers * perProducer {
                queue.take(into: &batch)
                seen += batch.map(\.sequence)
                if batch.isEmpty { queue.sleep(seconds: 1) { false } }
                batch.removeAll(keepingCapacity: true)
            }
            taken.withLock { $0 = seen }
            consumerDone.signal()
        }
        consumer.start()
        let accepted = await withTaskGroup(of: Int.self) { group in
            for producer in 0..<producers {
                group.addTask {
                    var accepted = 0
                    for index in 0..<perProducer where queue.push(Self.event(UInt64(producer * perProducer + index))) {
                        accepted += 1
                    }
                    return accepted
                }
            }
            return await group.reduce(0, +)
        }
        consumerDone.wait()
        #expect(accepted == producers * perProducer)
        #expect(queue.droppedCount == 0)
        let sequences = taken.withLock { $0 }
        #expect(Set(sequences).count == producers * perProducer)
        for producer in 0..<producers {
            let own = sequences.filter { Int($0) / perProducer == producer }
            #expect(own == own.sorted())
        }
    }

    @Test("after close the queue refuses events without counting them as dropped, and keeps what it had")
    func closeRefuses() {
        let queue = EventQueue(capacity: 4)
        #expect(queue.push(Self.event(1)))
        queue.close()
        #expect(queue.isClosed)
        #expect(!queue.push(Self.event(2)))
        #expect(queue.droppedCount == 0)
        var batch: [EventRecord] = []
        _ = queue.take(into: &batch)
        #expect(batch.map(\.sequence) == [1])
    }

    @Test("a sleeping consumer returns at once when there is work, and otherwise when the time is up")
    func consumerSleepReturns() {
        let queue = EventQueue(capacity: 16, wakeThreshold: 2)
        #expect(!queue.sleep(seconds: 0.01) { false })
        #expect(queue.sleep(seconds: 60) { true })
        #expect(queue.push(Self.event(1)))
        #expect(queue.sleep(seconds: 60) { false })
    }

    @Test("a sleeping consumer is woken by the producer that queues the wake threshold's event, and by wake()")
    func consumerIsWoken() {
        for wakeByCall in [false, true] {
            let queue = EventQueue(capacity: 16, wakeThreshold: 2)
            let producer = Thread {
                // Waits (yielding, not sleeping) until the consumer is asleep.
                while !queue.consumerSleeping.load(ordering: .sequentiallyConsistent) { sched_yield() }
                if wakeByCall {
                    queue.wake()
                } else {
                    queue.push(Self.event(1))  // below the threshold: no wake-up
                    queue.push(Self.event(2))
                }
            }
            producer.start()
            // Woken long before the minute is up: `true`.
            #expect(queue.sleep(seconds: 60) { false })
        }
    }
}
