import Foundation

// The queue's slow paths, the only ones with a lock: a consumer with nothing to do goes to sleep,
// and a producer that finds the queue full in wait mode waits for room.
//
// Neither side can miss the other's signal. The sleeper announces itself (a sequentially consistent
// store) and then looks at the queue (a sequentially consistent load); the other side changes the
// queue (sequentially consistent) and then looks for a sleeper. In that order, at least one of
// them sees the other; the sleeper holds the lock from its announcement until it waits, and the
// waker signals under the lock, so a signal cannot fall between the look and the wait.
extension EventQueue {
    /// Puts the consumer to sleep until a producer has queued `wakeThreshold` events, ``wake()``
    /// is called, or `seconds` pass. Returns at once when events are already queued or
    /// `hasOtherWork` (evaluated under the queue's lock, so that a ``wake()`` after the state it
    /// reads changed cannot be missed) says so.
    ///
    /// - Returns: `false` when it returned because the time was up.
    @discardableResult
    @_spi(Tooling) public func sleep(seconds: Double, unless hasOtherWork: () -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        consumerSleeping.store(true, ordering: .sequentiallyConsistent)
        defer { consumerSleeping.store(false, ordering: .relaxed) }
        if hasQueuedEvents || closed.load(ordering: .relaxed) || hasOtherWork() { return true }
        return condition.wait(until: Date(timeIntervalSinceNow: max(0, seconds)))
    }

    /// Wakes the consumer if it sleeps: call it after changing what its `hasOtherWork` reads.
    @_spi(Tooling) public func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Called by a producer after publishing `position`.
    @inline(__always)
    func wakeConsumerIfAsleep(queuedAfter position: Int) {
        guard consumerSleeping.load(ordering: .sequentiallyConsistent) else { return }
        if position &+ 1 &- dequeuePosition.load(ordering: .relaxed) >= wakeThreshold {
            wake()
        }
    }

    /// Makes the calling thread the consumer's: its pushes to a full queue are dropped, never
    /// waited for.
    @_spi(Tooling) public func becomeConsumer() {
        condition.withLock { consumerThread = pthread_self() }
    }

    /// Waits, in wait mode, until an event of `bytes` could fit or the queue is closed; `false`,
    /// at once, on the consumer's own thread, which would wait for itself.
    func waitForRoom(bytes: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if let consumerThread, pthread_equal(consumerThread, pthread_self()) != 0 { return false }
        producersWaiting.add(1, ordering: .sequentiallyConsistent)
        defer { producersWaiting.subtract(1, ordering: .relaxed) }
        // The queue can be full in bytes with fewer events than wake a sleeping consumer.
        condition.broadcast()
        while isFull(adding: bytes) && !closed.load(ordering: .sequentiallyConsistent) {
            condition.wait()
        }
        return true
    }

    /// Whether an event of `bytes` finds no room, as seen by a waiting producer.
    private func isFull(adding bytes: Int) -> Bool {
        let dequeued = dequeuePosition.load(ordering: .sequentiallyConsistent)
        if enqueuePosition.load(ordering: .sequentiallyConsistent) &- dequeued > mask { return true }
        let queued = queuedBytes.load(ordering: .sequentiallyConsistent)
        return queued > 0 && queued &+ bytes > byteLimit
    }
}
