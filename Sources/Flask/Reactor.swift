import Foundation
@_spi(Tooling) import Rewind

/// An owner that reacts to substance changes: attach it with `Flask.attachReactor(to:mixing:)`.
///
/// ```swift
/// final class CounterScreen: FlaskReactor {
///     func flaskReactions(reaction: FlaskReaction) {
///         reaction.on(AppState.prop.counter) { change in let new: Any? = change.newValue(); print(new ?? "nil") }
///     }
/// }
/// ```
public protocol FlaskReactor: AnyObject {
    /// Called after each mix that changed a substance the reactor mixes.
    func flaskReactions(reaction: FlaskReaction)
}

/// What every reactor is, whatever its owner type.
public class ReactorConcrete: @unchecked Sendable {
    // Unchecked: `substances` is immutable; subclasses guard their own state.
    let substances: [SubstanceConcrete]
    /// The Flask the reactor was made in (see ``Flask/isolated(_:)``).
    let scope = FlaskScope.current

    init(substances: [SubstanceConcrete]) {
        self.substances = substances
    }

    var ownerTypeName: String { "" }
    var isAlive: Bool { false }
    func react(_ reaction: FlaskReaction) {}

    /// Starts a chain reaction with a mix of `substance` (see ``ChainReaction``).
    public func mix<S: SubstanceConcrete>(_ substance: S, _ mixer: @escaping (S) -> Void) -> ChainReaction {
        ChainReaction().mix(substance, mixer)
    }

    /// Detaches this reactor from its owner: its handler hears of no more changes.
    public func unbind() {
        scope.reactors.detach(self)
    }

    /// Starts a chain reaction with a mix of `substance` (the seed's high-level name).
    public func mixing<S: SubstanceConcrete>(_ substance: S, _ mixer: @escaping (S) -> Void) -> ChainReaction {
        mix(substance, mixer)
    }
}

/// The link between an owner and the substances it watches: its ``handler`` receives a
/// ``FlaskReaction`` after every mix that changed one of them, with the owner — held weakly; the
/// reactor is released once its owner is gone.
///
/// ```swift
/// let reactor = Flask.reactor(attachedTo: owner, mixing: substance)
/// reactor.handler = { owner, reaction in
///     reaction.on(AppState.prop.counter) { change in … }
/// }
/// reactor.mix(substance) { $0.prop.counter = 1 }.react()
/// ```
public final class Reactor<Owner: AnyObject>: ReactorConcrete, @unchecked Sendable {
    // Unchecked: `handlerStorage` is `Locked`; `owner` is a weak reference read atomically by the
    // runtime.
    private weak var owner: Owner?
    private let handlerStorage = Locked<((Owner, FlaskReaction) -> Void)?>(nil)

    init(owner: Owner, substances: [SubstanceConcrete]) {
        self.owner = owner
        super.init(substances: substances)
    }

    /// Receives each reaction, with the owner.
    public var handler: ((Owner, FlaskReaction) -> Void)? {
        get { handlerStorage.withLock { $0 } }
        set { handlerStorage.withLock { $0 = newValue } }
    }

    override var ownerTypeName: String { String(describing: Owner.self) }
    override var isAlive: Bool { owner != nil }

    override func react(_ reaction: FlaskReaction) {
        guard let owner, let handler else { return }
        handler(owner, reaction)
    }
}

/// The reactors attached to owners. An entry whose owner has gone is dropped (and its reactor
/// released) the next time the manager is used — on any attach, lookup or reaction.
final class Reactors: Sendable {
    static let shared = Reactors()

    private struct Entry: @unchecked Sendable {
        // Unchecked: read and written under the manager's lock.
        weak var owner: AnyObject?
        let reactor: ReactorConcrete
    }

    private let entries = Locked<[Entry]>([])

    func attach(_ reactor: ReactorConcrete, to owner: AnyObject) {
        entries.withLock { entries in
            entries.removeAll { $0.owner == nil || $0.owner === owner }
            entries.append(Entry(owner: owner, reactor: reactor))
        }
    }

    func reactor(of owner: AnyObject) -> ReactorConcrete? {
        entries.withLock { entries in
            entries.removeAll { $0.owner == nil }
            return entries.first { $0.owner === owner }?.reactor
        }
    }

    @discardableResult
    func detach(from owner: AnyObject) -> Bool {
        entries.withLock { entries in
            let before = entries.count
            entries.removeAll { $0.owner == nil || $0.owner === owner }
            return entries.count < before
        }
    }

    /// Drops the reactors whose owners have gone.
    func purge() {
        entries.withLock { $0.removeAll { $0.owner == nil } }
    }

    /// The reactors whose owners are alive.
    func all() -> [ReactorConcrete] {
        entries.withLock { entries in
            entries.removeAll { $0.owner == nil }
            return entries.map(\.reactor)
        }
    }

    /// Detaches every reactor.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// Detaches `reactor`, whatever its owner.
    func detach(_ reactor: ReactorConcrete) {
        entries.withLock { $0.removeAll { $0.owner == nil || $0.reactor === reactor } }
    }

    /// Hands the reaction to a committed mix of `substance` to every reactor that mixes it, logging
    /// each delivery as an activity of the substance. Runs on the flux.
    func deliver(_ outcome: MixOutcome, from substance: SubstanceConcrete, lock: FluxLock?) {
        guard !outcome.keyChanges.isEmpty else { return }
        let reactors = entries.withLock { entries in
            entries.removeAll { $0.owner == nil }
            return entries.map(\.reactor).filter { $0.substances.contains(substance) }
        }
        let reaction = FlaskReaction(substance: substance, changes: outcome.keyChanges, lock: lock)
        for reactor in reactors where reactor.isAlive {
            if let logger = substance.channel.handle {
                let value = StateFields([("reactor", reactor.ownerTypeName), ("keys", reaction.changedKeys)])
                substance.channel.emit(.activity(LoggedValue(value)), name: "reaction", callSite: .unknown, to: logger)
            }
            reactor.react(reaction)
        }
    }
}
