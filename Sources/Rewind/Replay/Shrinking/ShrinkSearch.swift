/// One shrink's search, whoever replays the reductions: ``Replay/shrink(journal:writingTo:invariants:secrets:maximumTime:setUp:)``
/// replays them in this process, `rewind shrink` through a test run.
///
/// It holds the recording cut into inputs, the failure to keep, and which inputs it may remove:
/// those before the failure (the replay stops there) that can be re-sent.
package struct ShrinkSearch {
    let session: ShrinkableSession
    let header: JournalHeader
    /// The failure every kept reduction must end with.
    package let failure: ReplayFailure
    /// Whether reductions are checked against the recorded states (a divergence), each input from
    /// the recorded state before it, or by the invariants alone (a broken invariant).
    package let comparesStates: Bool
    /// Inputs kept whatever happens: they cannot be re-sent.
    let fixed: [Int]
    /// Inputs the search may remove.
    let candidates: [Int]
    /// Where the recording's replay diverged, when it did: after the input at `step`, with
    /// `difference` (``text(of:)``) between the recorded and the live state.
    let divergence: (step: UInt64, difference: String)?
    /// The sources live units are bound to.
    let bound: Set<UInt64>

    /// - Parameters:
    ///   - events: the recording's events, in step order.
    ///   - bound: the sources live units were bound to.
    ///   - failedAt: the step the replay failed at.
    ///   - notResentSteps: the ends of the dispatches the replay could not re-send.
    package init(
        events: [RecordedEvent], header: JournalHeader, bound: Set<UInt64>, failure: ReplayFailure,
        failedAt: UInt64?, divergence: (step: UInt64, difference: String)? = nil, notResentSteps: Set<UInt64>
    ) {
        let session = ShrinkableSession(events: events, bound: bound)
        self.session = session
        self.header = header
        self.failure = failure
        self.divergence = divergence
        self.bound = bound
        if case .divergence = failure { comparesStates = true } else { comparesStates = false }
        let before = session.inputs.indices.filter { session.inputs[$0].dispatch.sequence <= failedAt ?? .max }
        let notResent = Set(notResentSteps.compactMap(session.owner(ofStep:)))
        let fixed = before.filter(notResent.contains)
        self.fixed = fixed
        candidates = before.filter { !fixed.contains($0) }
    }

    /// Whether the replay of a candidate (``candidateEvents(keeping:)``), which ended with `other`
    /// (differing at `divergentPaths`), failed as the recording's did: ``ReplayFailure/isReproduced(by:)``
    /// and, for a divergence (after the input at `step` of the candidate, with `difference`), the
    /// same difference after the same recorded input. A reduction that diverges otherwise has lost
    /// what the recorded states do not hold — an answer recorded after inputs it no longer sends,
    /// the latest value a `combineLatest` holds — and would diverge on any code.
    package func isReproduced(byFailure other: ReplayFailure?, divergentPaths: [String], afterInputAt step: UInt64?, difference: String?) -> Bool {
        guard failure.isReproduced(byFailure: other, divergentPaths: divergentPaths) else { return false }
        guard comparesStates, let divergence else { return true }
        return step.map(ShrinkableSession.recordedStep(of:)) == divergence.step && difference == divergence.difference
    }

    /// A divergence's difference as the text two divergences are told the same by.
    package static func text(of difference: StateDiff) -> String {
        String(reflecting: difference)
    }

    /// ``isReproduced(byFailure:divergentPaths:afterInputAt:difference:)`` for a candidate replay's report.
    package func isReproduced(by report: ReplayReport) -> Bool {
        isReproduced(
            byFailure: ReplayFailure(report), divergentPaths: report.divergence?.difference.changedPaths.map(\.description) ?? [],
            afterInputAt: report.divergence?.input?.step, difference: report.divergence.map { ShrinkSearch.text(of: $0.difference) }
        )
    }

    /// The events of a candidate the search replays: ``events(keeping:)``, each at twice its
    /// recorded step, so that its replay's report tells the recorded steps apart.
    package func candidateEvents(keeping subset: [Int]) -> [RecordedEvent] {
        session.events(keeping: Set(subset).union(fixed), restoringBeforeInputs: comparesStates, keepingSteps: true)
    }

    /// How many inputs the search may remove.
    package var candidateCount: Int { candidates.count }

    /// How many inputs the recording has (those after the failure and those that cannot be
    /// re-sent included).
    package var inputCount: Int { session.inputs.count }

    /// The events of the reduction that keeps `subset` of the candidates (and the fixed inputs).
    package func events(keeping subset: [Int]) -> [RecordedEvent] {
        session.events(keeping: Set(subset).union(fixed), restoringBeforeInputs: comparesStates)
    }

    /// Reduces the candidates with delta debugging until the result is 1-minimal or `deadline`
    /// passes; `fails` replays a reduction's events and says whether they end with ``failure``.
    ///
    /// - Throws: when every candidate together does not fail: the failure does not reproduce the
    ///   way reductions are replayed.
    package func search(until deadline: ContinuousClock.Instant, fails: ([RecordedEvent]) -> Bool) throws(ReplayError) -> (reduction: DeltaDebugging.Result, replays: Int) {
        var replays = 1
        guard fails(candidateEvents(keeping: candidates)) else {
            throw .cannotShrink("replayed \(comparesStates ? "input by input, from the recorded states" : "by its invariants alone"), the recording no longer ends with the \(failure)")
        }
        let reduction = DeltaDebugging.minimize(candidates, fails: { subset in
            replays += 1
            return fails(candidateEvents(keeping: subset))
        }, isOutOfTime: { ContinuousClock.now >= deadline })
        return (reduction, replays)
    }

    /// Writes the reduction keeping `subset` as the recorded events themselves, with the states
    /// put back before its inputs: a divergence's shrunk recording.
    package func writeRecordedEvents(keeping subset: [Int], to output: String) throws(ReplayError) {
        try write(events(keeping: subset), to: output)
    }

    /// Writes a reduction's events as a journal at `output` (replaced at once when complete).
    package func write(_ events: [RecordedEvent], to output: String) throws(ReplayError) {
        do {
            let replacement = try FileReplacement(destination: output)
            do {
                try JournalEncoder.write(events, header: header, to: replacement.temporaryPath)
            } catch {
                replacement.discard()
                throw error
            }
            try replacement.moveIntoPlace()
        } catch {
            throw .cannotShrink("cannot write \(output): \(error)")
        }
    }

    /// What the search kept, as a result.
    package func result(
        recording: String, output: String, reduction: DeltaDebugging.Result, replays: Int, elapsed: Duration,
        bindings: [String], invariants: [String], usesClock: Bool = false
    ) -> ShrinkResult {
        var result = ShrinkResult(
            failure: failure, recording: recording, output: output,
            keptInputs: (reduction.kept + fixed).sorted().map { session.inputs[$0].recordedInput },
            inputCount: session.inputs.count, notResent: fixed.map { session.inputs[$0].recordedInput },
            isMinimal: reduction.isMinimal, replays: replays, elapsed: elapsed, comparesStates: comparesStates,
            bindings: bindings, invariants: invariants
        )
        result.usesClock = usesClock
        result.secretKeys = ReplayRun.missingSecrets(in: events(keeping: reduction.kept), bound: bound, secrets: ReplaySecrets()).map(\.key)
        return result
    }

    /// `cart.shrunk.rewind` for `cart.rewind`.
    package static func defaultOutput(for path: String) -> String {
        let base = path.hasSuffix(".rewind") ? String(path.dropLast(".rewind".count)) : path
        return base + ".shrunk.rewind"
    }

    /// Refuses an output that is the recording itself (by any path that leads to it).
    package static func refuseToOverwrite(_ recording: String, with output: String) throws(ReplayError) {
        if FileKind.areSameFile(output, recording) {
            throw .cannotShrink("the shrunk recording would be written over \(recording); name another output")
        }
    }
}
