import RewindSamples
import RewindTesting
import Testing

// This file imports `RewindTesting` and not `Rewind`: it compiles only while `RewindTesting`
// brings `Rewind` along, as the README's replay example promises.
@Suite("A replay test needs one import")
struct OneImportTests {
    struct CounterStore: Decodable { let count: Int }

    @Test("ReplayInvariant and expectReplay come with `import RewindTesting`")
    func invariantWithOneImport() {
        let invariant = ReplayInvariant("the count is never negative") { (store: CounterStore) in store.count >= 0 }
        expectReplay(
            of: "Fixtures/ricemill.rewind", driving: ["RicemillCounterSample": RicemillCounterSample().replayTarget],
            invariants: [invariant]
        )
    }
}
