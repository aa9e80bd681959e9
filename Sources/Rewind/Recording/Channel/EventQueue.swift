import Foundation
import Synchronization

/// The hand-over from the app's threads to a logger's own thread — the journal's writer, the
/// OpenTelemetry exporter: a bounded queue of events (as ``EventRecord``s, moved in as the unit
/// made them) with many producers and one consumer.
///
/// ```swift
/// let queue = EventQueue(capacity: 4096, overflow: .drop)
/// // the app's threads, in `record(_:)`:
/// queue.push(record)
/// // the logger's thread:
/// var batch: [EventRecord] = []
/// while true {
///     let dropped = queue.take(into: &batch, limit: 4096)
///     …  // handle `batch` (and `dropped`), then
///     batch.removeAll(keepingCapacity: true)
///     if !queue.hasQueuedEvents { queue.sleep(seconds: 1) { false } }
/// }
/// ```
///
/// A producer takes no lock: it claims a slot of a ring with one atomic compare-and-swap, moves the
/// event in and publishes it (a bounded queue after Dmitry Vyukov's). Only a producer that finds
/// the queue full in ``Overflow/wait`` mode, and a consumer going to sleep, use the lock.
///
/// The queue is bounded twice: in events (`capacity`, rounded up to a power of two) and in bytes
/// (`byteLimit`, as the producers estimate their events' sizes). One event always fits in an empty
/// queue, however large. The events a consumer has taken are not counted: producers fill the
/// queue again while it handles them.
///
/// In ``Overflow/drop`` mode a producer that finds the queue full drops the event and counts it;
/// `take(into:limit:)` reports the drops at the place in the stream where they happened, so a
/// consumer can record that what follows them missed something.
public final class EventQueue: @unchecked Sendable {
    // Unchecked: a slot's `event` is written only by the producer that claimed the slot, before it
    // publishes the slot's `sequence` (release), and read only by the consumer after it sees it
    // (acquire), which then frees the slot the same way; everything else is atomic or under `lock`.

    /// What a producer does when the queue is full.
    public enum Overflow: Sendable, Equatable {
        /// Wait until the consumer catches up: nothing is lost.
        case wait
        /// Drop the event and count it.
        case drop
    }

    /// What the queue does when full.
    @_spi(Tooling) public let overflow: Overflow
    /// How many bytes queued events may count for (see the type's discussion).
    @_spi(Tooling) public let byteLimit: Int
    /// Whose turn each place of the ring is: `position` when it is free for the producer that
    /// claims `position`, `position + 1` once that producer has published its event there.
    let turns: UnsafeMutablePointer<Atomic<Int>>
    /// The events and what they count for, by place; apart from `turns`, so that writing an event
    /// is not an access to the memory other threads read turns from. A place holds an initialized
    /// event only between its publication and its take: no `Optional`, whose copy goes through
    /// a generic witness (measured: ~100 instructions per event).
    let events: UnsafeMutablePointer<EventRecord>
    let eventBytes: UnsafeMutablePointer<Int>
    let mask: Int
    /// The next position a producer claims.
    let enqueuePosition = Atomic<Int>(0)
    /// The next position the consumer takes; written by the consumer only.
    let dequeuePosition = Atomic<Int>(0)
    let queuedBytes = Atomic<Int>(0)
    /// How many queued events make a producer wake a sleeping consumer.
    let wakeThreshold: Int
    let consumerSleeping = Atomic<Bool>(false)
    let producersWaiting = Atomic<Int>(0)
    let closed = Atomic<Bool>(false)
    let droppedTotal = Atomic<UInt64>(0)
    /// Drops the consumer has not taken yet, one entry per place in the stream where they
    /// happened: drops with events queued between them are told apart, since what follows each
    /// missed something.
    let pendingDrops = Locked<[PendingDrops]>([])
    let hasPendingDrops = Atomic<Bool>(false)
    /// Sleeping consumers and waiting producers wait on it.
    let condition = NSCondition()
    /// The consumer's thread (``becomeConsumer()``): a push from it never waits, since only it
    /// makes room. Guarded by `condition`.
    var consumerThread: pthread_t?

    struct PendingDrops {
        var position: Int
        var count: UInt64
        var lowest: UInt64
        var highest: UInt64
        var source: EventSource
    }

