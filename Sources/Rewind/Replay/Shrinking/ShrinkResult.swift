/// What a shrink kept, whether it is as small as it gets, where it wrote the shrunk recording, and
/// the test that replays it.
///
/// ```swift
/// print(result)
/// // kept 2 of 1,203 inputs: #12 add {sku: "A1"}, #40 setQuantity -1
/// // 1-minimal: without any one of them the replay no longer ends with invariant 'quantity is never negative' broken in Cart#1
/// // 41 replays in 3.2 s; wrote cart.shrunk.rewind
/// ```
public struct ShrinkResult: Sendable, CustomStringConvertible {
    /// The failure every kept reduction reproduced.
    public var failure: ReplayFailure
    /// The recording shrunk.
    public var recording: String
    /// The shrunk recording.
    public var output: String
    /// The inputs kept, as the original recording numbers them.
    public var keptInputs: [RecordedInput]
    /// How many inputs the recording had.
    public var inputCount: Int
    /// Inputs kept because they cannot be re-sent (a dispatch that ran a closure): the shrink could
    /// not try removing them.
    public var notResent: [RecordedInput]
    /// Whether removing any one kept input was tried and made the failure go away (1-minimal);
    /// `false` when the time ran out first.
    public var isMinimal: Bool
    /// How many times the recording (or a reduction of it) was replayed.
    public var replays: Int
    /// How long the shrink took.
    public var elapsed: Duration
    /// Whether the shrunk recording is checked against its recorded states (a divergence), or by
    /// the invariants alone (a broken invariant).
    package var comparesStates: Bool
    /// The names the units were bound under.
    package var bindings: [String]
    /// The invariants' descriptions.
    package var invariants: [String]
    /// Whether the units ran on a virtual clock, which the suggested test passes as `clock:`.
    package var usesClock = false
    /// The keys of the secrets the kept inputs were recorded without (``MissingSecret/key``),
    /// which the suggested test supplies as `secrets:`.
    package var secretKeys: [String] = []

    /// What was kept, whether it is 1-minimal, and where the shrunk recording is: the lines
    /// `rewind shrink` prints.
    public var description: String {
        var lines = ["kept \(Self.grouped(keptInputs.count)) of \(Self.grouped(inputCount)) input\(inputCount == 1 ? "" : "s")"
            + (keptInputs.isEmpty ? "" : ": " + keptInputs.map { "#\($0.step) \(Self.call($0))" }.joined(separator: ", "))]
        lines.append(isMinimal
            ? "1-minimal: without any one of them the replay no longer ends with \(failure)"
            : "cut short by the time limit: some of them may not be needed for \(failure)")
        if !notResent.isEmpty {
            lines.append("kept as recorded, as they cannot be re-sent: " + notResent.map { "#\($0.step) \($0.name)" }.joined(separator: ", "))
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        lines.append("\(replays) replays in \((seconds * 10).rounded() / 10) s; wrote \(output)")
        return lines.joined(separator: "\n")
    }

    /// The Swift Testing test that replays the shrunk recording, ready to paste: the live units,
    /// the clock, the secrets and the invariants are editor placeholders, which the compiler
    /// refuses until they are filled in as the test that found the failure makes them — so the
    /// test can fail: it compares states (a divergence) or holds the units to the invariant that
    /// broke.
    public var suggestedTest: String {
        let driving = bindings.map { "\"\($0)\": <#a fresh \($0)#>.replayTarget" }.joined(separator: ", ")
        var arguments = ["of: \"\(output)\"", "driving: [\(driving)]"]
        if usesClock { arguments.append("clock: <#the VirtualTimeScheduler those units run on#>") }
        if !secretKeys.isEmpty {
            arguments.append("secrets: [" + secretKeys.map { "\"\($0)\": <#the test's \($0)#>" }.joined(separator: ", ") + "]")
        }
        if comparesStates {
            arguments.append("allowRestoring: true")
        } else {
            // The invariant that broke, at least: a test with none would pass whatever the code.
            var names = invariants
            if case .brokenInvariant(let broken, _) = failure, !names.contains(broken) { names.append(broken) }
            let placeholders = names.map { "<#the invariant '\($0)'#>" }.joined(separator: ", ")
            arguments.append("invariants: [\(placeholders)]")
            arguments.append("comparingStates: false")
        }
        let why = comparesStates
            ? "// Each input is replayed from the state the recording had before it (put back first)."
            : "// The recorded states are today's; the invariants judge the replay, so it passes once the bug is fixed."
        return """
            @Test func shrunkReplay() {
                \(why)
                expectReplay(\(arguments.joined(separator: ", ")))
            }
            """
    }

    /// `setQuantity(-1)`, `add(sku: "A1")`: an action input as the call that sends it; any other
    /// input as the log shows it.
    static func call(_ input: RecordedInput) -> String {
        guard let caseName = InputShape.enumCase(of: input.value), caseName == input.name,
              case .object(let fields)? = input.value, case .object(let payload)? = fields[caseName] else { return input.description }
        return caseName + "(" + payload.map { InputShape.label($0.key) + $0.value.compactDescription(limit: 40) }.joined(separator: ", ") + ")"
    }

    /// `1,203`.
    static func grouped(_ count: Int) -> String {
        let digits = Array(String(count))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
