/// One replay as it walks the journal: re-sends the bound units' inputs, compares the states they
/// reach, and puts back only what the live code never produced.
struct ReplayRun {
    /// How a dispatch's end is checked.
    private enum Check {
        /// The live unit ran it (a re-sent input, or a dispatch a live unit made itself): its state
        /// is compared.
        case compare
        /// It could not be re-sent (a closure): its recorded state is put back, unless the live unit
        /// already has it.
        case restore
    }

    private struct OpenDispatch {
        let step: UInt64
        let check: Check
        var depth: Int
        /// Whether it is an answer: work a re-sent input started, arriving on its own.
        var isAnswer = false
    }

    /// The recorded events, in step order.
    let events: [RecordedEvent]
    /// Whether the events' times are real (a fixture's are made up): the clock is then advanced by them.
    let hasRealTimes: Bool
    let targets: [UInt64: ReplayTarget]
    let clock: Replay.Clock?
    let maximumClockSteps: Int
    let invariants: [ReplayInvariant]
    /// Values for the inputs the recording hid.
    let secrets: ReplaySecrets
    /// Whether the walk stops at the first divergence (a check) or goes on to the end (re-recording).
    let stopsAtDivergence: Bool
    /// Whether live states are held to the recorded ones. Without, only invariants judge the run, and
    /// nothing the live units reached is put back (a shrunk recording whose states came from other
    /// inputs, or a fix that changes states on purpose).
    let comparesStates: Bool
    /// Whether recorded states are put back where the live code cannot produce them; a re-record
    /// puts nothing back (it records only what today's code does) and lists those steps instead.
    let restores: Bool
    /// Told which recorded dispatch is being sent, when a re-record writes it under its call site.
    let sending: InputBeingSent?

    private var report = ReplayReport()
    /// Each bound source's recorded state, by the one fold (``StateWalker``); replay compares the
    /// states the records left (``StateWalker/recordedState(of:)``).
    private var recordedStates = StateWalker()
    /// Each unit's live state when it was last compared or put back: a unit whose state has not moved
    /// since did not produce the step being checked.
    private var lastCheckedLive: [UInt64: StateValue] = [:]
    private var excludedPaths: [UInt64: [StatePath]] = [:]
    private var openDispatches: [UInt64: OpenDispatch] = [:]
    private var commitDepth: [UInt64: Int] = [:]
    private var lastInput: [UInt64: RecordedInput] = [:]
    /// Every input replayed, by the step of its dispatch: a divergence is blamed on the input whose
    /// dispatch caused it (its recorded parent link), even when it finished long before (a commit
    /// made later through the dispatch's context).
    private var inputsByStep: [UInt64: RecordedInput] = [:]
    /// Each recorded dispatch's unit and cause, by its step: what tells an input from an effect.
    private let dispatches: [UInt64: (source: UInt64, parent: UInt64?)]
    /// States that differed from the recording before the work they belong to had settled, by
    /// unit: the live unit may only be ahead (a reaction's queued mix ran before the replay reached
    /// it). They become a divergence if the difference is still there when the work has settled.
    private var unsettled: [UInt64: [Divergence]] = [:]
    /// The last recorded event of a bound unit handled: a broken invariant is reported there (the
    /// settle point comes after it, and after the input whose work broke it).
    private var lastHandled: RecordedEvent?
    /// Per event: whether the clock is held short of the next scheduled action there (see
    /// ``clockHolds(in:bound:)``).
    private let holds: [Bool]
    /// Whether the clock is held at the event being handled.
    private var holding = false
    /// Recorded time the clock has not been moved by yet, while it was held.
    private var owedTime: UInt64 = 0

