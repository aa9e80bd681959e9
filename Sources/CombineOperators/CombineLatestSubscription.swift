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
final class CombineLatestSubscription<Downstream: Subscriber>: CombiningSubscription<Downstream>, Subscription, UpstreamReceiver, CustomStringConvertible, @unchecked Sendable {
    // Unchecked: as `CombiningSubscription`, every stored property is guarded by `lock`; `combine`
    // is immutable.
    private let combine: ([Any]) -> Downstream.Input
    /// Demand requested by the downstream before an upstream's subscription arrived.
    private var demandNotForwarded: [Subscribers.Demand]
    private var latest: [Any?]
    private var hasUnsentCombination = false
    private var demand = Subscribers.Demand.none

    init(downstream: Downstream, upstreamCount: Int, combine: @escaping ([Any]) -> Downstream.Input) {
        self.combine = combine
        demandNotForwarded = Array(repeating: .none, count: upstreamCount)
        latest = Array(repeating: nil, count: upstreamCount)
        super.init(downstream: downstream, upstreamCount: upstreamCount)
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
        let running = forward(additional)
        lock.unlock()
        running.forEach { $0.request(additional) }
        drain()
    }

    func upstream(_ index: Int, subscribed subscription: Subscription) {
        lock.lock()
        guard keep(subscription, for: index) else {
            lock.unlock()
            subscription.cancel()
            return
        }
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

    /// Passes `demand` on: returns the upstreams to ask now, and owes it to those not subscribed yet.
    /// Call with the lock held.
    private func forward(_ demand: Subscribers.Demand) -> [Subscription] {
        var running: [Subscription] = []
        for index in upstreams.indices where !finished[index] {
            if let subscription = upstreams[index] {
                running.append(subscription)
            } else {
                demandNotForwarded[index] += demand
            }
        }
        return running
    }

    // MARK: Delivery

    override func step() -> DrainStep {
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
                let running = forward(more)
                lock.unlock()
                running.forEach { $0.request(more) }
                lock.lock()
            }
            return .progressed
        }
        return finished.allSatisfy({ $0 }) ? .finished : .idle
    }

    override func clearBuffers() {
        latest = latest.map { _ in nil }
    }
}
