@_spi(Tooling) import Rewind

/// One mixer application as ``FluxNotifier`` observers receive it.
public struct FluxNotification: @unchecked Sendable {
    // Unchecked: immutable; the payload holds what the caller put in it, as with mixers.
    /// The mixer's name (its raw value).
    public let mixer: SubstanceMixer
    /// The object the observer was registered for, while it is alive.
    public let object: AnyObject?
    /// The payload the mixer was applied with.
    public let payload: MixerPayload?
}

/// Mixer notifications by name, the seed's `FluxNotifier`: every mixer applied through Flask
/// (``Flask/substances(reactTo:payload:)``, ``Flask/applyMixer(_:payload:)``,
/// ``Flask/lock(withMixer:payload:autorelease:)``) is posted here after the substances mixed it,
/// and anything can post its own.
///
/// ```swift
/// FluxNotifier.addCallback(forMixer: "login", object: self) { notification in
///     print(notification.payload ?? [:])
/// }
/// FluxNotifier.postNotification(forMixer: "login", payload: ["user": "grace"])
/// ```
///
/// Observers are held by the object they were added for, weakly: once it is gone they are dropped.
/// Callbacks run on the thread that posts, in the order they were added.
public enum FluxNotifier {
    private struct Observer: @unchecked Sendable {
        // Unchecked: read and written under `observers`' lock; the callback is called outside it.
        weak var object: AnyObject?
        let hasObject: Bool
        let callback: (FluxNotification) -> Void

        var isAlive: Bool { !hasObject || object != nil }
    }

    private static let observers = Locked<[SubstanceMixer: [Observer]]>([:])

    /// Calls `callback` for each notification posted for `mixer`, while `object` is alive (always,
    /// when `object` is `nil`).
    public static func addCallback(forMixer mixer: SubstanceMixer, object: AnyObject?, _ callback: @escaping (FluxNotification) -> Void) {
        observers.withLock { $0[mixer, default: []].append(Observer(object: object, hasObject: object != nil, callback: callback)) }
    }

    /// Removes every callback added for `object`.
    public static func removeObservers(forObject object: AnyObject) {
        observers.withLock { all in
            for mixer in all.keys { all[mixer]?.removeAll { $0.object === object || !$0.isAlive } }
        }
    }

    /// Calls the callbacks added for `mixer`, with `payload`.
    public static func postNotification(forMixer mixer: SubstanceMixer, payload: MixerPayload?) {
        let current = observers.withLock { all in
            all[mixer]?.removeAll { !$0.isAlive }
            return all[mixer] ?? []
        }
        for observer in current {
            let object = observer.object
            guard !observer.hasObject || object != nil else { continue }
            observer.callback(FluxNotification(mixer: mixer, object: object, payload: payload))
        }
    }
}
