import Foundation
@preconcurrency import OpenCombine

/// The inside of every merge: N upstreams of one output type feeding one downstream.
///
/// Combine's contract for merge: values from any upstream are republished as they come; the first
/// failure fails the merge and cancels the other upstreams; the merge finishes once every upstream
/// has finished. Back-pressure is kept exactly: while the downstream's demand is limited, each
/// upstream has at most one value requested, so at most one value per upstream ever waits here for
/// demand; once the demand is unlimited, every upstream is asked for unlimited values.
///
/// Upstreams may send from any thread and from inside `request(_:)`. Every signal only changes
/// state under the lock and then *drains*: one caller at a time delivers what can be delivered,
/// outside the lock, so the downstream never sees two signals at once and never re-enters itself.
final class MergeSubscription<Downstream: Subscriber>: Subscription, UpstreamReceiver, CustomStringConvertible, @unchecked Sendable {
    // Unchecked: every stored property below is read and written under `lock`.
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = NSLock()
    private var downstream: Downstream?
    private var upstreams: [Subscription?]
    private var waiting: [[Output]]
    private var finished: [Bool]
    private var requestedOne: [Bool]
    private var askedUnlimited: [Bool]
    private var demand = Subscribers.Demand.none
    private var failure: Failure?
    private var isTerminated = false
    private var isDraining = false
    private var hasMissedSignal = false
    /// Where the next search for a waiting value starts, so that no upstream starves another.
    private var nextUpstream = 0

    init(downstream: Downstream, upstreamCount: Int) {
        self.downstream = downstream
        upstreams = Array(repeating: nil, count: upstreamCount)
        waiting = Array(repeating: [], count: upstreamCount)
        finished = Array(repeating: false, count: upstreamCount)
        requestedOne = Array(repeating: false, count: upstreamCount)
        askedUnlimited = Array(repeating: false, count: upstreamCount)
    }

    var description: String { "Merge" }

    /// The subscriber to attach to upstream number `index`.
    func side(_ index: Int) -> UpstreamSide<Output, MergeSubscription> {
        UpstreamSide(receiver: self, index: index, description: description)
    }

    // MARK: Signals

    func request(_ additional: Subscribers.Demand) {
        lock.lock()
        demand += additional
        lock.unlock()
        drain()
    }

    func cancel() {
        lock.lock()
        isTerminated = true
        let subscriptions = upstreams.compactMap { $0 }
        clear()
        lock.unlock()
        subscriptions.forEach { $0.cancel() }
    }

    func upstream(_ index: Int, subscribed subscription: Subscription) {
        lock.lock()
        guard !isTerminated, upstreams[index] == nil, !finished[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreams[index] = subscription
        lock.unlock()
        drain()
    }

    func upstream(_ index: Int, sent value: Any) {
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        waiting[index].append(value as! Output)
        requestedOne[index] = false
        lock.unlock()
        drain()
    }

    func upstream(_ index: Int, completedWith completion: Subscribers.Completion<Failure>) {
        lock.lock()
        finished[index] = true
        upstreams[index] = nil
        if case .failure(let error) = completion, failure == nil {
            failure = error
        }
        lock.unlock()
        drain()
    }

    // MARK: Delivery

    /// Delivers whatever the state allows, until nothing is left to do. Call without the lock.
    func drain() {
        lock.lock()
        if isDraining {
            hasMissedSignal = true
            lock.unlock()
            return
        }
        isDraining = true
        while true {
            hasMissedSignal = false
            if isTerminated { break }
            if let failure {
                deliverCompletion(.failure(failure))
                return
            }
            if demand > 0, let index = indexWithWaitingValue() {
                let value = waiting[index].removeFirst()
                demand -= 1
                let downstream = self.downstream
                lock.unlock()
                let more = downstream?.receive(value) ?? .none
                lock.lock()
                demand += more
                continue
            }
            if finished.allSatisfy({ $0 }), waiting.allSatisfy(\.isEmpty) {
                deliverCompletion(.finished)
                return
            }
            let requests = upstreamRequestsDue()
            if !requests.isEmpty {
                lock.unlock()
                for (subscription, amount) in requests { subscription.request(amount) }
                lock.lock()
                continue
            }
            if !hasMissedSignal { break }
        }
        isDraining = false
        lock.unlock()
    }

    /// Ends the merge with `completion`, cancelling the upstreams still running. Called with the lock
    /// held while draining; returns with it released.
    private func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
        isTerminated = true
        let downstream = self.downstream
        let running = upstreams.compactMap { $0 }
        clear()
        isDraining = false
        lock.unlock()
        running.forEach { $0.cancel() }
        downstream?.receive(completion: completion)
    }

    private func clear() {
        downstream = nil
        upstreams = upstreams.map { _ in nil }
        waiting = waiting.map { _ in [] }
    }

    private func indexWithWaitingValue() -> Int? {
        let count = waiting.count
        for offset in 0..<count {
            let index = (nextUpstream + offset) % count
            if !waiting[index].isEmpty {
                nextUpstream = (index + 1) % count
                return index
            }
        }
        return nil
    }

    /// The requests to make of the upstreams for the present demand; marks them as made.
    private func upstreamRequestsDue() -> [(Subscription, Subscribers.Demand)] {
        var requests: [(Subscription, Subscribers.Demand)] = []
        guard demand > 0 else { return requests }
        for index in upstreams.indices {
            guard let subscription = upstreams[index], !finished[index] else { continue }
            if demand == .unlimited {
                if !askedUnlimited[index] {
                    askedUnlimited[index] = true
                    requests.append((subscription, .unlimited))
                }
            } else if !askedUnlimited[index], !requestedOne[index], waiting[index].isEmpty {
                requestedOne[index] = true
                requests.append((subscription, .max(1)))
            }
        }
        return requests
    }
}
