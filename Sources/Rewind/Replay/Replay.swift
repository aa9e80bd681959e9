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
/// replay is deterministic and takes no real time.
///
/// Scheduled work is released in the order the recording has it, not only by its due time: a
/// session recorded in real time has each answer (a server's reply on a queue) arrive later than
/// it was due, by however long the machine took, sometimes after the user's next input. Where
/// the recording shows earlier work arriving after a later input, the clock is held short of the
/// next scheduled action until that input has been sent, then moved on (for a clock that can tell
/// how far off its next action is, as `Replay.Clock.virtual(_:)` can). A recorded answer the live app
/// never scheduled is listed in ``ReplayReport/unscheduledAnswers``.
///
/// What cannot be checked is said: a dispatch that cannot be re-sent (a closure) and a state the
/// live unit never reached on its own have their recorded state put back, and each such step is
/// listed in ``ReplayReport/restoredSteps``. A state the live unit did reach on its own (an async
/// commit, a debounced reply) is compared before anything is put back, so a changed async result
/// is a divergence.
///
/// Bind the units whose inputs came from outside; units they drive (an API stream the view stream
/// sends to) produce their own dispatches during the replay and are left unbound.
public final class Replay {
    /// A virtual clock the replay moves: `advance` by nanoseconds, and `step` to run the next
    /// scheduled action (returning `false` when none is scheduled); `untilNextAction` says how far
    /// off the next scheduled action is, so that the replay can hold the clock short of it (see
    /// the type's discussion of time).
    public struct Clock {
        let advance: (UInt64) -> Void
        let step: () -> Bool
        let untilNextAction: () -> UInt64?

        /// A clock from its operations; without `untilNextAction` (`nil`: nothing is scheduled, or
        /// the clock cannot tell), work is released when the recorded time passes its due time.
        public init(
            advance: @escaping (_ nanoseconds: UInt64) -> Void, step: @escaping () -> Bool,
            untilNextAction: @escaping () -> UInt64? = { nil }
        ) {
            self.advance = advance
            self.step = step
            self.untilNextAction = untilNextAction
        }
    }

    /// The journal being replayed.
    public let reader: JournalReader
    /// The clock time-based operators of the bound units run on, if any.
    public var clock: Clock?
    /// How many scheduled actions the replay runs, at most, waiting for one recorded state.
    public var maximumClockSteps = 10_000

    /// Checks run on every bound unit's live state once the work of each input has settled (see
    /// ``ReplayInvariant``).
    public var invariants: [ReplayInvariant] = []

    /// Values for the inputs the recording hid (see ``ReplaySecrets``): without one, a recording
    /// with a redacted input is refused rather than sent with its placeholder.
    public var secrets = ReplaySecrets()