    init(
        events: [RecordedEvent], hasRealTimes: Bool, targets: [UInt64: ReplayTarget], clock: Replay.Clock?,
        maximumClockSteps: Int, invariants: [ReplayInvariant], secrets: ReplaySecrets = ReplaySecrets(),
        stopsAtDivergence: Bool, comparesStates: Bool = true, restores: Bool = true, sending: InputBeingSent? = nil
    ) {
        self.restores = restores
        self.sending = sending
        self.secrets = secrets
        self.events = events
        self.hasRealTimes = hasRealTimes
        self.targets = targets
        self.clock = clock
        self.maximumClockSteps = maximumClockSteps
        self.invariants = invariants
        self.stopsAtDivergence = stopsAtDivergence
        self.comparesStates = comparesStates
        var dispatches: [UInt64: (source: UInt64, parent: UInt64?)] = [:]
        for event in events where event.kind == .willDispatch {
            dispatches[event.sequence] = (event.source.instanceID, event.parent)
        }
        self.dispatches = dispatches
        holds = Self.clockHolds(in: events, bound: Set(targets.keys))
    }

    /// Where the clock is held (see ``Replay``'s discussion of time): at the events from one
    /// re-sent input up to and with the next one, when the recording has work started before
    /// that next input arriving after it (a reply that came late). Holding the clock short of the
    /// next scheduled action there sends the input first, as the recording has it; the time held
    /// back is made up at the first event that does not hold.
    static func clockHolds(in events: [RecordedEvent], bound: Set<UInt64>) -> [Bool] {
        var index: [UInt64: Int] = [:]
        var links: [UInt64: (source: UInt64, parent: UInt64?)] = [:]
        for (position, event) in events.enumerated() where event.kind == .willDispatch {
            index[event.sequence] = position
            links[event.sequence] = (event.source.instanceID, event.parent)
        }
        /// The place of the re-sent input a chain of causes starts at.
        func inputPlace(of step: UInt64?) -> Int? {
            var current = step
            var seen = 0
            while let sequence = current, let link = links[sequence], seen <= links.count {
                if link.parent == nil { return bound.contains(link.source) ? index[sequence] : nil }
                current = link.parent
                seen += 1
            }
            return nil
        }
        var holds = [Bool](repeating: false, count: events.count)
        var earliestCauseAfter = Int.max
        var crossing = false
        for position in events.indices.reversed() {
            let event = events[position]
            let isInput = event.kind == .willDispatch && event.parent == nil && bound.contains(event.source.instanceID)
            if isInput { crossing = earliestCauseAfter < position }
            holds[position] = crossing
            if bound.contains(event.source.instanceID), let cause = inputPlace(of: event.parent) {
                earliestCauseAfter = min(earliestCauseAfter, cause)
            }
        }
        return holds
    }

    /// Moves the clock by the recorded time owed, or — where it is held — up to just short of
    /// the next scheduled action.
    private mutating func moveClock() {
        guard let clock, owedTime > 0 else { return }
        var move = owedTime
        if holding, let untilNext = clock.untilNextAction() { move = min(move, untilNext == 0 ? 0 : untilNext - 1) }
        guard move > 0 else { return }
        clock.advance(move)
        owedTime -= move
    }

    /// Whether work caused by dispatch `step` is the live units' own doing: the chain of causes
    /// leads to an input the replay sent, so its effects — a reaction's mix, a delayed answer —
    /// happen again by themselves. Work caused by a dispatch that could not be re-sent (a
    /// closure), by an unbound unit, or by something before the recording is not.
    private func isCausedByBoundUnit(_ step: UInt64) -> Bool {
        var current: UInt64? = step
        var seen = 0
        while let sequence = current, seen <= dispatches.count {
            if inputsByStep[sequence] != nil { return true }
            current = dispatches[sequence]?.parent
            seen += 1
        }
        return false
    }