    /// Creates an empty queue.
    ///
    /// - Parameter capacity: how many events may be queued, rounded up to a power of two (at
    ///   least 2).
    /// - Parameter byteLimit: how many bytes the queued events may count for.
    /// - Parameter overflow: what a producer does when the queue is full.
    /// - Parameter wakeThreshold: how many queued events make a producer wake a sleeping consumer;
    ///   fewer wait for the consumer's own timeout (see ``sleep(seconds:unless:)``), so that a
    ///   trickle of events does not wake it for each one.
    @_spi(Tooling) public init(capacity: Int, byteLimit: Int = .max, overflow: Overflow = .wait, wakeThreshold: Int = 1) {
        let size = max(2, capacity).roundedUpToPowerOfTwo
        turns = .allocate(capacity: size)
        for index in 0..<size { (turns + index).initialize(to: Atomic(index)) }
        events = .allocate(capacity: size)
        eventBytes = .allocate(capacity: size)
        eventBytes.initialize(repeating: 0, count: size)
        mask = size - 1
        self.byteLimit = byteLimit
        self.overflow = overflow
        self.wakeThreshold = max(1, wakeThreshold)
    }

    deinit {
        // Events a producer published after the consumer's last take are still in their places.
        var position = dequeuePosition.load(ordering: .relaxed)
        while hasPublished(at: position) {
            (events + (position & mask)).deinitialize(count: 1)
            position &+= 1
        }
        turns.deinitialize(count: mask + 1)
        turns.deallocate()
        events.deallocate()
        eventBytes.deallocate()
    }

    /// How many events the ring holds.
    @_spi(Tooling) public var capacity: Int { mask + 1 }

    /// Events dropped so far because the queue was full (in ``Overflow/drop`` mode, or pushed by
    /// the consumer's own thread in ``Overflow/wait`` mode); events refused after ``close()`` are
    /// not counted.
    @_spi(Tooling) public var droppedCount: UInt64 { droppedTotal.load(ordering: .relaxed) }

    // MARK: Producers

    /// Queues an event that counts for `bytes` (see the type's discussion); returns `false` when it
    /// was dropped — the queue full in ``Overflow/drop`` mode, or closed. In ``Overflow/wait`` mode
    /// a full queue makes the caller wait until the consumer has taken events — except on the
    /// consumer's own thread (``becomeConsumer()``), where the event is dropped and counted:
    /// nothing the consumer's thread pushes may wait for the consumer.
    @discardableResult
    @_spi(Tooling) public func push(_ event: consuming EventRecord, bytes: Int = 0) -> Bool {
        while true {
            if closed.load(ordering: .relaxed) { return false }
            if let position = claim(bytes: bytes) {
                let place = position & mask
                (events + place).initialize(to: consume event)
                eventBytes[place] = bytes
                if bytes != 0 { queuedBytes.add(bytes, ordering: .sequentiallyConsistent) }
                turns[place].store(position &+ 1, ordering: .releasing)
                wakeConsumerIfAsleep(queuedAfter: position)
                return true
            }
            // The consumer's own thread (a journal's callback logging, say) would wait for itself.
            guard overflow == .wait, waitForRoom(bytes: bytes) else {
                recordDrop(sequence: event.sequence, source: event.source)
                return false
            }
        }
    }

    /// Claims the next position, or returns `nil` when the ring or the byte budget is full.
    @inline(__always)
    private func claim(bytes: Int) -> Int? {
        if bytes != 0 {
            let queued = queuedBytes.load(ordering: .relaxed)
            if queued > 0 && queued &+ bytes > byteLimit { return nil }
        }
        var position = enqueuePosition.load(ordering: .relaxed)
        while true {
            let turn = turns[position & mask].load(ordering: .acquiring)
            if turn == position {
                let (exchanged, current) = enqueuePosition.compareExchange(
                    expected: position, desired: position &+ 1, ordering: .sequentiallyConsistent
                )
                if exchanged { return position }
                position = current
            } else if turn < position {
                return nil  // the place still holds the event from the previous lap: full
            } else {
                position = enqueuePosition.load(ordering: .relaxed)
            }
        }
    }

    private func recordDrop(sequence: UInt64, source: EventSource) {
        droppedTotal.add(1, ordering: .relaxed)
        let position = enqueuePosition.load(ordering: .sequentiallyConsistent)
        pendingDrops.withLock { drops in
            if drops.last?.position != position {
                drops.append(PendingDrops(position: position, count: 0, lowest: .max, highest: 0, source: source))
                hasPendingDrops.store(true, ordering: .releasing)
            }
            drops[drops.count - 1].count += 1
            drops[drops.count - 1].lowest = min(drops[drops.count - 1].lowest, sequence)
            drops[drops.count - 1].highest = max(drops[drops.count - 1].highest, sequence)
        }
        // Full in bytes, the queue may hold fewer events than wake a sleeping consumer.
        if consumerSleeping.load(ordering: .sequentiallyConsistent) { wake() }
    }

