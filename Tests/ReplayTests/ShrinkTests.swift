import Cycler
import Foundation
@testable import Rewind
import RewindTesting
import ReadmeChecking
import TestSupport
import Testing

/// A shopping cart whose quantity has no floor: `setQuantity(-1)` and an `add` afterwards make the
/// total negative, and a refund larger than the total does so alone.
final class ShrinkCart: ReplayableCycler {
    enum Action: Codable { case add(String), setQuantity(Int), refund(Int), browse(Int) }
    struct State: Codable, Equatable { var lines: [String] = []; var quantity = 1; var total = 0; var pagesSeen = 0 }
    let state: Storage<State> = .init(.init())
    /// How `setQuantity` treats a quantity below one: the recorded build clamped it, today's does not.
    let clampsQuantity: Bool

    init(clampsQuantity: Bool = false) {
        self.clampsQuantity = clampsQuantity
    }

    func handle(_ action: Action) {
        switch action {
        case .add(let sku):
            commit("add") {
                $0.update($0.value.lines + [sku], \.lines)
                $0.update($0.value.total + 10 * $0.value.quantity, \.total)
            }
        case .setQuantity(let quantity):
            commit("setQuantity") { $0.update(clampsQuantity ? max(1, quantity) : quantity, \.quantity) }
        case .refund(let amount):
            commit("refund") { $0.update($0.value.total - amount, \.total) }
        case .browse(let page):
            commit("browse") { $0.update($0.value.pagesSeen + page % 2, \.pagesSeen) }
        }
    }

    /// A dispatch that runs a closure: it cannot be re-sent.
    func openSavedCart() {
        dispatch("openSavedCart") { context in
            context.commit("openSavedCart") { $0.update($0.value.pagesSeen + 100, \.pagesSeen) }
        }
    }
}

let totalIsNeverNegative = ReplayInvariant("total is never negative") { (state: ShrinkCart.State) in state.total >= 0 }

@Suite("Shrinking a failing recording")
struct ShrinkTests {
    let directory = TemporaryDirectory()

    /// Records `actions` (`nil`: the closure dispatch) into a journal.
    func record(_ actions: [ShrinkCart.Action?], clamping: Bool = false, name: String = "cart.rewind") throws -> String {
        let path = directory.file(name)
        let journal = try JournalLogger(path: path)
        let cart = ShrinkCart(clampsQuantity: clamping)
        cart.set(logger: journal)
        for action in actions {
            if let action { cart.send(action) } else { cart.openSavedCart() }
        }
        journal.close()
        return path
    }

    func fresh(clamping: Bool = false) -> Replay.Setup {
        Replay.Setup(driving: ["ShrinkCart": ShrinkCart(clampsQuantity: clamping).replayTarget])
    }

    @Test("a generated session with one planted bad input shrinks to that input, and the original is untouched")
    func plantedInput() throws {
        var actions: [ShrinkCart.Action?] = (0..<600).map { $0 % 7 == 0 ? .add("SKU\($0)") : .browse($0) }
        actions.insert(.refund(100_000), at: 421)
        let path = try record(actions)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let result = try Replay.shrink(journal: path, invariants: [totalIsNeverNegative], setUp: { fresh() })

        #expect(result.keptInputs.map(\.name) == ["refund"])
        #expect(result.keptInputs.first?.description.contains("100000") == true)
        #expect(result.inputCount == 601)
        #expect(result.isMinimal)
        #expect(result.failure == .brokenInvariant("total is never negative", source: "ShrinkCart"))
        #expect(result.output == directory.file("cart.shrunk.rewind"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the recording shrunk is never written")
        #expect(result.description.hasPrefix("kept 1 of 601 inputs: #"), "\(result)")

        // The shrunk recording fails the same way, replayed as the suggested test replays it.
        let replay = try Replay(journal: result.output)
        try replay.bind("ShrinkCart", to: ShrinkCart().replayTarget)
        replay.invariants = [totalIsNeverNegative]
        let report = replay.run(comparingStates: false)
        #expect(result.failure.isReproduced(by: report), "\(report)")
        #expect(report.inputsReplayed == 1)
        #expect(result.suggestedTest.contains("comparingStates: false"))
        // The invariant that broke is in the suggestion, as a placeholder the compiler refuses until
        // it is filled in: a test with no invariant and no comparison could never fail.
        #expect(result.suggestedTest.contains("invariants: [<#the invariant 'total is never negative'#>]"), "\(result.suggestedTest)")
        #expect(!result.suggestedTest.contains("clock:"), "the units ran on no clock")

        // Once the bug is fixed (no refund beyond the total), the shrunk recording's test passes.
        let fixed = Replay.Setup(driving: ["ShrinkCart": FixedCart().replayTarget])
        let afterFix = try Replay(journal: result.output)
        for (name, target) in fixed.bindings { try afterFix.bind(name, to: target) }
        afterFix.invariants = [totalIsNeverNegative]
        #expect(afterFix.run(comparingStates: false).passes())
    }

