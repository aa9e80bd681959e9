import Foundation
@_spi(Tooling) import Rewind

/// Flask's high-level API: reactors, mixers, substances, locks and the archive store.
///
/// ```swift
/// Flask.attachReactor(to: self, mixing: [Subs.appReactive])
/// Flask.substances(reactTo: EnvMixers.login, payload: ["username": "foo"])
/// let lock = Flask.lock()
/// lock.release()
/// ```
public enum Flask {
    // MARK: Reactors

    /// Attaches a reactor to `owner` that calls its `flaskReactions(reaction:)` for changes of
    /// `substances`. It replaces any reactor the owner had, and is released once the owner is gone.
    public static func attachReactor<Owner: FlaskReactor>(to owner: Owner, mixing substances: [SubstanceConcrete]) {
        let reactor = Reactor(owner: owner, substances: substances)
        reactor.handler = { owner, reaction in owner.flaskReactions(reaction: reaction) }
        FlaskScope.current.reactors.attach(reactor, to: owner)
    }

    /// Makes a reactor attached to `owner` for changes of `substances`; set its `handler`.
    @discardableResult
    public static func reactor<Owner: AnyObject>(attachedTo owner: Owner, mixing substances: [SubstanceConcrete]) -> Reactor<Owner> {
        let reactor = Reactor(owner: owner, substances: substances)
        FlaskScope.current.reactors.attach(reactor, to: owner)
        return reactor
    }

    /// Makes a reactor attached to `owner` for changes of `substance`; set its `handler`.
    @discardableResult
    public static func reactor<Owner: AnyObject>(attachedTo owner: Owner, mixing substance: SubstanceConcrete) -> Reactor<Owner> {
        reactor(attachedTo: owner, mixing: [substance])
    }

    /// The reactor attached to `owner`; one watching nothing (that can still start chain
    /// reactions) if it has none.
    public static func getReactor(attachedTo owner: AnyObject) -> ReactorConcrete {
        FlaskScope.current.reactors.reactor(of: owner) ?? ReactorConcrete(substances: [])
    }

    /// Detaches `owner`'s reactor; returns whether it had one.
    @discardableResult
    public static func detachReactor(from owner: AnyObject) -> Bool {
        FlaskScope.current.reactors.detach(from: owner)
    }

    /// Releases the reactors whose owners are gone now, rather than at the next use of the reactors.
    public static func purgeReactors() {
        FlaskScope.current.reactors.purge()
    }

    // MARK: Mixers

    /// Applies `mixer` to every reactive substance that defines it, with `payload`, as one mix on
    /// the flux (in its turn, after any lock is released).
    /// The mixer's dispatch is logged with the line that asked for it.
    public static func substances<Mixer: RawRepresentable>(
        reactTo mixer: Mixer, payload: MixerPayload? = nil,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) where Mixer.RawValue == String {
        let key = MixerKey(mixer)
        let callSite = CallSite(file: file, function: function, line: line)
        let scope = FlaskScope.current
        scope.bus.perform { apply(key, payload: payload, lock: nil, callSite: callSite, in: scope) }
    }

    private static func apply(_ key: MixerKey, payload: MixerPayload?, lock: FluxLock?, callSite: CallSite, in scope: FlaskScope) {
        for substance in scope.mixers.substances(for: key) where substance.handles(key) {
            substance.apply(key, payload: payload, lock: lock, callSite: callSite)
        }
        FluxNotifier.postNotification(forMixer: key.name, payload: payload)
    }

    // MARK: Substances

    /// A substance of `state`'s type with its default value.
    public static func newSubstance<T: State>(definedBy state: T.Type) -> Substance<T> {
        Substance<T>()
    }

    /// A named substance of `state`'s type; with `archive`, restored from and saved to the archive
    /// store.
    public static func newSubstance<T: State>(definedBy state: T.Type, named name: String, archive: Bool = false) -> Substance<T> {
        Substance<T>(name: name, archive: archive)
    }

    // MARK: Locks

    /// Pauses the flux until the lock is released. With `autorelease`, a lock made for a mixer
    /// releases itself once that mixer's reactions have run; a lock made alone has no mixer, so it
    /// waits for ``FluxLock/release(payload:)`` either way.
    public static func lock(autorelease: Bool = false) -> FluxLock {
        FluxLock(bus: FlaskScope.current.bus, autoreleases: autorelease)
    }

    /// Pauses the flux, then applies `mixer` alone; its reactions receive the lock as
    /// `reaction.onLock` so that they can release it when their work is done. With `autorelease`,
    /// the lock releases itself once the mixer's reactions have run (or the mix changed nothing or
    /// was aborted).
    @discardableResult
    public static func lock<Mixer: RawRepresentable>(
        withMixer mixer: Mixer, payload: MixerPayload? = nil, autorelease: Bool = false,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) -> FluxLock where Mixer.RawValue == String {
        let callSite = CallSite(file: file, function: function, line: line)
        let key = MixerKey(mixer)
        let scope = FlaskScope.current
        let lock = FluxLock(bus: scope.bus, mixerName: key.name, autoreleases: autorelease)
        scope.bus.perform(bypassingLocks: true) {
            apply(key, payload: payload, lock: lock, callSite: callSite, in: scope)
            lock.autoreleaseIfAsked()
        }
        return lock
    }

    /// Releases every lock and runs the mixes that waited.
    public static func removeLocks() {
        FlaskScope.current.bus.removeLocks()
    }

    // MARK: Archiving

    private static let store = Locked<any ArchiveStore>(JSONFileArchiveStore(directory: JSONFileArchiveStore.defaultDirectory))

    /// Where substances archive their state; each substance keeps the store set when it was made.
    public static var archiveStore: any ArchiveStore {
        get { store.withLock { $0 } }
        set { store.withLock { $0 = newValue } }
    }
}