    // MARK: The consumer

    /// Moves queued events into `batch`, in the order they were queued (not necessarily sequence
    /// order: producers on several threads race between numbering an event and queuing it), and
    /// returns the drops that happened after the last of them, if any. Only one thread may take.
    ///
    /// A batch stops where drops happened, so that what the consumer does with the drops comes
    /// between the events before them and those after; and after `limit` events, so that a
    /// producer waiting for room in a full queue gets it back a batch at a time rather than after
    /// the consumer has handled the whole ring.
    @discardableResult
    @_spi(Tooling) public func take(into batch: inout [EventRecord], limit: Int = .max) -> (range: DroppedRange, source: EventSource)? {
        var drops: PendingDrops?
        let start = dequeuePosition.load(ordering: .relaxed)
        var end = start &+ max(1, min(limit, mask &+ 1))
        var position = start
        var freedBytes = 0
        while position < end {
            let place = position & mask
            guard turns[place].load(ordering: .acquiring) == position &+ 1 else { break }
            // Looked at after the event's publication: a drop its producer (or the unit's previous
            // producer) recorded before queuing it is seen here, before the event is taken.
            if drops == nil, let pending = takePendingDrops() {
                drops = pending
                // A drop recorded late, by a producer that lost a race for a place this take has
                // passed, is reported here.
                end = max(position, pending.position)
                continue
            }
            batch.append((events + place).move())
            freedBytes += eventBytes[place]
            turns[place].store(position &+ mask &+ 1, ordering: .releasing)
            position &+= 1
        }
        if drops == nil, !hasPublished(at: position), let pending = takePendingDrops() {
            // Drops after everything queued: reported with this batch.
            drops = pending
            end = max(position, pending.position)
        }
        if let taken = drops, position < end {
            // A producer that claimed a place before the drops has not published it yet: the
            // drops wait for the next take, first in line.
            pendingDrops.withLock { pending in
                if let next = pending.first, next.position == taken.position {
                    pending[0].count += taken.count
                    pending[0].lowest = min(next.lowest, taken.lowest)
                    pending[0].highest = max(next.highest, taken.highest)
                } else {
                    pending.insert(taken, at: 0)
                }
                hasPendingDrops.store(true, ordering: .releasing)
            }
            drops = nil
        }
        if position != start {
            if freedBytes != 0 { queuedBytes.subtract(freedBytes, ordering: .sequentiallyConsistent) }
            dequeuePosition.store(position, ordering: .sequentiallyConsistent)
            if producersWaiting.load(ordering: .sequentiallyConsistent) > 0 {
                condition.lock()
                condition.broadcast()
                condition.unlock()
            }
        }
        return drops.map { (DroppedRange(count: $0.count, sequences: $0.lowest...$0.highest), $0.source) }
    }

    /// The earliest drops not taken yet.
    private func takePendingDrops() -> PendingDrops? {
        guard hasPendingDrops.load(ordering: .acquiring) else { return nil }
        return pendingDrops.withLock { pending in
            guard !pending.isEmpty else { return nil }
            let first = pending.removeFirst()
            if pending.isEmpty { hasPendingDrops.store(false, ordering: .relaxed) }
            return first
        }
    }

    private func hasPublished(at position: Int) -> Bool {
        turns[position & mask].load(ordering: .acquiring) == position &+ 1
    }

    /// Whether ``take(into:limit:)`` has anything to take (or is about to: a producer is between
    /// claiming its place and publishing it).
    @_spi(Tooling) public var hasQueuedEvents: Bool {
        enqueuePosition.load(ordering: .sequentiallyConsistent) != dequeuePosition.load(ordering: .relaxed)
            || hasPendingDrops.load(ordering: .acquiring)
    }

    /// How many places producers have claimed since the queue was made.
    var claimedCount: Int { enqueuePosition.load(ordering: .sequentiallyConsistent) }
    /// How many events the consumer has taken since the queue was made.
    var takenCount: Int { dequeuePosition.load(ordering: .relaxed) }

    /// Whether ``close()`` was called.
    @_spi(Tooling) public var isClosed: Bool { closed.load(ordering: .relaxed) }

    /// Refuses events from now on (they are counted as dropped) and releases producers waiting
    /// for room. Events queued before stay for ``take(into:limit:)``.
    @_spi(Tooling) public func close() {
        condition.lock()
        closed.store(true, ordering: .sequentiallyConsistent)
        condition.broadcast()
        condition.unlock()
    }
}

extension Int {
    /// The smallest power of two at least this large (for positive values).
    fileprivate var roundedUpToPowerOfTwo: Int {
        self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}
