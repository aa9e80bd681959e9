import Cycler
import Foundation

/// A shop's checkout as four releases of an app shipped it. Two releases have a bug each, for the
/// fleet's SQL to find:
///
/// - 1.1.0 applies a coupon again on every tap and never stops at zero: the total can go negative;
/// - 1.2.0 prints the receipt with the total before the coupon: the receipt disagrees with the cart.
///
/// Every version also keeps the coupon's discount when lines are removed after it, so a total can
/// go negative there too, more rarely: the fleet's first question finds both.
final class Checkout: ReplayableCycler {
    enum Action: Codable, Sendable {
        case add(sku: String, price: Int)
        case setQuantity(sku: String, quantity: Int)
        case remove(sku: String)
        case applyCoupon(String)
        case checkout
    }

    struct Line: Codable, Equatable, Sendable {
        var sku: String
        var price: Int
        var quantity: Int
    }

    struct Receipt: Codable, Equatable, Sendable {
        var total: Int
        var itemCount: Int
    }

    /// Amounts in cents.
    struct State: Codable, Equatable, Sendable {
        var lines: [Line] = []
        var itemCount = 0
        var subtotal = 0
        var discount = 0
        var total = 0
        var coupon: String?
        var status = "open"
        var receipt: Receipt?
    }

    /// What `TENOFF` takes off.
    static let couponValue = 1_000

    let state: Storage<State> = .init(.init())
    let appVersion: String

    init(appVersion: String) {
        self.appVersion = appVersion
    }

    func handle(_ action: Action) {
        switch action {
        case .add(let sku, let price):
            commit("add") { cart in
                var lines = cart.value.lines
                if let index = lines.firstIndex(where: { $0.sku == sku }) { lines[index].quantity += 1 } else { lines.append(Line(sku: sku, price: price, quantity: 1)) }
                cart.update(lines, \.lines)
                cart.update(cart.value.itemCount + 1, \.itemCount)
                cart.update(cart.value.subtotal + price, \.subtotal)
                cart.update(cart.value.subtotal - cart.value.discount, \.total)
            }
        case .setQuantity(let sku, let quantity):
            guard let line = state.value.lines.first(where: { $0.sku == sku }) else { return }
            commit("setQuantity") { cart in
                let quantity = max(0, quantity)
                cart.update(cart.value.lines.map { $0.sku == sku ? Line(sku: sku, price: $0.price, quantity: quantity) : $0 }, \.lines)
                cart.update(cart.value.itemCount + quantity - line.quantity, \.itemCount)
                cart.update(cart.value.subtotal + (quantity - line.quantity) * line.price, \.subtotal)
                cart.update(cart.value.subtotal - cart.value.discount, \.total)
            }
        case .remove(let sku):
            guard let line = state.value.lines.first(where: { $0.sku == sku }) else { return }
            commit("remove") { cart in
                cart.update(cart.value.lines.filter { $0.sku != sku }, \.lines)
                cart.update(cart.value.itemCount - line.quantity, \.itemCount)
                cart.update(cart.value.subtotal - line.quantity * line.price, \.subtotal)
                cart.update(cart.value.subtotal - cart.value.discount, \.total)
            }
        case .applyCoupon(let code):
            let buggy = appVersion == "1.1.0"
            guard code == "TENOFF", buggy || state.value.coupon == nil else { return }
            commit("applyCoupon") { cart in
                let discount = buggy ? cart.value.discount + Self.couponValue : min(Self.couponValue, cart.value.subtotal)
                cart.update(code, \.coupon)
                cart.update(discount, \.discount)
                cart.update(cart.value.subtotal - discount, \.total)
            }
        case .checkout:
            guard state.value.status == "open" else { return }
            // Pricing the receipt asks a payment service, longer for a longer cart: the dispatch the
            // fleet's slowest percentile shows.
            Thread.sleep(forTimeInterval: 0.000_2 * Double(1 + state.value.lines.count))
            commit("checkout") { cart in
                let total = self.appVersion == "1.2.0" ? cart.value.subtotal : cart.value.total
                cart.update(Receipt(total: total, itemCount: cart.value.itemCount), \.receipt)
                cart.update("paid", \.status)
            }
        }
    }
}