    mutating func play() -> ReplayReport {
        // A recorded input that no longer decodes would stop the replay halfway: it is refused
        // before anything is sent.
        // A hidden input with no value to put back is never sent as its placeholder.
        let missing = Self.missingSecrets(in: events, bound: Set(targets.keys), secrets: secrets)
        if !missing.isEmpty {
            report.missingSecrets = missing
            report.wasRefused = true
            return report
        }
        let problems = Self.inputProblems(in: events, targets: targets, secrets: secrets)
        if !problems.isEmpty {
            report.schemaProblems = problems
            report.wasRefused = true
            return report
        }
        var lastTime: UInt64?
        for (position, event) in events.enumerated() {
            if hasRealTimes, clock != nil {
                if let lastTime, event.monotonicNanoseconds > lastTime { owedTime += event.monotonicNanoseconds - lastTime }
                lastTime = max(lastTime ?? 0, event.monotonicNanoseconds)
            }
            holding = holds[position]
            moveClock()
            let id = event.source.instanceID
            guard let target = targets[id] else { continue }
            recordedStates.advance(event)
            handle(event, target: target)
            lastHandled = event
            if stopsAtDivergence, report.divergence != nil || report.invariantViolation != nil { break }
        }
        if !stopsAtDivergence || (report.divergence == nil && report.invariantViolation == nil) { settleAll(atEnd: true) }
        return report
    }

    /// The point where the work of the inputs sent so far has settled — before the next input is
    /// sent, and at the end: a state that differed since is a divergence if it still differs now
    /// (reported at the first step that differed in the same place), and the invariants are held
    /// to every bound unit's live state. At the end every bound unit is compared, whether or not
    /// it differed before: work the live code did after the unit's last recorded step counts too.
    private mutating func settleAll(atEnd: Bool = false) {
        for id in targets.keys.sorted() {
            guard let target = targets[id] else { continue }
            let live = target.currentState()
            // Work that arrives after this input, as the recording has it, has not settled yet:
            // a difference waits for it.
            if holding && !atEnd {
                if let event = lastHandled { checkInvariants(live, at: event) }
                continue
            }
            let differences = unsettled.removeValue(forKey: id) ?? []
            if comparesStates, report.divergence == nil, let expected = expectedState(of: id), !differences.isEmpty || atEnd {
                let remaining = StateDiff(from: expected, to: live.removing(excludedPaths[id] ?? []))
                if !remaining.isEmpty {
                    let paths = remaining.changedPaths
                    let first = differences.first { candidate in
                        candidate.difference.changedPaths.contains { path in paths.contains { $0.isPrefix(of: path) || path.isPrefix(of: $0) } }
                    }
                    report.divergence = first ?? differences.last ?? lastHandled.map { event in
                        Divergence(
                            step: event.sequence, event: event.summaryForReplay, source: event.source.description,
                            input: rootInput(of: event) ?? lastInput[id],
                            recorded: expected, live: live.removing(excludedPaths[id] ?? []), difference: remaining
                        )
                    }
                }
            }
            if let event = lastHandled { checkInvariants(live, at: event) }
        }
    }

    private mutating func handle(_ event: RecordedEvent, target: ReplayTarget) {
        let id = event.source.instanceID
        switch event.kind {
        case .created:
            guard let recorded = recordedStates.recordedState(of: id) else { return }
            let problems: [SchemaProblem]
            if var recordedSchema = TypeSchema(recorded: event.description), var todaySchema = target.stateSchema() {
                // A unit whose state is its properties names them after the unit.
                if recordedSchema.typeName.isEmpty { recordedSchema.typeName = event.source.typeName }
                if todaySchema.typeName.isEmpty { todaySchema.typeName = event.source.typeName }
                problems = recordedSchema.changes(to: todaySchema)
            } else {
                problems = SchemaProblem.differences(recorded: recorded, live: target.currentState())
            }
            report.schemaProblems += problems
            excludedPaths[id] = problems.compactMap { try? StatePath(parsing: $0.path) }
            compare(event, target: target)
        case .willDispatch:
            willDispatch(event, target: target)
        case .didDispatch:
            guard var open = openDispatches[id] else { return }
            open.depth -= 1
            guard open.depth == 0 else {
                openDispatches[id] = open
                return
            }
            openDispatches[id] = nil
            switch open.check {
            case .compare: settle(event, target: target, onItsOwn: false, isAnswer: open.isAnswer)
            case .restore: putBack(event, target: target, because: .notResent(dispatch: event.name))
            }
        case .willMutate:
            commitDepth[id, default: 0] += 1
        case .didMutate:
            commitDepth[id, default: 0] = max(0, commitDepth[id, default: 0] - 1)
            if openDispatches[id] == nil, commitDepth[id] == 0 { settle(event, target: target, onItsOwn: true, isAnswer: isAnswer(event)) }
        case .change, .replace:
            if openDispatches[id] == nil, commitDepth[id, default: 0] == 0 {
                settle(event, target: target, onItsOwn: true, isAnswer: isAnswer(event))
            }
        case .activity, .released, .dropped, .log:
            break
        }
    }