    @Test("the suggested test can fail: the broken invariant is there even when the test's invariants are not known, and the clock is passed")
    func suggestedTestCanFail() {
        var result = ShrinkResult(
            failure: .brokenInvariant("total is never negative", source: "ShrinkCart"), recording: "cart.rewind",
            output: "cart.shrunk.rewind", keptInputs: [], inputCount: 3, notResent: [], isMinimal: true, replays: 2,
            elapsed: .seconds(1), comparesStates: false, bindings: ["ShrinkCart"], invariants: []
        )
        result.usesClock = true
        #expect(!result.suggestedTest.contains("invariants: []"))
        #expect(result.suggestedTest.contains("invariants: [<#the invariant 'total is never negative'#>]"))
        #expect(result.suggestedTest.contains("clock: <#the VirtualTimeScheduler those units run on#>"))
    }

    @Test("a failure that needs two inputs keeps both, and nothing else")
    func twoInputs() throws {
        var actions: [ShrinkCart.Action?] = (0..<400).map { .browse($0) }
        actions.insert(.setQuantity(-1), at: 150)
        actions.insert(.add("A1"), at: 300)
        let path = try record(actions)
        let result = try Replay.shrink(journal: path, invariants: [totalIsNeverNegative], setUp: { fresh() })
        #expect(result.keptInputs.map(\.description) == ["setQuantity {setQuantity: {_0: -1}}", "add {add: {_0: \"A1\"}}"], "\(result)")
        #expect(result.isMinimal)
    }

    @Test("a divergence shrinks to the input that diverges, each kept input replayed from its recorded state")
    func divergence() throws {
        var actions: [ShrinkCart.Action?] = (0..<300).map { $0 % 5 == 0 ? .add("SKU\($0)") : .browse($0) }
        actions.insert(.setQuantity(0), at: 200)
        let path = try record(actions, clamping: true)
        let result = try Replay.shrink(journal: path, setUp: { fresh(clamping: false) })
        #expect(result.failure == .divergence(path: "quantity", source: "ShrinkCart"))
        #expect(result.keptInputs.map(\.name) == ["setQuantity"], "\(result)")
        #expect(result.comparesStates)
        #expect(result.suggestedTest.contains("allowRestoring: true"))

        // The shrunk recording keeps the recorded states: today's build diverges on it the same way…
        let replay = try Replay(journal: result.output)
        try replay.bind("ShrinkCart", to: ShrinkCart().replayTarget)
        let report = replay.run()
        #expect(result.failure.isReproduced(by: report), "\(report)")
        // …and the build it was recorded with replays it faithfully.
        let recordedBuild = try Replay(journal: result.output)
        try recordedBuild.bind("ShrinkCart", to: ShrinkCart(clampsQuantity: true).replayTarget)
        #expect(recordedBuild.run().passes(allowRestoring: true))
    }

    @Test("inputs that cannot be re-sent are kept as recorded and named")
    func closures() throws {
        var actions: [ShrinkCart.Action?] = (0..<50).map { .browse($0) }
        actions.insert(nil, at: 10)
        actions.insert(.refund(5), at: 30)
        let path = try record(actions)
        let result = try Replay.shrink(journal: path, invariants: [totalIsNeverNegative], setUp: { fresh() })
        #expect(result.notResent.map(\.name) == ["openSavedCart"])
        #expect(result.keptInputs.map(\.name) == ["openSavedCart", "refund"])
        #expect(result.description.contains("kept as recorded, as they cannot be re-sent: #"))
    }

