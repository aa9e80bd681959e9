@preconcurrency import OpenCombine
import Ricemill

/// The Ricemill README's counter: increment, decrement (never below zero), a toggle that enables the
/// buttons and reads "Enabled"/"Disabled". A machine that is its own resolver, with a bindable input
/// and the store as its output. Used by `rewind demo`, the fixtures and the tests.
public final class RicemillCounterSample: Machine<RicemillCounterSample> {
    public typealias Output = Store

    /// Buttons and the toggle (public because the sample is used from other modules; the README
    /// keeps them internal, which is enough inside an app).
    public final class Input: BindableInputType {
        public let increment = PassthroughSubject<Void, Never>()
        public let decrement = PassthroughSubject<Void, Never>()
        @Published public var isOn = false

        public init() {}
    }

    /// The counter's state, which is also what the screen shows.
    public final class Store: StoredOutputType {
        @Published public var count: Int = 0
        @Published public var isIncrementEnabled = false
        @Published public var isDecrementEnabled = false
        @Published public var toggleText = ""

        public init() {}
    }

    /// No other dependencies.
    public struct Extra: ExtraType {
        public init() {}
    }

    /// A counter at zero with the buttons off.
    public convenience init() {
        self.init(input: Input(), store: Store(), extra: Extra())
    }

    public static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
        var cancellables: [AnyCancellable] = []

        do {
            let increment = input.increment
                .flatMap { _ in Just(store.count) }
                .map { $0 + 1 }

            let decrement = input.decrement
                .flatMap { _ in Just(store.count) }
                .map { $0 > 0 ? $0 - 1 : $0 }

            increment.merge(with: decrement)
                .assign(to: \.count, on: store)
                .store(in: &cancellables)
        }

        input.$isOn
            .assign(to: \.isIncrementEnabled, on: store)
            .store(in: &cancellables)

        input.$isOn
            .combineLatest(store.$count)
            .map { $0 && $1 > 0 }
            .assign(to: \.isDecrementEnabled, on: store)
            .store(in: &cancellables)

        input.$isOn
            .map { $0 ? "Enabled" : "Disabled" }
            .assign(to: \.toggleText, on: store)
            .store(in: &cancellables)

        return Polished(cancellables: cancellables)
    }
}
