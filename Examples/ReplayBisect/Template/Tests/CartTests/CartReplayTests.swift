import Cart
import RewindTesting
import Testing

@Test func cartSessionReplays() {
    expectReplay(of: "Recordings/cart.rewind", driving: ["Cart": Cart().replayTarget])
}
