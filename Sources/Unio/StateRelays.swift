@preconcurrency import OpenCombine
import ReactiveRecording

/// The value-holding relays and subjects of a stream's state, found by reflection: what is logged as
/// the state.
enum StateRelays {
    static func of(_ state: Any) -> [ObservedProperty] {
        ObservedProperty.children(of: state).compactMap { child in
            guard let label = child.label, let relay = child.value as? any ObservableStateValue else { return nil }
            return relay.observed(name: ObservedProperty.plainName(label))
        }
    }
}

/// A relay or subject whose value is part of a stream's state.
protocol ObservableStateValue {
    func observed(name: String) -> ObservedProperty
}

extension BehaviorRelay: ObservableStateValue {
    func observed(name: String) -> ObservedProperty {
        ObservedProperty(name: name, publisher: map { $0 as Any }.eraseToAnyPublisher(), currentValue: { self.value })
    }
}

extension BehaviorSubject: ObservableStateValue {
    func observed(name: String) -> ObservedProperty {
        // A failure ends the subject's stream; the state keeps its last value.
        ObservedProperty(
            name: name,
            publisher: map { $0 as Any }.catch { _ in Empty<Any, Never>() }.eraseToAnyPublisher(),
            currentValue: { self.lastValue }
        )
    }
}
