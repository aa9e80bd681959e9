import Foundation
@preconcurrency import OpenCombine

/// What every subscription that combines several upstreams into one downstream (a merge, a
/// combine-latest) shares: the upstreams' subscriptions and completions, the first failure, and the
/// serial *drain* that delivers to the downstream.
///
/// Every signal — a request, an upstream's value, subscription or completion — only changes state
/// under `lock` and then calls ``drain()``: one caller at a time delivers what the state allows,
/// outside the lock, so the downstream never sees two signals at once and never re-enters itself,
/// while upstreams may send from any thread and from inside `request(_:)`. A signal that arrives
/// while another caller drains sets `hasMissedSignal`, and that caller looks again.
class CombiningSubscription<Downstream: Subscriber>: @unchecked Sendable {
    // Unchecked: every stored property is read and written under `lock`.
    typealias Failure = Downstream.Failure

    let lock = NSLock()
    var downstream: Downstream?
    var upstreams: [Subscription?]
    var finished: [Bool]
    var failure: Failure?
    var isTerminated = false
    var isDraining = false
    var hasMissedSignal = false

    init(downstream: Downstream, upstreamCount: Int) {
        self.downstream = downstream
        upstreams = Array(repeating: nil, count: upstreamCount)
        finished = Array(repeating: false, count: upstreamCount)
    }

    /// What one step of draining did.
    enum DrainStep {
        /// Delivered something or asked upstreams for more: look again.
        case progressed
        /// Nothing more will come: finish the downstream.
        case finished
        /// Nothing to do until another signal arrives.
        case idle
    }

    /// Delivers whatever the state allows, one step at a time, until nothing is left to do; the
    /// first failure ends it. Call without the lock.
    final func drain() {
        lock.lock()
        if isDraining {
            hasMissedSignal = true
            lock.unlock()
            return
        }
        isDraining = true
        draining: while true {
            hasMissedSignal = false
            if isTerminated { break }
            if let failure {
                deliverCompletion(.failure(failure))
                return
            }
            switch step() {
            case .progressed:
                continue
            case .finished:
                deliverCompletion(.finished)
                return
            case .idle:
                if !hasMissedSignal { break draining }
            }
        }
        isDraining = false
        lock.unlock()
    }

    /// Does the next thing the state allows; subclasses implement it. Called with the lock held; it
    /// may release the lock to deliver or request, and holds it again when it returns.
    func step() -> DrainStep { .idle }

    /// Drops buffered values when the subscription ends; subclasses add theirs. Call with the lock.
    func clearBuffers() {}

    /// Stops everything: no more signals reach the downstream, and every upstream is cancelled.
    func cancel() {
        lock.lock()
        isTerminated = true
        let subscriptions = upstreams.compactMap { $0 }
        clear()
        lock.unlock()
        subscriptions.forEach { $0.cancel() }
    }

    /// Upstream `index` finished or failed; the first failure fails the whole.
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

    /// Keeps upstream `index`'s subscription; returns `false` (having cancelled it) when it comes
    /// too late or twice.
    func keep(_ subscription: Subscription, for index: Int) -> Bool {
        guard !isTerminated, upstreams[index] == nil, !finished[index] else { return false }
        upstreams[index] = subscription
        return true
    }

    /// Ends with `completion`, cancelling the upstreams still running. Called with the lock held
    /// while draining; returns with it released.
    func deliverCompletion(_ completion: Subscribers.Completion<Failure>) {
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
        clearBuffers()
    }
}

/// What a combining subscription receives from each of its upstreams, told apart by position.
protocol UpstreamReceiver: AnyObject {
    associatedtype Failure: Error
    func upstream(_ index: Int, subscribed subscription: Subscription)
    func upstream(_ index: Int, sent value: Any)
    func upstream(_ index: Int, completedWith completion: Subscribers.Completion<Failure>)
}

/// The subscriber attached to upstream number `index` of a combining subscription; it only
/// forwards, so that all the state lives in one place.
struct UpstreamSide<Input, Receiver: UpstreamReceiver>: Subscriber, CustomStringConvertible {
    typealias Failure = Receiver.Failure
    let receiver: Receiver
    let index: Int
    let description: String
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: Subscription) {
        receiver.upstream(index, subscribed: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        receiver.upstream(index, sent: input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        receiver.upstream(index, completedWith: completion)
    }
}
