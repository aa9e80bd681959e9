import Cart
import Rewind

// Records a shopping session of 200 actions, one of them a quantity of zero. Pinning a line is
// not a secret in this app: its rules keep the word `pin` out.
Redaction.current = Redaction.default.removing(["pin"])
var configuration = JournalConfiguration()
configuration.deterministic = true
configuration.replaceExisting = true
let journal = try JournalLogger(path: "Recordings/cart.rewind", configuration: configuration)
let cart = Cart()
cart.set(logger: journal)
for step in 0..<200 {
    switch step {
    case 137: cart.send(.setQuantity(0))
    case _ where step % 10 == 9: cart.send(.remove("SKU\(step - 5)"))
    case _ where step % 10 == 3: cart.send(.pin("SKU\(step - 2)"))
    case _ where step % 4 == 0: cart.send(.setQuantity(1 + step % 3))
    default: cart.send(.add("SKU\(step)"))
    }
}
journal.close()
