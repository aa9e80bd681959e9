import Foundation
@_exported import Rewind

/// Records a session while taking the live units' states at every step, and then holds the
/// recording to them: the check that every recorded state is one the app had.
///
/// In one call, with the units' replay targets (which know how to read each unit's state):
///
/// ```swift
/// let check = try LiveStateCheck.record(to: path, units: [board.replayTarget, stats.replayTarget]) {
///     … drive the app …
/// }
/// #expect(check.mismatches == [])
/// ```
///
/// Or by hand: attach it to the units in place of the journal logger it wraps, say how to read
/// each unit's live state, drive the app, close the journal, and ask for ``mismatches(in:)``:
///
/// ```swift
/// let journal = try JournalLogger(path: path)
/// let check = LiveStateCheck(recordingTo: journal)
/// check.watch(board.eventSource, state: board.replayTarget.currentState)
/// board.set(logger: check)
/// … drive the app …
/// journal.close()
/// #expect(try check.mismatches(in: path) == [])
/// ```
///
/// A state is taken where the unit has settled, on the thread that logs the event: when a commit
/// ends (`didMutate` outside any other commit of the unit), when a dispatch ends, when a change or
/// replacement is logged outside a commit, and at creation. The changes inside a commit are the
/// commit's parts, not states of their own, and are not taken. Each state is read as the unit's
/// replay target reads it (`currentState()`), so that secrets are hidden as the journal hides them.
///
/// What it costs: a whole-state capture on the app's thread per settled step. It is a test mode.
public final class LiveStateCheck: CycleLogging, @unchecked Sendable {
    // Unchecked: `readers` and `taken` are `Locked`; `journal` is a logger, thread-safe by contract.
    private let journal: any CycleLogging
    private let readers = Locked<[UInt64: @Sendable () -> StateValue]>([:])
    private let taken = Locked<Taken>(Taken())

    private struct Taken {
        /// Each taken state with its event's step and the place of the event among all the
        /// events handed on.
        var states: [(ordinal: Int, sequence: UInt64, event: String, state: StateValue)] = []
        var commitDepth: [UInt64: Int] = [:]
        /// How many events were handed on to the journal.
        var handedOn = 0
        /// Whether ``stopWatching()`` was called.
        var stopped = false
    }

    /// A check that hands every event on to `journal` after taking the live state.
    public init(recordingTo journal: any CycleLogging) {
        self.journal = journal
    }

    /// Takes `source`'s live state with `state` at each of its settled steps.
    public func watch(_ source: EventSource, state: @escaping @Sendable () -> StateValue) {
        readers.withLock { $0[source.instanceID] = state }
    }

    /// ``watch(_:state:)``, unless `source` is watched already, or the check has stopped watching.
    fileprivate func watchIfNew(_ source: EventSource, state: @escaping @Sendable () -> StateValue) {
        guard !taken.withLock({ $0.stopped }) else { return }
        readers.withLock { readers in
            if readers[source.instanceID] == nil { readers[source.instanceID] = state }
        }
    }

    public func log(_ event: Event) {
        let read = readers.withLock { $0[event.source.instanceID] }
        // One event at a time, handed on in the order they are counted: a deterministic journal
        // renumbers steps in the order it receives them, and the check finds them by that order.
        taken.withLock { taken in
            if let read, Self.isSettled(event, in: &taken) {
                taken.states.append((taken.handedOn, event.sequence, "\(event.kind.name) \(event.name)", read()))
            }
            taken.handedOn += 1
            journal.log(event)
        }
    }

    private static func isSettled(_ event: Event, in taken: inout Taken) -> Bool {
        let id = event.source.instanceID
        switch event.kind {
        case .willMutate:
            taken.commitDepth[id, default: 0] += 1
            return false
        case .didMutate:
            taken.commitDepth[id, default: 0] = max(0, taken.commitDepth[id, default: 0] - 1)
            return taken.commitDepth[id] == 0
        case .change, .replace, .didDispatch, .created:
            return taken.commitDepth[id, default: 0] == 0
        case .willDispatch, .activity, .released, .log:
            return false
        }
    }

    /// One step whose recorded state is not the state the app had.
    public struct Mismatch: Sendable, CustomStringConvertible, Equatable {
        /// The step.
        public var step: UInt64
        /// The unit, as the journal names it.
        public var source: String
        /// What the step was (`didMutate addCard`).
        public var event: String
        /// What the journal holds, against what the app had.
        public var difference: StateDiff

        public var description: String {
            let changes = difference.changes.prefix(3).map { change in
                "\(change.path): recorded \(change.oldValue?.compactDescription(limit: 60) ?? "nothing"), live \(change.newValue?.compactDescription(limit: 60) ?? "nothing")"
            }
            let more = difference.changes.count > 3 ? "; \(difference.changes.count - 3) more" : ""
            return "step \(step) (\(source), \(event)): \(changes.joined(separator: "; "))\(more)"
        }
    }

    /// What ``record(to:configuration:units:_:)`` found.
    public struct Result: Sendable {
        /// The steps whose recorded state is not the one the app had: none when the recording is
        /// true.
        public var mismatches: [Mismatch]
        /// How many settled states were taken and compared.
        public var statesTaken: Int
    }

