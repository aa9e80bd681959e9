import Foundation
@preconcurrency import OpenCombine

/// The inside of every combine-latest: N upstreams whose latest values are combined into one output
/// whenever any of them sends, once each has sent at least once.
///
/// Combine's documented contract: requests from downstream pass through to every upstream; the
/// combined publisher still only sends as many values as were requested, keeping a buffer of one —
/// the most recent value — per upstream, so values that arrive without demand are dropped in favour
/// of newer ones (the latest combination is sent when demand comes). It fails as soon as any
/// upstream fails, cancelling the others, and finishes once every upstream has finished.
///
/// Signals only change state under the lock; delivery happens outside it, one caller at a time
/// (see ``MergeSubscription`` for the same scheme).
final class CombineLatestSubscription<Downstream: Subscriber>: Subscription, UpstreamReceiver, CustomStringConvertible, @unchecked Sendable {
    // Unchecked: every stored property below is read and written under `lock`; `combine` is
    // immutable.
    typealias Failure = Downstream.Failure

    private let lock = NSLock()
    private let combine: ([Any]) -> Downstream.Input
    private var downstream: Downstream?
    private var upstreams: [Subscription?]
    /// Demand requested by the downstream before an upstream's subscription arrived.
    private var demandNotForwarded: [Subscribers.Demand]
    private var latest: [Any?]
    private var finished: [Bool]
    private var hasUnsentCombination = false
    private var demand = Subscribers.Demand.none
    private var failure: Failure?
    private var isTerminated = false
    private var isDraining = false
    private var hasMissedSignal = false

    init(downstream: Downstream, upstreamCount: Int, combine: @escaping ([Any]) -> Downstream.Input) {
        self.downstream = downstream
        self.combine = combine
        upstreams = Array(repeating: nil, count: upstreamCount)
        demandNotForwarded = Array(repeating: .none, count: upstreamCount)
        latest = Array(repeating: nil, count: upstreamCount)
        finished = Array(repeating: false, count: upstreamCount)
    }

    var description: String { "CombineLatest" }

    /// The subscriber to attach to upstream number `index`, whose values have type `Value`.
    func side<Value>(_ index: Int, of _: Value.Type) -> UpstreamSide<Value, CombineLatestSubscription> {
        UpstreamSide(receiver: self, index: index, description: description)
    }

    // MARK: Signals

    func request(_ additional: Subscribers.Demand) {
        guard additional > 0 else { return }
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        demand += additional
        var forwards: [Subscription] = []
        for index in upstreams.indices where !finished[index] {
            if let subscription = upstreams[index] {
                forwards.append(subscription)
            } else {
                demandNotForwarded[index] += additional
            }
        }
        lock.unlock()
        forwards.forEach { $0.request(additional) }
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
        let owed = demandNotForwarded[index]
        demandNotForwarded[index] = .none
        lock.unlock()
        if owed > 0 { subscription.request(owed) }
    }

    func upstream(_ index: Int, sent value: Any) {
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        latest[index] = value
        if latest.allSatisfy({ $0 != nil }) { hasUnsentCombination = true }
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

    private func drain() {
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
            if demand > 0, hasUnsentCombination {
                hasUnsentCombination = false
                demand -= 1
                let combined = combine(latest.map { $0! })
                let downstream = self.downstream
                lock.unlock()
                let more = downstream?.receive(combined) ?? .none
                lock.lock()
                if more > 0, !isTerminated {
                    demand += more
                    let running = upstreams.compactMap { $0 }
                    for index in upstreams.indices where upstreams[index] == nil && !finished[index] {
                        demandNotForwarded[index] += more
                    }
                    lock.unlock()
                    running.forEach { $0.request(more) }
                    lock.lock()
                }
                continue
            }
            if finished.allSatisfy({ $0 }) {
                deliverCompletion(.finished)
                return
            }
            if !hasMissedSignal { break }
        }
        isDraining = false
        lock.unlock()
    }

    /// Called with the lock held while draining; returns with it released.
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
        latest = latest.map { _ in nil }
    }
}
