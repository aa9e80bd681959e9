import Foundation

extension Replay {
    /// Fresh live units for one replay: a shrink replays the recording many times, each time into
    /// units that start from scratch.
    ///
    /// ```swift
    /// Replay.Setup(driving: ["Cart": Cart().replayTarget])
    /// ```
    public struct Setup {
        /// Live units by the journal's name for the source whose inputs they receive.
        public var bindings: [String: any ReplayTarget]
        /// The clock the units' time-based operators run on, if any.
        public var clock: Clock?

        /// A setup of `bindings`, on `clock`.
        public init(driving bindings: [String: any ReplayTarget], clock: Clock? = nil) {
            self.bindings = bindings
            self.clock = clock
        }
    }

    /// Shrinks a recording whose replay fails to the fewest inputs that still fail the same way, and
    /// writes them as a new recording beside it (never over it).
    ///
    /// ```swift
    /// let result = try Replay.shrink(journal: "cart.rewind", invariants: [quantityIsNeverNegative]) {
    ///     Replay.Setup(driving: ["Cart": Cart().replayTarget])
    /// }
    /// print(result)                 // kept 2 of 1,203 inputs: #12 add {sku: "A1"}, #40 setQuantity -1 …
    /// print(result.suggestedTest)   // the expectReplay test that replays cart.shrunk.rewind
    /// ```
    ///
    /// It replays the recording into units `setUp` makes, and takes the failure it ends with — a
    /// broken invariant, or a divergence — as the one to keep. Then it removes recorded inputs by
    /// delta debugging (ddmin), keeping a removal only when the replay still fails the same way
    /// (``ReplayFailure``), until removing any single input left makes the failure go away, or
    /// `maximumTime` runs out (the result says which).
    ///
    /// How a reduced recording is judged depends on the failure:
    /// - A broken invariant is a property of the live code: the kept inputs are replayed in order
    ///   into fresh units, and only the invariants judge them. The shrunk recording is re-recorded
    ///   from today's code, so it shows the states the kept inputs lead to; its test replays it
    ///   with `comparingStates: false`, and keeps passing once the bug is fixed.
    /// - A divergence is a difference from the recorded states, which came from every input: each
    ///   kept input is replayed from the recorded states before it (put back first: its unit's and
    ///   those of the units its effects reach), and compared
    ///   with the recorded state after it. The shrunk recording keeps the recorded events and
    ///   those put-back states; its test replays it with `allowRestoring: true`.
    ///
    /// Inputs that cannot be re-sent (a dispatch that ran a closure) are kept as recorded, and
    /// listed in ``ShrinkResult/notResent``.
    ///
    /// - Parameters:
    ///   - path: the recording.
    ///   - output: where to write the shrunk recording; by default beside it, `NAME.shrunk.rewind`.
    ///   - invariants: conditions every replayed live state must meet.
    ///   - secrets: the values of the secrets the recording hid in its inputs (see
    ///     ``ReplaySecrets``); the suggested test supplies them too.
    ///   - maximumTime: how long to try removing inputs.
    ///   - setUp: makes fresh live units (and their clock) for one replay.
    /// - Throws: ``ReplayError`` when the recording cannot be replayed, when its replay passes, or
    ///   when `output` is the recording itself.
    public static func shrink(
        journal path: String, writingTo output: String? = nil, invariants: [ReplayInvariant] = [],
        secrets: ReplaySecrets = ReplaySecrets(), maximumTime: Duration = .seconds(300), setUp: () -> Setup
    ) throws(ReplayError) -> ShrinkResult {
        let started = ContinuousClock.now
        let output = output ?? ShrinkSearch.defaultOutput(for: path)
        try ShrinkSearch.refuseToOverwrite(path, with: output)
        let replay = try Replay(journal: path)
        replay.invariants = invariants
        replay.secrets = secrets
        let firstSetup = setUp()
        try replay.use(firstSetup)
        let original = replay.run()
        if !original.missingSecrets.isEmpty { throw .missingSecrets(original.missingSecrets) }
        if original.wasRefused { throw .schemaMismatch(original.schemaProblems) }
        guard let failure = ReplayFailure(original) else {
            throw .cannotShrink("its replay passes (\(original.inputsReplayed) inputs replayed, no divergence, no broken invariant)")
        }
        let search = ShrinkSearch(
            events: replay.recordedEvents, header: replay.reader.header, bound: Set(replay.targets.keys), failure: failure,
            failedAt: original.invariantViolation?.step ?? original.divergence?.step,
            divergence: original.divergence.flatMap { divergence in divergence.input.map { ($0.step, ShrinkSearch.text(of: divergence.difference)) } },
            notResentSteps: Set(original.restoredSteps.compactMap { restored in
                if case .notResent = restored.reason { return restored.step }
                return nil
            })
        )
        let (reduction, replays) = try search.search(until: started.advanced(by: maximumTime)) { events in
            guard (try? replay.use(setUp())) != nil else { return false }
            let report = replay.walk(events, stoppingAtDivergence: true, comparingStates: search.comparesStates)
            return search.isReproduced(by: report)
        }
        if search.comparesStates {
            try search.writeRecordedEvents(keeping: reduction.kept, to: output)
        } else {
            // A broken invariant's shrunk recording shows what today's code does with the kept inputs.
            try replay.use(setUp())
            _ = try replay.record(search.events(keeping: reduction.kept), to: output, comparingStates: false)
        }
        return search.result(
            recording: path, output: output, reduction: reduction, replays: replays + 1,
            elapsed: ContinuousClock.now - started, bindings: firstSetup.bindings.keys.sorted(),
            invariants: invariants.map(\.description), usesClock: firstSetup.clock != nil
        )
    }

    /// Binds the units of `setup` in place of those bound before, on its clock.
    func use(_ setup: Setup) throws(ReplayError) {
        targets = [:]
        clock = setup.clock
        for (source, target) in setup.bindings.sorted(by: { $0.key < $1.key }) {
            try bind(source, to: target)
        }
    }
}
