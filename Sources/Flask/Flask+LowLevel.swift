import Foundation

/// The seed's low-level API: what the high-level methods are built on, under the names its README
/// lists.
extension Flask {
    /// The bus every mix goes through: ``Flux/bus``, or inside ``isolated(_:)`` the scope's own.
    public static var bus: Flux { FlaskScope.current.bus }

    /// `nil` as a value that can be stored in a `[String: AnyHashable?]` dictionary
    /// (``FlaskDictType``) without removing the key.
    public static var Nil: AnyHashable? { nil }

    /// A null to store in a ``FlaskDictRef``: archived and logged as `null`.
    public static let Null = NSNull()

    /// Drops the mixes waiting for their turn on the flux (while it is locked, say); the one running
    /// finishes.
    public static func purgeFluxQueue() {
        FlaskScope.current.bus.purgeQueue()
    }

    /// Releases the reactors whose owners are gone (``ReactorManager/purge()``).
    public static func purgeFlasks() {
        ReactorManager.purge()
    }

    /// The reactor attached to `owner` (the seed README's spelling of ``getReactor(attachedTo:)``).
    public static func getReactor(at owner: AnyObject) -> ReactorConcrete {
        getReactor(attachedTo: owner)
    }

    /// Makes a reactor attached to `owner` for changes of `substances` (the low-level name of
    /// `reactor(attachedTo:mixing:)`).
    @discardableResult
    public static func instance<Owner: AnyObject>(attachedTo owner: Owner, mixing substances: [SubstanceConcrete]) -> Reactor<Owner> {
        reactor(attachedTo: owner, mixing: substances)
    }

    /// Makes a reactor attached to `owner` for changes of `substance`.
    @discardableResult
    public static func instance<Owner: AnyObject>(attachedTo owner: Owner, mixing substance: SubstanceConcrete) -> Reactor<Owner> {
        reactor(attachedTo: owner, mixing: [substance])
    }

    /// Applies `mixer` with `payload` on the flux: what ``substances(reactTo:payload:)`` does.
    public static func applyMixer<Mixer: RawRepresentable>(
        _ mixer: Mixer, payload: MixerPayload? = nil,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) where Mixer.RawValue == String {
        substances(reactTo: mixer, payload: payload, file: file, function: function, line: line)
    }
}

/// The reactors attached to owners, as the seed's `ReactorManager` exposes them.
///
/// ```swift
/// ReactorManager.purgeAll()
/// #expect(ReactorManager.reactors.isEmpty)
/// ```
public enum ReactorManager {
    /// The reactors whose owners are alive.
    public static var reactors: [ReactorConcrete] {
        FlaskScope.current.reactors.all()
    }

    /// Releases the reactors whose owners are gone.
    public static func purge() {
        FlaskScope.current.reactors.purge()
    }

    /// Detaches every reactor (between tests, for instance).
    public static func purgeAll() {
        FlaskScope.current.reactors.removeAll()
    }
}
