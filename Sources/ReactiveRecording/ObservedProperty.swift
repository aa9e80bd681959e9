@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind

/// One property of a unit's state that can be watched: a Ricemill store's `@Published` property, a
/// Unio state's relay. Its publisher sends the current value on subscription, then every new value.
package struct ObservedProperty {
    /// The property's name as logged (`count`, not `_count`).
    package let name: String
    /// The current value, then every new one.
    package let publisher: AnyPublisher<Any, Never>
    /// Reads the value now.
    package let currentValue: () -> Any

    package init(name: String, publisher: AnyPublisher<Any, Never>, currentValue: @escaping () -> Any) {
        self.name = name
        self.publisher = publisher
        self.currentValue = currentValue
    }

    /// A stored property's name without a property wrapper's leading underscore.
    package static func plainName(_ label: String) -> String {
        label.hasPrefix("_") ? String(label.dropFirst()) : label
    }

    /// The stored properties of `value`, its superclasses' first, in declaration order.
    package static func children(of value: Any) -> [Mirror.Child] {
        var children: [Mirror.Child] = []
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            children = Array(current.children) + children
            mirror = current.superclassMirror
        }
        return children
    }
}
