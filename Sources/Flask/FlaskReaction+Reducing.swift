import Foundation

/// A state as a dictionary of values, the shape the seed's reducers compare: `Flask.Nil` keeps a
/// key whose value is `nil`.
public typealias FlaskDictType = [String: AnyHashable?]

extension FlaskReaction {
    /// The keys whose values differ between `oldState` and `newState`, each with its new value
    /// (`Flask.Nil` where it became `nil`). A key missing on one side counts as `nil`; objects are
    /// compared by identity, values by equality.
    ///
    /// ```swift
    /// let changes = FlaskReaction.reduceChanges(["count": 1], ["count": 2, "title": Flask.Nil])
    /// // ["count": 2]
    /// ```
    public static func reduceChanges(_ oldState: FlaskDictType, _ newState: FlaskDictType) -> FlaskDictType {
        var changes: FlaskDictType = [:]
        for key in Set(oldState.keys).union(newState.keys) {
            let old = oldState[key] ?? Flask.Nil
            let new = newState[key] ?? Flask.Nil
            if !same(old, new) { changes[key] = .some(new) }
        }
        return changes
    }

    /// The keys the substance's last committed mix changed (dotted for nested values), each with
    /// its new value.
    public static func reduceChanges(substance: SubstanceConcrete) -> FlaskDictType {
        let changes = substance.lastMixChanges.withLock { $0 }
        var reduced: FlaskDictType = [:]
        for (key, change) in changes {
            reduced[key] = .some(StateKeys.plainValue(change.new).flatMap(hashable))
        }
        return reduced
    }

    private static func same(_ old: AnyHashable?, _ new: AnyHashable?) -> Bool {
        switch (old, new) {
        case (nil, nil): true
        case (let old?, let new?):
            if let oldObject = old.base as? NSObject, let newObject = new.base as? NSObject,
               !(oldObject is NSNumber || oldObject is NSString) {
                oldObject === newObject
            } else {
                old == new
            }
        default: false
        }
    }

    private static func hashable(_ value: Any) -> AnyHashable? {
        switch value {
        case let hashable as AnyHashable: hashable
        case let array as [Any]: array.map { hashable($0) } as [AnyHashable?]
        case let object as [String: Any]: object.mapValues { hashable($0) } as [String: AnyHashable?]
        default: String(describing: value)
        }
    }
}