    @Test("out of time, the result says it was cut short, and what it kept still fails")
    func timeLimit() throws {
        var actions: [ShrinkCart.Action?] = (0..<100).map { .browse($0) }
        actions.insert(.refund(1), at: 60)
        let path = try record(actions)
        let result = try Replay.shrink(journal: path, invariants: [totalIsNeverNegative], maximumTime: .zero, setUp: { fresh() })
        #expect(!result.isMinimal)
        #expect(result.keptInputs.count == 61, "everything up to the failure")
        #expect(result.description.contains("cut short by the time limit"))
    }

    @Test("a passing replay, and an output that is the recording itself, are refused")
    func refusals() throws {
        let path = try record([.add("A"), .browse(1)])
        #expect(throws: ReplayError.self) {
            try Replay.shrink(journal: path, invariants: [totalIsNeverNegative], setUp: { fresh() })
        }
        let failing = try record([.refund(3)], name: "failing.rewind")
        let before = try Data(contentsOf: URL(fileURLWithPath: failing))
        #expect(throws: ReplayError.self) {
            try Replay.shrink(journal: failing, writingTo: failing, invariants: [totalIsNeverNegative], setUp: { fresh() })
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: failing)) == before)
    }
}

/// The cart with its bug fixed: a refund never takes the total below zero.
final class FixedCart: ReplayableCycler {
    typealias Action = ShrinkCart.Action
    typealias State = ShrinkCart.State
    let state: Storage<State> = .init(.init())
    private let cart = ShrinkCart()

    func handle(_ action: Action) {
        if case .refund(let amount) = action {
            commit("refund") { $0.update(max(0, $0.value.total - amount), \.total) }
        } else {
            cart.handle(action)
            commit("copy") { $0.replace(cart.state.value) }
        }
    }
}

@Suite("Delta debugging")
struct DeltaDebuggingTests {
    @Test("ddmin finds the two items a failure needs among a hundred, and stops when told")
    func twoOfAHundred() {
        let items = Array(0..<100)
        let result = DeltaDebugging.minimize(items, fails: { $0.contains(17) && $0.contains(42) }, isOutOfTime: { false })
        #expect(result.kept == [17, 42])
        #expect(result.isMinimal)
        let stopped = DeltaDebugging.minimize(items, fails: { $0.contains(17) }, isOutOfTime: { true })
        #expect(stopped == .init(kept: items, isMinimal: false, tests: 0))
    }

    @Test("split keeps order and covers every item")
    func split() {
        #expect(DeltaDebugging.split([1, 2, 3, 4, 5], into: 2) == [[1, 2], [3, 4, 5]])
        #expect(DeltaDebugging.split([1, 2, 3], into: 3) == [[1], [2], [3]])
    }
}

@Suite("The shrink article's example")
struct ShrinkReadmeTests {
    let directory = TemporaryDirectory()

    @Test("the shrink article's example runs as written, and prints what the article shows")
    func readmeExample() throws {
        let path = directory.file("cart.rewind")
        let journal = try JournalLogger(path: path)
        let recorded = ShrinkCart()
        recorded.set(logger: journal)
        for index in 0..<1_203 { recorded.send(index == 40 ? .setQuantity(-1) : index == 700 ? .add("A1") : .browse(index)) }
        journal.close()

        // The article's block, line for line:
        let totalIsNeverNegative = ReplayInvariant("total is never negative") { (state: ShrinkCart.State) in state.total >= 0 }
        let result = try Replay.shrink(journal: path, invariants: [totalIsNeverNegative]) {
            Replay.Setup(driving: ["ShrinkCart": ShrinkCart().replayTarget])
        }
        print(result)
        print(result.suggestedTest)

        #expect(result.description.hasPrefix("kept 2 of 1,203 inputs: #"))
        #expect(result.keptInputs.map(\.name) == ["setQuantity", "add"])
        let article = try DocumentedCode.article("ShrinkingAndBisecting")
        #expect(article.contains(result.suggestedTest.replacingOccurrences(of: path.replacingOccurrences(of: ".rewind", with: ".shrunk.rewind"), with: "cart.shrunk.rewind")))
    }

    @Test("every Swift block of the shrink article is in this file, line for line, in order")
    func readmeBlocks() throws {
        try DocumentedCode.expectBlocks(ofArticle: "ShrinkingAndBisecting", appearIn: #filePath)
    }
}
