import Cycler
import Foundation
@_spi(Tooling) import Rewind

/// Shrink speed (issue 29's target: a 10,000-input session with one bad input shrinks to at most 5
/// inputs in at most 2 minutes): a cart session is recorded with one bad input planted, then shrunk
/// in this process with `Replay.shrink`, once for a broken invariant and once for a divergence.
enum ShrinkMeasurement {
    struct Result: Codable {
        var failure: String
        var inputs: Int
        var kept: Int
        var isMinimal: Bool
        var replays: Int
        var seconds: Double
        var targetMet: Bool
    }

    struct Report: Codable {
        var results: [Result]
        var machine: String
    }

    static func run(directory: String, inputs: Int = 10_000) throws -> [Result] {
        let bad = inputs * 7 / 10
        // A broken invariant: a refund larger than everything bought.
        let refund = try record(directory + "/shrink-refund.rewind", inputs: inputs, clamping: false) { $0 == bad ? .refund(1_000_000) : nil }
        let invariant = try Replay.shrink(
            journal: refund, invariants: [ReplayInvariant("total is never negative") { (state: BenchCart.State) in state.total >= 0 }]
        ) { Replay.Setup(driving: ["BenchCart": BenchCart(clamping: false).replayTarget]) }
        // A divergence: recorded by a build that kept the quantity at one or more, replayed by one that does not.
        let zero = try record(directory + "/shrink-quantity.rewind", inputs: inputs, clamping: true) { $0 == bad ? .setQuantity(0) : nil }
        let divergence = try Replay.shrink(journal: zero) { Replay.Setup(driving: ["BenchCart": BenchCart(clamping: false).replayTarget]) }
        return [invariant, divergence].map { result in
            let seconds = Double(result.elapsed.components.seconds) + Double(result.elapsed.components.attoseconds) / 1e18
            return Result(
                failure: result.failure.description, inputs: result.inputCount, kept: result.keptInputs.count,
                isMinimal: result.isMinimal, replays: result.replays, seconds: seconds,
                targetMet: result.keptInputs.count <= 5 && seconds <= 120
            )
        }
    }

    /// Records `inputs` cart actions: mostly browsing and adding, with `planted` deciding the odd one.
    private static func record(_ path: String, inputs: Int, clamping: Bool, planted: (Int) -> BenchCart.Action?) throws -> String {
        var configuration = JournalConfiguration()
        configuration.replaceExisting = true
        let journal = try JournalLogger(path: path, configuration: configuration)
        let cart = BenchCart(clamping: clamping)
        cart.set(logger: journal)
        for index in 0..<inputs {
            cart.send(planted(index) ?? (index % 9 == 0 ? .add("SKU\(index)") : index % 13 == 0 ? .setQuantity(2) : .browse(index)))
        }
        journal.close()
        return path
    }

    static func line(_ result: Result) -> String {
        String(format: "shrink of a %d-input cart session (%@): kept %d in %.1f s, %d replays, %@%@",
               result.inputs, result.failure, result.kept, result.seconds, result.replays,
               result.isMinimal ? "1-minimal" : "cut short", result.targetMet ? "" : " — TARGET NOT MET")
    }
}

/// The cart the shrink measurement records and shrinks.
final class BenchCart: ReplayableCycler {
    enum Action: Codable { case add(String), setQuantity(Int), refund(Int), browse(Int) }
    struct State: Codable { var lines: [String] = []; var quantity = 1; var total = 0; var pagesSeen = 0 }
    let state: Storage<State> = .init(.init())
    let clamping: Bool

    init(clamping: Bool) {
        self.clamping = clamping
    }

    func handle(_ action: Action) {
        switch action {
        case .add(let sku):
            commit("add") {
                $0.update($0.value.lines + [sku], \.lines)
                $0.update($0.value.total + 10 * $0.value.quantity, \.total)
            }
        case .setQuantity(let quantity): commit("setQuantity") { $0.update(clamping ? max(1, quantity) : quantity, \.quantity) }
        case .refund(let amount): commit("refund") { $0.update($0.value.total - amount, \.total) }
        case .browse(let page): commit("browse") { $0.update($0.value.pagesSeen + page % 2, \.pagesSeen) }
        }
    }
}
