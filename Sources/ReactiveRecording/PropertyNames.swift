@_spi(Tooling) import Rewind

/// Finds the name of the property a key path reaches, so that events are named after it.
///
/// A key path to a stored property names itself. One to a computed property — which is what a
/// property wrapper's property (`@Published var isOn`) is — prints as `<computed …>` on Linux; such a
/// property is then found among the container's stored properties: by identity (the same object),
/// as the only one that `isCandidate` accepts, or as the only such one holding the same value now.
/// `nil` when it cannot be told (two `@Published` booleans that are both `false`).
package enum PropertyNames {
    package static func name(
        of keyPath: AnyKeyPath, in container: Any, value: Any, isCandidate: (Any) -> Bool,
        currentValue: (Any) -> Any? = { _ in nil }
    ) -> String? {
        let text = ChangedPath(keyPath).description
        if !text.isEmpty, !text.contains("…") { return text }
        let children = ObservedProperty.children(of: container)
        if type(of: value) is AnyClass {
            let object = value as AnyObject
            if let label = children.first(where: { type(of: $0.value) is AnyClass && ($0.value as AnyObject) === object })?.label {
                return ObservedProperty.plainName(label)
            }
        }
        var candidates = children.filter { isCandidate($0.value) }
        if candidates.count > 1 {
            let tree = StateCapture.capture(value)
            candidates = candidates.filter { child in currentValue(child.value).map { StateCapture.capture($0) } == tree }
        }
        if candidates.count == 1, let label = candidates[0].label { return ObservedProperty.plainName(label) }
        return nil
    }
}
