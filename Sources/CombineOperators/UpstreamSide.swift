@preconcurrency import OpenCombine

/// What a combining subscription (a merge, a combine-latest) receives from each of its upstreams,
/// told apart by their position.
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
