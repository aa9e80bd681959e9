@_spi(Tooling) import Rewind

/// Mixes of one or more substances, resolved together: ``react()`` runs them as one atomic mix on
/// the flux and then tells the reactors; ``abort()`` runs them and drops every change, with no
/// reaction.
///
/// ```swift
/// Flask.getReactor(attachedTo: self)
///     .mixing(substanceA) { $0.prop.counter = 10 }
///     .with(substanceB) { $0.prop.text = "text" }
///     .andReact()
/// ```
///
/// Nothing is applied until the chain is resolved, so a chain that is never resolved changes
/// nothing and holds nothing up (the original blocked its bus until then).
public final class ChainReaction: @unchecked Sendable {
    // Unchecked: immutable; each `mix` makes a new chain.
    private struct Step {
        let substance: SubstanceConcrete
        let run: () -> Void
    }

    private let steps: [Step]

    init() {
        steps = []
    }

    private init(steps: [Step]) {
        self.steps = steps
    }

    /// Adds a mix of `substance` to the chain.
    public func mix<S: SubstanceConcrete>(_ substance: S, _ mixer: @escaping (S) -> Void) -> ChainReaction {
        ChainReaction(steps: steps + [Step(substance: substance, run: { mixer(substance) })])
    }

    /// Adds a mix of `substance` to the chain.
    public func mixing<S: SubstanceConcrete>(_ substance: S, _ mixer: @escaping (S) -> Void) -> ChainReaction {
        mix(substance, mixer)
    }

    /// Adds a mix of `substance` to the chain.
    public func with<S: SubstanceConcrete>(_ substance: S, _ mixer: @escaping (S) -> Void) -> ChainReaction {
        mix(substance, mixer)
    }

    /// Adds a mix of `substance` to the chain.
    public func and<S: SubstanceConcrete>(_ substance: S, _ mixer: @escaping (S) -> Void) -> ChainReaction {
        mix(substance, mixer)
    }

    /// Commits every mix of the chain, then tells the reactors of each changed substance.
    /// Each substance's commit is logged with the line that resolved the chain.
    public func react(file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        let steps = self.steps
        let callSite = CallSite(file: file, function: function, line: line)
        (steps.first?.substance.scope ?? .current).bus.perform {
            let substances = Self.run(steps)
            let outcomes = substances.map { ($0, $0.commitMix(callSite: callSite)) }
            for (substance, outcome) in outcomes {
                substance.scope.reactors.deliver(outcome, from: substance, lock: nil)
            }
        }
    }

    /// Commits every mix of the chain, then tells the reactors (the seed's high-level name).
    public func andReact(file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        react(file: file, function: function, line: line)
    }

    /// Drops every change of the chain; no reactor hears of it. Logged as an `abort` activity of
    /// each substance.
    public func abort() {
        let steps = self.steps
        (steps.first?.substance.scope ?? .current).bus.perform {
            for substance in Self.run(steps) {
                substance.abortMix()
                if let logger = substance.channel.handle {
                    substance.channel.emit(.activity(LoggedValue(StateFields([("mixer", "chain")]))), name: "abort", callSite: .unknown, to: logger)
                }
            }
        }
    }

    /// Drops every change of the chain (the seed's high-level name).
    public func andAbort() { abort() }

    /// Runs the steps inside each substance's transaction; returns the substances, each once, in
    /// the order they first appear.
    private static func run(_ steps: [Step]) -> [SubstanceConcrete] {
        var substances: [SubstanceConcrete] = []
        for step in steps {
            if !substances.contains(step.substance) {
                substances.append(step.substance)
                step.substance.beginMix()
            }
            step.run()
        }
        return substances
    }
}