    /// The bound units, by the instance ID of the source they replay.
    var targets: [UInt64: ReplayTarget] = [:]

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
        bindingNames.append(source)
    }

    /// The names units were bound under, as given to ``bind(_:to:)``.
    private(set) var bindingNames: [String] = []

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

    /// Runs the replay to the end of the journal or the first divergence (or broken invariant).
    ///
    /// - Parameter comparingStates: `false` holds the live units to the ``invariants`` only: their
    ///   states are not compared with the recorded ones, and a state they did not reach is not put
    ///   back. This is how a shrunk recording is checked, and how a test keeps passing once the bug
    ///   it recorded is fixed.
    public func run(comparingStates: Bool = true) -> ReplayReport {
        walk(stoppingAtDivergence: true, comparingStates: comparingStates)
    }

    /// The journal's events in step order, read once.
    private(set) lazy var recordedEvents: [RecordedEvent] = Array(reader.events()).sorted { $0.sequence < $1.sequence }

    /// Whether the journal's times are real; a deterministic journal's (a fixture's) are made up, and
    /// the clock is then only stepped.
    var hasRealTimes: Bool { reader.header.createdMonotonicNanoseconds != 0 }

    func walk(
        _ events: [RecordedEvent]? = nil, stoppingAtDivergence: Bool, comparingStates: Bool = true, restoring: Bool = true,
        sending: InputBeingSent? = nil
    ) -> ReplayReport {
        var run = ReplayRun(
            events: events ?? recordedEvents, hasRealTimes: hasRealTimes, targets: targets, clock: clock,
            maximumClockSteps: maximumClockSteps, invariants: invariants, secrets: secrets, stopsAtDivergence: stoppingAtDivergence,
            comparesStates: comparingStates, restores: restoring, sending: sending
        )
        return run.play()
    }

    // MARK: Re-recording

    /// Re-records the journal from today's code: the recorded inputs are sent into the bound units
    /// as ``run(comparingStates:)`` sends them, while a journal logger records what the units do now; the new
    /// journal then replaces the old one. This is how a fixture is updated when its replay diverges
    /// on purpose (snapshot testing's record mode).
    ///
    /// What it writes: the events the bound units make now, nothing else — never a recorded state.
    /// The walk does not stop at divergences, and puts nothing back: a dispatch that cannot be
    /// re-sent (a closure) is not in the new journal, and is listed in the report
    /// (``ReplayReport/skippedSteps``). The units keep the names the recording gave them, the app
    /// version is kept, and a unit whose recording ended with its release ends with one again.
    /// Re-recording the new journal gives the same events again. A journal with made-up times (a
    /// fixture) is re-recorded with made-up times.
    ///
    /// What it never does: leave a damaged or missing journal. The new journal is written beside the
    /// old one and renamed over it once complete (an atomic replace); two re-records of one journal
    /// in one process run one after the other. A source of the old journal that no unit is bound to
    /// (a unit the bound ones drive) would not be in the new one: unless
    /// `droppingUnboundSources` says that is intended, the re-record is refused, naming them. The
    /// app's own log messages (``RecordedSource/isLogger``) are not carried over: the code that
    /// logged them logs anew, into the new journal when its ``RecordingLogHandler`` records there.
    ///
    /// - Returns: the report of the walk (its divergences are the changes now recorded).
    @discardableResult
    public func rerecord(droppingUnboundSources: Bool = false) throws(ReplayError) -> ReplayReport {
        // The app's own log messages are not a unit's doing: the code that logs them logs anew.
        let unbound = reader.sources.map(\.source).filter { targets[$0.instanceID] == nil && !$0.isLogger }
        if !unbound.isEmpty, !droppingUnboundSources {
            let names = unbound.map { "\($0.typeName)#\($0.instanceID)" }.joined(separator: ", ")
            throw .cannotRecord("re-recording \(reader.path) would drop the recorded events of \(names), which no unit is bound to; bind them too (a unit the bound ones drive is compared, not sent to; a Flask flux binds as Flask.bus.replayTarget), or re-record with droppingUnboundSources: true (expectReplay's droppingUnboundSources:)")
        }
        return try Self.rerecording.serialised(reader.path) { () throws(ReplayError) -> ReplayReport in
            try record(to: reader.path)
        }
    }

    /// The re-records running in this process, by journal.
    private static let rerecording = PathLocks()

    /// Walks `events` (the journal's own by default) with a journal logger on the bound units, and
    /// puts the new journal at `destination` once it is complete.
    package func record(
        _ events: [RecordedEvent]? = nil, to destination: String, comparingStates: Bool = true
    ) throws(ReplayError) -> ReplayReport {
        // Never rewrite a recording whose inputs today's build cannot send.
        let missing = ReplayRun.missingSecrets(in: events ?? recordedEvents, bound: Set(targets.keys), secrets: secrets)
        guard missing.isEmpty else { throw .missingSecrets(missing) }
        let problems = ReplayRun.inputProblems(in: events ?? recordedEvents, targets: targets, secrets: secrets)
        guard problems.isEmpty else { throw .schemaMismatch(problems) }
        var configuration = JournalConfiguration()
        configuration.deterministic = !hasRealTimes
        configuration.appVersion = reader.header.appVersion
        let replacement: FileReplacement
        let logger: JournalLogger
        do {
            replacement = try FileReplacement(destination: destination)
            logger = try JournalLogger(path: replacement.temporaryPath, configuration: configuration)
        } catch {
            throw .cannotRecord("\(error)")
        }
        let recorded = Dictionary(reader.sources.map { ($0.source.instanceID, $0.source) }, uniquingKeysWith: { first, _ in first })
        let released = Set((events ?? recordedEvents).filter { $0.kind == .released }.map(\.source.instanceID))
        let sending = InputBeingSent()
        let units = targets.sorted { $0.key < $1.key }.compactMap { id, unit in
            recorded[id].map { (id: id, unit: unit, logger: RecordedIdentity(logger, source: $0, sending: sending)) }
        }
        for unit in units { unit.unit.set(logger: unit.logger) }
        let report = walk(events, stoppingAtDivergence: false, comparingStates: comparingStates, restoring: false, sending: sending)
        for unit in units {
            unit.unit.set(logger: nil)
            if released.contains(unit.id) { unit.logger.logRelease() }
        }
        do {
            try logger.flush()
        } catch {
            logger.close()
            replacement.discard()
            throw .cannotRecord(error.description)
        }
        logger.close()
        do {
            try replacement.moveIntoPlace()
        } catch {
            throw .cannotRecord(error.description)
        }
        return report
    }
}
