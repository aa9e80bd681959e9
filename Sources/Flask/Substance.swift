import Foundation
@_spi(Tooling) import Rewind

/// What every substance is, whatever its state type: a named unit on the flux with its own logging
/// channel. Reactors and chain reactions work with substances through this class.
open class SubstanceConcrete: Hashable, @unchecked Sendable {
    // Unchecked: see `Substance`.
    let channel: EventChannel
    private let givenName: String?
    /// The Flask the substance was made in, for its whole life (see ``Flask/isolated(_:)``).
    let scope = FlaskScope.current
    /// The dotted keys the last committed mix changed (for `FlaskReaction.reduceChanges(substance:)`).
    let lastMixChanges = Locked<[String: KeyChange]>([:])

    init(name: String?) {
        givenName = name
        channel = EventChannel(source: EventSource(framework: .flask, typeName: EventSource.shortTypeName(Self.self), label: name))
    }

    /// The substance's name: the one it was made with, or its type's.
    public func name() -> String {
        givenName ?? EventSource.shortTypeName(type(of: self))
    }

    /// Sends this substance's events to `logger` instead of the process-wide default; `nil` goes back
    /// to the default. The substance is announced to the logger with its state now.
    public func set(logger: (any CycleLogging)?) {
        channel.set(logger: logger)
        _ = announcedLogger()
    }

    /// The substance as a source of events.
    public var eventSource: EventSource { channel.source }

    // Overridden by `Substance<T>`; these run on the flux.
    func beginMix() {}
    func commitMix(callSite: CallSite) -> MixOutcome { MixOutcome(keyChanges: [:], logged: false) }
    func abortMix() {}
    /// The logger to use now, after announcing the substance to it with its state (see
    /// ``EventChannel/announcedLogger(callSite:state:)``).
    func announcedLogger() -> LoggerHandle? { nil }
    /// Archives now if no later change was scheduled since `generation` (a delayed archive firing).
    func archiveIfLatest(_ generation: Int) {}

    public static func == (lhs: SubstanceConcrete, rhs: SubstanceConcrete) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What committing a mix changed: the dotted keys reactions see.
struct MixOutcome {
    let keyChanges: [String: KeyChange]
    let logged: Bool
}

/// A store of state, changed only by mixes on the flux: the seed's `Substance`.
///
/// Read the committed state with ``state`` from anywhere; change it inside a mix through ``prop``:
///
/// ```swift
/// let feed = Flask.newSubstance(definedBy: FeedState.self)
/// Flask.getReactor(attachedTo: self)
///     .mixing(feed) { substance in substance.prop.count = 10 }
///     .andReact()
/// feed.state.count   // 10
/// ```
///
/// Every mix is logged (to ``set(logger:)``'s logger or the process-wide default) as a mutation
/// with one change event per changed key and the state after it; aborted mixes and delivered
/// reactions as activities.
open class Substance<T: State>: SubstanceConcrete, @unchecked Sendable {
    // Unchecked: `committed`, `mixing` and `snapshot` are `Locked`; a mix's transaction runs on the
    // flux, one at a time.
    private let committed: Locked<T>
    private let mixing = Locked<T?>(nil)
    private let snapshot = Locked<T?>(nil)
    private let archiving = Locked(ArchiveSchedule())
    /// The store this substance archives to: `Flask.archiveStore` when it was made.
    private let archiveStore: any ArchiveStore = Flask.archiveStore
    /// The lists of the last state this substance captured, so that a mix's captures of the
    /// states before and after it take the trees of unchanged list elements from there
    /// (``ListMemory``): a mix costs what it changed, not the board's size. Both states are still
    /// captured at the commit, so that what changed inside an object between mixes is not
    /// blamed on this one. Kept with the redaction rules it was captured under; touched on the
    /// flux only.
    private var capturedLists = (memory: ListMemory(), redaction: Redaction.current)
    private var mixStartTime: EventTime?

    /// Whether changes are archived (after ``archiveDelay()``) to the archive store (`Flask.archiveStore`
    /// when the substance was made).
    public var shouldArchive: Bool {
        get { archiving.withLock { $0.isEnabled } }
        set { archiving.withLock { $0.isEnabled = newValue } }
    }

    /// A substance with the default state, not archived.
    public required init() {
        committed = Locked(T())
        super.init(name: nil)
        _ = announcedLogger()
    }

    /// A named substance; with `archive`, its state is restored from the archive store and changes
    /// are archived.
    public required init(name: String, archive: Bool = false) {
        committed = Locked(T())
        super.init(name: name)
        shouldArchive = archive
        if archive { unarchive() }
        _ = announcedLogger()
    }

    /// The committed state.
    public var state: T { committed.withLock { $0 } }

    /// The committed state (the seed's name).
    public func currentState() -> T { state }

    /// The state being mixed: inside a mix, reads and writes go to the mix's copy, committed by
    /// `react` and dropped by `abort`. Outside a mix it reads the committed state and writes are
    /// ignored (change state through a mix).
    public var prop: T {
        get { mixing.withLock { $0 } ?? state }
        set { mixing.withLock { if $0 != nil { $0 = newValue } } }
    }

    // MARK: Snapshots

    /// Remembers the committed state, for ``rollbackState(_:)``.
    public func captureState() {
        snapshot.withLock { $0 = state }
    }

