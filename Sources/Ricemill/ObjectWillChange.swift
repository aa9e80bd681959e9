import Foundation
@preconcurrency import OpenCombine
import ReactiveRecording
@_spi(Tooling) import Rewind

extension StoreType where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// Fires before any `@Published` property of the store changes.
    ///
    /// Explicit on Linux: the properties are found with `Mirror` and observed, instead of relying on
    /// OpenCombine's synthesis (which reads type-metadata layout that is only stable on Darwin).
    public var objectWillChange: ObservableObjectPublisher {
        ChangeNotifiers.shared.publisher(for: self)
    }
}

extension BindableInputType where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// Fires before any `@Published` property of the input changes (see `StoreType`'s).
    public var objectWillChange: ObservableObjectPublisher {
        ChangeNotifiers.shared.publisher(for: self)
    }
}

/// One `objectWillChange` publisher per observed object, kept while the object lives.
final class ChangeNotifiers: Sendable {
    static let shared = ChangeNotifiers()

    /// Unchecked: OpenCombine's publisher and cancellables are used under the registry's lock, or
    /// are themselves thread-safe (`ObservableObjectPublisher.send`).
    private struct Entry: @unchecked Sendable {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
        let subscriptions: [AnyCancellable]
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])

    func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let id = ObjectIdentifier(object)
        return entries.withLock { entries in
            if let entry = entries[id], entry.object === object { return entry.publisher }
            // Objects that have gone: their identifiers may be reused.
            entries = entries.filter { $0.value.object != nil }
            let publisher = ObservableObjectPublisher()
            let subscriptions = PublishedProperties.of(object).map { property in
                // The first value is the current one, sent on subscription: not a change.
                property.publisher.dropFirst().sink { [publisher] _ in publisher.send() }
            }
            entries[id] = Entry(object: object, publisher: publisher, subscriptions: subscriptions)
            return publisher
        }
    }
}
