import Cycler

/// A cart: lines, a quantity for the next line, and the total.
public final class Cart: ReplayableCycler {
    public enum Action: Codable, Sendable {
        case add(String)
        case setQuantity(Int)
        case remove(String)
        /// Keeps a line at the top. The app takes `pin` out of the secret words
        /// (`Redaction.default.removing(["pin"])`), so the line is recorded.
        case pin(String)
    }

    public struct State: Codable, Equatable, Sendable {
        public var lines: [String] = []
        public var quantity = 1
        public var total = 0
        public var pinned: String?
    }

    public let state: Storage<State> = .init(.init())

    public init() {}

    public func handle(_ action: Action) {
        switch action {
        case .add(let sku):
            commit("add") {
                $0.update($0.value.lines + [sku], \.lines)
                $0.update($0.value.total + 10 * $0.value.quantity, \.total)
            }
        case .setQuantity(let quantity):
            commit("setQuantity") { $0.update(max(1, quantity), \.quantity) }
        case .remove(let sku):
            commit("remove") { $0.update($0.value.lines.filter { $0 != sku }, \.lines) }
        case .pin(let line):
            commit("pin") { $0.update(line, \.pinned) }
        }
    }
}
