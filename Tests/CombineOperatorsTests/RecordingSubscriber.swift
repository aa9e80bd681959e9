import Foundation
@preconcurrency import OpenCombine

/// A subscriber that records what it receives and asks for exactly the demand a test gives it.
final class RecordingSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // Unchecked: every field is guarded by `lock`; signals may come from several threads.
    enum Signal {
        case value(Input)
        case finished
        case failure(Failure)
    }

    private let lock = NSLock()
    private var subscription: Subscription?
    private var received: [Signal] = []
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand
    private let onValue: (Input) -> Void

    init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none, onValue: @escaping (Input) -> Void = { _ in }) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
        self.onValue = onValue
    }

    var signals: [Signal] { lock.withLock { received } }
    var values: [Input] { signals.compactMap { if case .value(let value) = $0 { value } else { nil } } }
    var isFinished: Bool { signals.contains { if case .finished = $0 { true } else { false } } }
    var failures: [Failure] { signals.compactMap { if case .failure(let error) = $0 { error } else { nil } } }
    var completionCount: Int { signals.filter { if case .value = $0 { false } else { true } }.count }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { subscription }?.request(demand)
    }

    func cancel() {
        lock.withLock { subscription }?.cancel()
    }

    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { received.append(.value(input)) }
        onValue(input)
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            switch completion {
            case .finished: received.append(.finished)
            case .failure(let error): received.append(.failure(error))
            }
        }
    }
}

struct TestError: Error, Equatable {
    let code: Int
}

/// Records the demand an upstream is asked for and whether it was cancelled.
final class UpstreamProbe: @unchecked Sendable {
    // Unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var requestsSeen: [Subscribers.Demand] = []
    private var cancelled = false

    var requests: [Subscribers.Demand] { lock.withLock { requestsSeen } }
    var wasCancelled: Bool { lock.withLock { cancelled } }

    func watch<P: Publisher>(_ publisher: P) -> Publishers.HandleEvents<P> {
        publisher.handleEvents(
            receiveCancel: { self.lock.withLock { self.cancelled = true } },
            receiveRequest: { demand in self.lock.withLock { self.requestsSeen.append(demand) } }
        )
    }
}