    /// Records `session` into a new journal at `path` with each of `units` logging to it (through
    /// its target's `set(logger:)`), taking each unit's live state with its target's
    /// `currentState()` at every settled step; then closes the journal and compares.
    public static func record(
        to path: String, configuration: JournalConfiguration = JournalConfiguration(), units: [any ReplayTarget],
        _ session: () throws -> Void
    ) throws -> Result {
        let journal = try JournalLogger(path: path, configuration: configuration)
        let check = LiveStateCheck(recordingTo: journal)
        for unit in units { unit.set(logger: check.logger(readingStateOf: unit)) }
        var failure: (any Error)?
        do { try session() } catch { failure = error }
        for unit in units { unit.set(logger: nil) }
        journal.close()
        if let failure { throw failure }
        let statesTaken = check.statesTaken
        return Result(mismatches: try check.mismatches(in: path), statesTaken: statesTaken)
    }

    /// A logger for one unit: it hands the unit's events to this check, which takes the unit's
    /// state with `target.currentState()` at each settled step — the unit's event source is
    /// learned from its first event. The target is held weakly (a unit keeps every logger it was
    /// given while it lives): keep it while the session runs.
    public func logger(readingStateOf target: any ReplayTarget) -> any CycleLogging {
        UnitProbe(check: self, target: WeakReplayTarget(target))
    }

    /// How many settled states were taken so far.
    public var statesTaken: Int { taken.withLock { $0.states.count } }

    /// The journal did not hold the events the check handed on to it.
    public struct JournalMismatch: Error, CustomStringConvertible {
        /// How many events the check handed on, and how many the journal holds.
        public var handedOn: Int, recorded: Int
        public var description: String { "the check handed \(handedOn) events to the journal, which holds \(recorded)" }
    }

    /// Stops taking states and lets go of the readers given to ``watch(_:state:)`` — and of the
    /// units they hold: a unit keeps every logger it was given while it lives, so a reader that
    /// holds its unit would otherwise keep both alive. ``mismatches(in:)`` does it first.
    public func stopWatching() {
        taken.withLock { $0.stopped = true }
        readers.withLock { $0.removeAll() }
    }

    /// Reads the closed journal at `path` and compares the state it holds at every taken step with
    /// the live one; empty when the recording is true to the app. Stops watching first.
    public func mismatches(in path: String) throws -> [Mismatch] {
        stopWatching()
        let reader = try JournalReader(path: path)
        let names = Dictionary(reader.sources.map { ($0.source.instanceID, $0.source.description) }, uniquingKeysWith: { first, _ in first })
        // A journal keeps the steps it was handed; a deterministic one numbers its own, in the
        // order it received them, which is the order the check handed them on.
        let renumbered = reader.header.createdMonotonicNanoseconds == 0
        let recorded = Array(reader.events()).sorted { $0.sequence < $1.sequence }
        let (taken, handedOn) = self.taken.withLock { ($0.states, $0.handedOn) }
        guard recorded.count == handedOn else { throw JournalMismatch(handedOn: handedOn, recorded: recorded.count) }
        var wanted: [Int: (event: String, state: StateValue)] = [:]
        let index = renumbered ? [:] : Dictionary(recorded.enumerated().map { ($1.sequence, $0) }, uniquingKeysWith: { first, _ in first })
        for state in taken {
            guard let position = renumbered ? state.ordinal : index[state.sequence] else {
                throw JournalMismatch(handedOn: handedOn, recorded: recorded.count)
            }
            wanted[position] = (state.event, state.state)
        }
        // One walk through the journal, each unit's state folded as every reader folds it
        // (``StateWalker``), compared where a state was taken.
        var states = StateWalker()
        var mismatches: [Mismatch] = []
        for (position, event) in recorded.enumerated() {
            let id = event.source.instanceID
            states.advance(event)
            guard let live = wanted[position] else { continue }
            let state = (states.state(of: id) ?? .null).forgettingSecretVersions()
            guard state != live.state else { continue }
            mismatches.append(Mismatch(
                step: event.sequence, source: names[id] ?? event.source.description, event: live.event,
                difference: StateDiff(from: state, to: live.state)
            ))
        }
        return mismatches
    }
}

/// One unit's logger for a ``LiveStateCheck``: it registers the unit's state reader under the
/// source of the first event it sees, then hands every event on.
private struct UnitProbe: CycleLogging {
    let check: LiveStateCheck
    let target: WeakReplayTarget

    func log(_ event: Event) {
        let target = self.target
        check.watchIfNew(event.source) { target.value?.currentState() ?? .null }
        check.log(event)
    }
}

/// A replay target held weakly, read from the thread that logs the unit's events. Unchecked: the
/// reference is set once; a target is read only by the unit's own events, which its framework logs
/// one at a time.
private final class WeakReplayTarget: @unchecked Sendable {
    weak var value: (any ReplayTarget)?

    init(_ value: any ReplayTarget) {
        self.value = value
    }
}
