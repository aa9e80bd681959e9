import Foundation

/// Replays a recorded session into live units: re-sends the recorded inputs in order, compares each
/// resulting state with the recorded one, and stops at the first divergence.
///
/// ```swift
/// let replay = try Replay(journal: "Fixtures/ricemill.rewind")
/// try replay.bind("RicemillCounterSample#1", to: RicemillCounterSample().replayTarget)
/// let report = replay.run()
/// print(report)   // "replayed 10 inputs, compared 11 states, … no divergence"
/// ```
///
/// What is re-sent: each top-level dispatch of a bound unit that carries an input (a Ricemill or
/// Unio input value, a Flask mixer, a replayable Cycler action). What is compared: the state after
/// each such dispatch, and every state change the unit made on its own (a timer firing, a reply
/// arriving). Time-based operators run on the ``clock`` you give: between recorded events it is
/// moved by the recorded time (when the journal has real times), and while the live unit has not
/// yet reached a state it reached on its own, it is stepped to its next scheduled action — so a
/// replay is deterministic and takes no real time. A step that cannot be re-sent (a closure) has its
/// recorded state put back instead.
///
/// Bind the units whose inputs came from outside; units they drive (an API stream the view stream
/// sends to) produce their own dispatches during the replay and are left unbound.
public final class Replay {
    /// A virtual clock the replay moves: `advance` by nanoseconds, and `step` to run the next
    /// scheduled action (returning `false` when none is scheduled).
    public struct Clock {
        let advance: (UInt64) -> Void
        let step: () -> Bool

        /// A clock from its two operations.
        public init(advance: @escaping (_ nanoseconds: UInt64) -> Void, step: @escaping () -> Bool) {
            self.advance = advance
            self.step = step
        }
    }

    /// The journal being replayed.
    public let reader: JournalReader
    /// The clock time-based operators of the bound units run on, if any.
    public var clock: Clock?
    /// How many scheduled actions the replay runs, at most, waiting for one recorded state.
    public var maximumClockSteps = 10_000

    private var targets: [UInt64: ReplayTarget] = [:]

    /// Opens a journal to replay.
    public init(journal path: String) throws(ReplayError) {
        do {
            reader = try JournalReader(path: path)
        } catch {
            throw .unreadableJournal(error.description)
        }
    }

    /// Replays `source`'s inputs into `target`. `source` is as the journal names it: a label,
    /// `Type#id`, or a type name that only one source has.
    public func bind(_ source: String, to target: ReplayTarget) throws(ReplayError) {
        targets[try instanceID(of: source)] = target
    }

    /// Puts `target` into the state `source` had at `step`: time travel on a live unit.
    public func restore(_ target: ReplayTarget, to step: UInt64, of source: String) throws(ReplayError) {
        let id = try instanceID(of: source)
        let state: StateValue?
        do { state = try reader.state(of: id, at: step) } catch { throw .unreadableJournal(error.description) }
        guard let state else { throw .noState(source: source, step: step) }
        do {
            try target.restore(to: state)
        } catch let error as ReplayError {
            throw error
        } catch {
            throw .schemaMismatch([SchemaProblem.from(error)])
        }
    }

    private func instanceID(of name: String) throws(ReplayError) -> UInt64 {
        let sources = reader.sources.map(\.source)
        let matches = sources.filter { $0.matches(name) }
        guard !matches.isEmpty else { throw .unknownSource(name, known: sources.map(\.description)) }
        guard matches.count == 1 else { throw .ambiguousSource(name, candidates: matches.map { "\($0.typeName)#\($0.instanceID)" }) }
        return matches[0].instanceID
    }

    // MARK: Running

    /// Runs the replay to the end of the journal or the first divergence.
    public func run() -> ReplayReport {
        var run = ReplayRun(reader: reader, targets: targets, clock: clock, maximumClockSteps: maximumClockSteps)
        return run.play()
    }
}

/// The state of one replay as it walks the journal.
struct ReplayRun {
    private struct OpenDispatch {
        /// How the dispatch's end is checked: the state it reached is compared (re-sent inputs and
        /// dispatches the live units make themselves), or put back (inputs that cannot be re-sent).
        enum Check { case compare, restore }
        let step: UInt64
        let check: Check
        var depth: Int
    }

    let reader: JournalReader
    let targets: [UInt64: ReplayTarget]
    let clock: Replay.Clock?
    let maximumClockSteps: Int

    private var report = ReplayReport()
    private var recordedStates: [UInt64: StateValue] = [:]
    private var excludedPaths: [UInt64: [StatePath]] = [:]
    private var openDispatches: [UInt64: OpenDispatch] = [:]
    private var commitDepth: [UInt64: Int] = [:]
    private var lastInput: [UInt64: RecordedInput] = [:]

    init(reader: JournalReader, targets: [UInt64: ReplayTarget], clock: Replay.Clock?, maximumClockSteps: Int) {
        self.reader = reader
        self.targets = targets
        self.clock = clock
        self.maximumClockSteps = maximumClockSteps
    }

