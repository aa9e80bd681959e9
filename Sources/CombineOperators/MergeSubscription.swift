import Foundation
@preconcurrency import OpenCombine

/// The inside of every merge: N upstreams of one output type feeding one downstream.
///
/// Combine's contract for merge: values from any upstream are republished as they come; the first
/// failure fails the merge and cancels the other upstreams; the merge finishes once every upstream
/// has finished. Back-pressure is kept exactly: while the downstream's demand is limited, each
/// upstream has at most one value requested, so at most one value per upstream ever waits here for
/// demand; once the demand is unlimited, every upstream is asked for unlimited values.
final class MergeSubscription<Downstream: Subscriber>: CombiningSubscription<Downstream>, Subscription, UpstreamReceiver, CustomStringConvertible, @unchecked Sendable {
    // Unchecked: as `CombiningSubscription`, every stored property is guarded by `lock`.
    typealias Output = Downstream.Input

    private var waiting: [[Output]]
    private var requestedOne: [Bool]
    private var askedUnlimited: [Bool]
    private var demand = Subscribers.Demand.none
    /// Where the next search for a waiting value starts, so that no upstream starves another.
    private var nextUpstream = 0

    override init(downstream: Downstream, upstreamCount: Int) {
        waiting = Array(repeating: [], count: upstreamCount)
        requestedOne = Array(repeating: false, count: upstreamCount)
        askedUnlimited = Array(repeating: false, count: upstreamCount)
        super.init(downstream: downstream, upstreamCount: upstreamCount)
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

    func upstream(_ index: Int, subscribed subscription: Subscription) {
        lock.lock()
        guard keep(subscription, for: index) else {
            lock.unlock()
            subscription.cancel()
            return
        }
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

    // MARK: Delivery

    override func step() -> DrainStep {
        if demand > 0, let index = indexWithWaitingValue() {
            let value = waiting[index].removeFirst()
            demand -= 1
            let downstream = self.downstream
            lock.unlock()
            let more = downstream?.receive(value) ?? .none
            lock.lock()
            demand += more
            return .progressed
        }
        if finished.allSatisfy({ $0 }), waiting.allSatisfy(\.isEmpty) { return .finished }
        let requests = upstreamRequestsDue()
        guard !requests.isEmpty else { return .idle }
        lock.unlock()
        for (subscription, amount) in requests { subscription.request(amount) }
        lock.lock()
        return .progressed
    }

    override func clearBuffers() {
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