    /// What stops the bound units' recorded inputs from being re-sent on this build, one problem per
    /// input case (with how many inputs share it).
    static func inputProblems(in events: [RecordedEvent], targets: [UInt64: ReplayTarget], secrets: ReplaySecrets) -> [SchemaProblem] {
        /// One input as the check sees it: the same input decodes the same way every time, so a
        /// session that sends a few actions over and over decodes each once here.
        struct Checked: Hashable {
            let source: UInt64
            let name: String
            let value: StateValue?
        }
        var problems: [(key: String, problem: SchemaProblem, count: Int)] = []
        var verdicts: [Checked: String?] = [:]
        for event in events where event.kind == .willDispatch && event.parent == nil {
            guard let target = targets[event.source.instanceID] else { continue }
            let checked = Checked(source: event.source.instanceID, name: event.name, value: event.value)
            let key: String?
            if let known = verdicts[checked] {
                key = known
            } else if let problem = target.inputProblem(secrets.filling(RecordedInput(name: event.name, value: event.value, step: event.sequence)).input) {
                let problemKey = "\(problem.typeName ?? "").\(problem.path)"
                if !problems.contains(where: { $0.key == problemKey }) { problems.append((problemKey, problem, 0)) }
                key = problemKey
            } else {
                key = nil
            }
            verdicts[checked] = .some(key)
            if let key, let index = problems.firstIndex(where: { $0.key == key }) { problems[index].count += 1 }
        }
        return problems.map { entry in
            guard entry.count > 1 else { return entry.problem }
            var counted = entry.problem
            counted.reason += "; \(entry.count - 1) more recorded input\(entry.count == 2 ? "" : "s") like it"
            return counted
        }
    }

    /// The hidden parts of the bound units' recorded inputs that `secrets` has no value for, each
    /// once, with how many inputs hide it.
    static func missingSecrets(in events: [RecordedEvent], bound: Set<UInt64>, secrets: ReplaySecrets) -> [MissingSecret] {
        var missing: [MissingSecret] = []
        // The dispatches a replay sends: those no re-sent input caused (see `isCausedByBoundUnit`).
        var dispatches: [UInt64: (source: UInt64, parent: UInt64?)] = [:]
        for event in events where event.kind == .willDispatch { dispatches[event.sequence] = (event.source.instanceID, event.parent) }
        func isEffect(_ event: RecordedEvent) -> Bool {
            var current = event.parent
            var seen = 0
            while let step = current, let dispatch = dispatches[step], seen <= dispatches.count {
                if dispatch.parent == nil { return bound.contains(dispatch.source) }
                current = dispatch.parent
                seen += 1
            }
            return false
        }
        for event in events where event.kind == .willDispatch && bound.contains(event.source.instanceID) {
            guard event.value?.containsRedaction == true, !isEffect(event) else { continue }
            for path in secrets.filling(RecordedInput(name: event.name, value: event.value, step: event.sequence)).missing {
                if let index = missing.firstIndex(where: { $0.input == event.name && $0.path == path }) {
                    missing[index].count += 1
                } else {
                    missing.append(MissingSecret(input: event.name, path: path, count: 1))
                }
            }
        }
        return missing
    }