    mutating func play() -> ReplayReport {
        // Deterministic journals (fixtures) have made-up times: the clock is then only stepped.
        let hasRealTimes = reader.header.createdMonotonicNanoseconds != 0
        var lastTime: UInt64?
        let events = Array(reader.events()).sorted { $0.sequence < $1.sequence }
        for event in events {
            if hasRealTimes, let clock {
                if let lastTime, event.monotonicNanoseconds > lastTime { clock.advance(event.monotonicNanoseconds - lastTime) }
                lastTime = max(lastTime ?? 0, event.monotonicNanoseconds)
            }
            let id = event.source.instanceID
            guard let target = targets[id] else { continue }
            if let record = event.stateRecord { recordedStates[id] = StateStep.record(record).applied(to: recordedStates[id]) }
            handle(event, target: target)
            if report.divergence != nil { break }
        }
        return report
    }

    private mutating func handle(_ event: RecordedEvent, target: ReplayTarget) {
        let id = event.source.instanceID
        switch event.kind {
        case .created:
            guard let recorded = recordedStates[id] else { return }
            let problems = SchemaProblem.differences(recorded: recorded, live: target.currentState())
            report.schemaProblems += problems
            excludedPaths[id] = problems.compactMap { try? StatePath(parsing: $0.path) }
            compare(event, target: target)
        case .willDispatch:
            if var open = openDispatches[id] {
                open.depth += 1
                openDispatches[id] = open
                return
            }
            // A dispatch inside one the replay is running is the live units' own doing (a view stream
            // sending to an API stream): it happens again by itself.
            if let parent = event.parent, openDispatches.values.contains(where: { $0.step == parent }) {
                openDispatches[id] = OpenDispatch(step: event.sequence, check: .compare, depth: 1)
                return
            }
            let input = RecordedInput(name: event.name, value: event.value, step: event.sequence)
            var replayed = false
            do {
                replayed = try target.replay(input)
            } catch {
                report.schemaProblems.append(SchemaProblem.from(error).prefixed("input \(input.name)"))
            }
            if replayed {
                report.inputsReplayed += 1
                lastInput[id] = input
            }
            openDispatches[id] = OpenDispatch(step: event.sequence, check: replayed ? .compare : .restore, depth: 1)
        case .didDispatch:
            guard var open = openDispatches[id] else { return }
            open.depth -= 1
            guard open.depth == 0 else {
                openDispatches[id] = open
                return
            }
            openDispatches[id] = nil
            switch open.check {
            case .compare: settle(event, target: target, canRestore: false)
            case .restore: restore(event, target: target)
            }
        case .willMutate:
            commitDepth[id, default: 0] += 1
        case .didMutate:
            commitDepth[id, default: 0] = max(0, commitDepth[id, default: 0] - 1)
            if openDispatches[id] == nil, commitDepth[id] == 0 { settle(event, target: target, canRestore: true) }
        case .change, .replace:
            if openDispatches[id] == nil, commitDepth[id, default: 0] == 0 { settle(event, target: target, canRestore: event.kind == .replace) }
        case .activity, .released, .dropped:
            break
        }
    }

    /// Compares at `event`; while the live unit has not reached the recorded state, steps the clock.
    /// A named commit the unit made on its own (a closure) is restored rather than reported.
    private mutating func settle(_ event: RecordedEvent, target: ReplayTarget, canRestore: Bool) {
        var steps = 0
        while !matches(event.source.instanceID, target: target), let clock, steps < maximumClockSteps, clock.step() {
            steps += 1
        }
        if !matches(event.source.instanceID, target: target), canRestore {
            restore(event, target: target)
            return
        }
        compare(event, target: target)
    }

    private mutating func restore(_ event: RecordedEvent, target: ReplayTarget) {
        guard let recorded = recordedStates[event.source.instanceID] else { return }
        do {
            try target.restore(to: recorded)
            report.stepsRestored += 1
        } catch {
            report.schemaProblems.append(SchemaProblem.from(error))
        }
        compare(event, target: target)
    }

    private func matches(_ id: UInt64, target: ReplayTarget) -> Bool {
        guard let recorded = recordedStates[id] else { return true }
        let excluded = excludedPaths[id] ?? []
        return recorded.removing(excluded) == target.currentState().removing(excluded)
    }

    private mutating func compare(_ event: RecordedEvent, target: ReplayTarget) {
        let id = event.source.instanceID
        guard let recorded = recordedStates[id] else { return }
        report.statesCompared += 1
        let excluded = excludedPaths[id] ?? []
        let expected = recorded.removing(excluded)
        let live = target.currentState().removing(excluded)
        guard expected != live else { return }
        let what = [event.kind.rawValue, event.path ?? event.name].filter { !$0.isEmpty }.joined(separator: " ")
        report.divergence = Divergence(
            step: event.sequence, event: what, source: event.source.description, input: lastInput[id],
            recorded: expected, live: live, difference: diff(expected, live)
        )
    }
}

extension SchemaProblem {
    func prefixed(_ context: String) -> SchemaProblem {
        SchemaProblem(path: path, reason: "\(context): \(reason)")
    }
}