    /// Puts back the state remembered by ``captureState()``, as a mix on the flux (reactors see the
    /// changes), then calls `completion` on the flux. Does nothing (but call `completion`) if no
    /// state was captured.
    public func rollbackState(_ completion: @escaping () -> Void = {}) {
        guard let saved = snapshot.withLock({ $0 }) else {
            scope.bus.perform(completion)
            return
        }
        replaceState(with: saved, named: "rollback")
        scope.bus.perform(completion)
    }

    /// Replaces the whole state with `new` as one mix on the flux, named `name` in the log;
    /// reactors see what changed.
    func replaceState(with new: T, named name: String) {
        scope.bus.perform { [self] in
            beginMix()
            mixing.withLock { $0 = new }
            let outcome = commitMix(named: name, callSite: .unknown)
            scope.reactors.deliver(outcome, from: self, lock: nil)
        }
    }

    // MARK: Transactions (on the flux)

    override func beginMix() {
        mixing.withLock { $0 = $0 ?? state }
        if channel.handle != nil { mixStartTime = .now() }
    }

    override func commitMix(callSite: CallSite) -> MixOutcome {
        commitMix(named: "mix", callSite: callSite)
    }

    func commitMix(named name: String, callSite: CallSite) -> MixOutcome {
        let old = state
        guard let new = mixing.withLock({ value in defer { value = nil }; return value }) else {
            return MixOutcome(keyChanges: [:], logged: false)
        }
        committed.withLock { $0 = new }
        let options = CaptureOptions.current
        // Trees captured under other rules would show what the new rules hide.
        if capturedLists.redaction != options.redaction { capturedLists = (ListMemory(), options.redaction) }
        let oldTree = capture(old, options: options)
        let newTree = capture(new, options: options)
        let keyChanges = StateKeys.changes(from: old, oldTree, to: new, newTree)
        lastMixChanges.withLock { $0 = keyChanges }
        let logged = logMutation(named: name, from: oldTree, to: newTree, callSite: callSite)
        if !keyChanges.isEmpty { scheduleArchive() }
        return MixOutcome(keyChanges: keyChanges, logged: logged)
    }

    /// A state of this substance as a tree, taking the trees of list elements that did not change
    /// from the last capture (on the flux only, like `capturedLists`).
    private func capture(_ state: T, options: CaptureOptions) -> StateValue {
        StateCapture.capture(state, options: options, reusing: capturedLists.memory)
    }

    override func abortMix() {
        mixing.withLock { $0 = nil }
        mixStartTime = nil
    }

    /// Logs a committed mix: `willMutate`, a change per changed path (internal properties too: they
    /// are part of the state the journal rebuilds), `didMutate` with the state.
    private func logMutation(named name: String, from oldTree: StateValue, to newTree: StateValue, callSite: CallSite) -> Bool {
        defer { mixStartTime = nil }
        guard let start = mixStartTime, let logger = announcedLogger() else { return false }
        channel.emit(.willMutate, name: name, callSite: callSite, at: start, to: logger)
        for change in StateDiff(from: oldTree, to: newTree).loggedChanges(in: newTree) {
            channel.emit(
                .change(path: ChangedPath(name: change.path.description), value: LoggedValue(change.value), state: nil),
                callSite: callSite, to: logger
            )
        }
        let end = EventTime.now()
        let duration = Duration.nanoseconds(Int64(end.monotonicNanoseconds - start.monotonicNanoseconds))
        channel.emit(.didMutate(duration: duration, state: LoggedValue(newTree)), name: name, callSite: callSite, at: end, to: logger)
        return true
    }

    override func announcedLogger() -> LoggerHandle? {
        channel.announcedHandle { LoggedValue(self.state) }
    }

    deinit {
        channel.release()
    }

    // MARK: Archiving

    /// The key space of the archive key; override to separate versions of a state.
    open func archiveKeySpace() -> String { "1" }

    /// Where the state is archived: `Fx.<key space>.<name>`.
    open func archiveKey() -> String { "Fx.\(archiveKeySpace()).\(name())" }

    /// How long after a change the state is archived, in seconds; changes in between are archived
    /// together.
    open func archiveDelay() -> Double { 2.0 }

    /// Whether archiving is off; by default, when ``shouldArchive`` is false.
    open func archiveDisabled() -> Bool { !shouldArchive }

    /// Archives the committed state now.
    public func archiveNow() {
        archiving.withLock { $0.generation += 1 }
        guard let data = try? SubstanceSerializer.dataFromState(state) else { return }
        archiveStore.setData(data, forKey: archiveKey())
    }

    private func unarchive() {
        guard let data = archiveStore.data(forKey: archiveKey()),
              let restored: T = try? SubstanceSerializer.stateFromData(data) else { return }
        committed.withLock { $0 = restored }
    }

    private func scheduleArchive() {
        guard !archiveDisabled() else { return }
        let generation = archiving.withLock { schedule in
            schedule.generation += 1
            return schedule.generation
        }
        // Held as the non-generic base: the timer closure is `@Sendable`, and a generic class's
        // metatype is not.
        let substance: SubstanceConcrete = self
        DispatchQueue.global().asyncAfter(deadline: .now() + archiveDelay()) { [weak substance] in
            substance?.archiveIfLatest(generation)
        }
    }

    override func archiveIfLatest(_ generation: Int) {
        guard !archiveDisabled(), archiving.withLock({ $0.generation == generation }) else { return }
        archiveNow()
    }
}

/// Whether a substance archives, and which scheduled archive is the latest.
struct ArchiveSchedule {
    var isEnabled = false
    var generation = 0
}