    private mutating func willDispatch(_ event: RecordedEvent, target: ReplayTarget) {
        let id = event.source.instanceID
        if var open = openDispatches[id] {
            open.depth += 1
            openDispatches[id] = open
            return
        }
        // A dispatch inside one the replay is running (a view stream sending to an API stream),
        // or caused by one (a mix a reaction asked for, a delayed answer) is the live units' own
        // doing: it happens again by itself, and sending it too would do it twice.
        if let parent = event.parent, openDispatches.values.contains(where: { $0.step == parent }) || isCausedByBoundUnit(parent) {
            let isAnswer = !openDispatches.values.contains { $0.step == parent }
            openDispatches[id] = OpenDispatch(step: event.sequence, check: .compare, depth: 1, isAnswer: isAnswer)
            return
        }
        // An input: what the earlier ones caused has settled.
        settleAll()
        if stopsAtDivergence, report.divergence != nil || report.invariantViolation != nil { return }
        let recorded = RecordedInput(name: event.name, value: event.value, step: event.sequence)
        // Only the live unit is given the secrets a test supplies.
        let input = secrets.filling(recorded).input
        var replayed = false
        do {
            replayed = try sending.map { try $0.sending(event) { try target.replay(input) } } ?? target.replay(input)
        } catch {
            report.schemaProblems.append(SchemaProblem.from(error).prefixed("input \(input.name)"))
        }
        if replayed {
            report.inputsReplayed += 1
            // What a report shows of an input is what the journal shows: `<redacted>`, never a
            // value the test supplied.
            lastInput[id] = recorded
            inputsByStep[event.sequence] = recorded
        }
        openDispatches[id] = OpenDispatch(step: event.sequence, check: replayed ? .compare : .restore, depth: 1)
    }

    /// Checks the state at `event`, stepping the clock while the live unit has not reached it. A
    /// state the unit reaches `onItsOwn` (a commit from work started earlier, a reply arriving) that
    /// the live code never produced — the unit did not move at all — is put back; one it produced
    /// differently is a divergence.
    private mutating func settle(_ event: RecordedEvent, target: ReplayTarget, onItsOwn: Bool, isAnswer: Bool = false) {
        let id = event.source.instanceID
        var live = target.currentState()
        var steps = 0
        var ranOut = false
        while !matches(id, live: live), !holding, let clock, steps < maximumClockSteps {
            let untilNext = clock.untilNextAction()
            guard clock.step() else {
                ranOut = true
                break
            }
            // Stepping moved the clock over time the recording still owed it.
            owedTime -= min(owedTime, untilNext ?? 0)
            steps += 1
            live = target.currentState()
        }
        if comparesStates, isAnswer, ranOut, steps == 0, !matches(id, live: live), lastCheckedLive[id] == live,
            !report.unscheduledAnswers.contains(where: { $0.step == event.sequence })
        {
            report.unscheduledAnswers.append(
                UnscheduledAnswer(step: event.sequence, source: event.source.description, event: event.summaryForReplay, input: rootInput(of: event)))
        }
        // A state the unit reached without a cause the replay re-creates (work started before
        // the recording, a unit it does not bind) is put back; one the live code should have
        // reproduced is compared, and a difference is a divergence.
        if comparesStates, onItsOwn, !matches(id, live: live), lastCheckedLive[id] == live,
           !(event.parent.map(isCausedByBoundUnit) ?? false) {
            putBack(event, target: target, because: .notReproduced)
            return
        }
        compare(event, live: live)
    }

    /// Puts the recorded state back, listing the step, unless the live unit already has it.
    private mutating func putBack(_ event: RecordedEvent, target: ReplayTarget, because reason: RestoredStep.Reason) {
        let id = event.source.instanceID
        // What differed before stays a divergence: putting a recorded state back must not hide it.
        if let differences = unsettled.removeValue(forKey: id), comparesStates, report.divergence == nil {
            report.divergence = differences.first
        }
        guard let recorded = recordedStates.recordedState(of: id), let expected = expectedState(of: id) else { return }
        let live = target.currentState()
        let difference = StateDiff(from: live.removing(excludedPaths[id] ?? []), to: expected)
        guard !difference.isEmpty else {
            compare(event, target: target)
            return
        }
        guard restores else {
            report.skippedSteps.append(RestoredStep(
                step: event.sequence, source: event.source.description, event: event.summaryForReplay,
                paths: difference.changedPaths.map(\.description), reason: reason
            ))
            // The live unit goes on from the state it has: later states are its own.
            lastCheckedLive[id] = live
            return
        }
        do {
            try target.restore(to: recorded)
            report.restoredSteps.append(RestoredStep(
                step: event.sequence, source: event.source.description, event: event.summaryForReplay,
                paths: difference.changedPaths.map(\.description), reason: reason
            ))
        } catch {
            report.schemaProblems.append(SchemaProblem.from(error))
        }
        compare(event, target: target)
    }

    private func matches(_ id: UInt64, live: StateValue) -> Bool {
        guard let expected = expectedState(of: id) else { return true }
        return expected == live.removing(excludedPaths[id] ?? [])
    }

    /// The recorded state of unit `id` as the live one is held to it: without the paths left out
    /// of the comparison, and with the journal's numbering of a secret's values forgotten (a live
    /// capture does not number them).
    private func expectedState(of id: UInt64) -> StateValue? {
        recordedStates.recordedState(of: id).map { $0.removing(excludedPaths[id] ?? []).forgettingSecretVersions() }
    }

    private mutating func compare(_ event: RecordedEvent, target: ReplayTarget) {
        compare(event, live: target.currentState())
    }

    /// Compares `current`, the live unit's state at `event`, with the recorded state.
    private mutating func compare(_ event: RecordedEvent, live current: StateValue) {
        let id = event.source.instanceID
        lastCheckedLive[id] = current
        guard let expected = expectedState(of: id) else { return }
        report.statesCompared += 1
        let live = current.removing(excludedPaths[id] ?? [])
        if comparesStates, expected != live, report.divergence == nil {
            unsettled[id, default: []].append(Divergence(
                step: event.sequence, event: event.summaryForReplay, source: event.source.description,
                input: rootInput(of: event) ?? lastInput[id],
                recorded: expected, live: live, difference: StateDiff(from: expected, to: live)
            ))
        } else if comparesStates, expected == live {
            // Caught up: what differed before was the live unit running ahead.
            unsettled[id] = nil
        }
    }

    /// Whether `event`, made on its unit's own, is work a re-sent input started (a reply arriving).
    private func isAnswer(_ event: RecordedEvent) -> Bool {
        event.parent.map(isCausedByBoundUnit) ?? false
    }

    /// The re-sent input whose work `event` belongs to, following its causes.
    private func rootInput(of event: RecordedEvent) -> RecordedInput? {
        var current = event.parent
        var seen = 0
        while let step = current, seen <= dispatches.count {
            if let input = inputsByStep[step] { return input }
            current = dispatches[step]?.parent
            seen += 1
        }
        return nil
    }

    private mutating func checkInvariants(_ live: StateValue, at event: RecordedEvent) {
        for invariant in invariants {
            guard let holds = invariant.check(live) else { continue }
            report.invariantChecks += 1
            if !holds, report.invariantViolation == nil {
                report.invariantViolation = InvariantViolation(
                    step: event.sequence, event: event.summaryForReplay, source: event.source.description,
                    invariant: invariant.description, state: live
                )
            }
        }
    }
}

extension RecordedEvent {
    /// `didDispatch increment`, `change repositories`: the kind and what it is about.
    var summaryForReplay: String {
        [kind.rawValue, path ?? name].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension SchemaProblem {
    func prefixed(_ context: String) -> SchemaProblem {
        SchemaProblem(path: path, reason: "\(context): \(reason)")
    }
}
