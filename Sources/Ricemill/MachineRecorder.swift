import Foundation
@preconcurrency import OpenCombine
import Rewind

/// A machine's link to the loggers: it announces the machine, turns input values into dispatches,
/// store changes into key-path changes and output values into activities — so that a resolver needs
/// no logging code.
///
/// Store changes are observed on the store's `@Published` properties (found by reflection) and
/// named after them; each carries only its new value, and the journal rebuilds the store's state at
/// every step from the state announced at creation and the changes since.
final class MachineRecorder: @unchecked Sendable {
    // Unchecked: `subscriptions` and `outputOrder` are written only while the machine is being made,
    // before the recorder is shared; everything else is immutable or `Locked`.
    let channel: EventChannel
    private let storeProperties: [PublishedProperty]
    private let isAnnounced = Locked(false)
    /// Set when the machine goes; a proxy kept after that still sends, but nothing is logged.
    private let isReleased = Locked(false)
    private let propertyNames = Locked<[AnyKeyPath: String]>([:])
    private let pendingEvents = Locked<[UInt64: [PendingEvent]]>([:])
    private var subscriptions: [AnyCancellable] = []
    /// The output's properties in declaration order, by name.
    private var outputOrder: [String: Int] = [:]

    init(source: EventSource, store: AnyObject) {
        channel = EventChannel(source: source)
        storeProperties = PublishedProperty.of(store)
        subscriptions = storeProperties.enumerated().map { index, property in
            let channel = self.channel
            let pending = self.pendingEvents
            let announce = announcement()
            // The first value is the current one, sent on subscription: not a change.
            return property.publisher.dropFirst().sink { value in
                guard let logger = channel.logger else { return }
                let change = PendingEvent(
                    order: index, kind: .change(path: ChangedPath(name: property.name), value: CapturedValue(value), state: nil),
                    name: "", time: .now()
                )
                Self.log(change, pending: pending, announce: announce, on: channel, to: logger)
            }
        }
        if let logger = channel.logger { announcement()(logger) }
    }

    /// Learns the output's property order, for ordering its activities (see ``PendingEvent``).
    func observe(output: Any) {
        var mirror: Mirror? = Mirror(reflecting: output)
        var labels: [String] = []
        while let current = mirror {
            labels = current.children.compactMap(\.label) + labels
            mirror = current.superclassMirror
        }
        for (index, label) in labels.enumerated() {
            outputOrder[label.hasPrefix("_") ? String(label.dropFirst()) : label] = index
        }
    }

    /// A store change or output value seen during one of this machine's dispatches, logged when the
    /// dispatch ends.
    ///
    /// Why wait: OpenCombine delivers a value to a publisher's subscribers in no fixed order (they
    /// sit in a hash set), so the order in which one input's effects reach the store differs from
    /// run to run. Logging a dispatch's changes in the order the store declares its properties, then
    /// its output values in the order the output declares its properties (and for each property in
    /// the order they happened) makes a session's log the same every time — for tests, fixtures and
    /// replays.
    private struct PendingEvent: Sendable {
        let order: Int
        let kind: Event.Kind
        let name: String
        let time: EventTime
    }

    /// Logs `event` now, or at the end of the running dispatch of this machine if there is one.
    private static func log(
        _ event: PendingEvent, pending: Locked<[UInt64: [PendingEvent]]>, announce: (any CycleLogging) -> Void,
        on channel: EventChannel, to logger: any CycleLogging
    ) {
        let dispatch = DispatchScope.currentDispatch
        if let dispatch, pending.withLock({ $0[dispatch]?.append(event) != nil }) { return }
        announce(logger)
        emit(event, parent: dispatch, on: channel, to: logger)
    }

    private static func emit(_ event: PendingEvent, parent: UInt64?, on channel: EventChannel, to logger: any CycleLogging) {
        channel.emit(event.kind, name: event.name, callSite: .unknown, parent: parent, at: event.time, to: logger)
    }

    /// Sends this machine's events to `logger` (`nil`: back to the process-wide default), announcing
    /// the machine to it with the store's state now.
    func set(logger: (any CycleLogging)?) {
        channel.set(logger: logger)
        if let logger = channel.logger { announcement()(logger) }
    }

    /// The store's state now, as logged.
    func storeState() -> StateFields {
        PublishedProperty.snapshot(of: storeProperties)
    }

    /// Logs the machine's release; called when the machine goes.
    func released() {
        isReleased.withLock { $0 = true }
        guard let logger = channel.logger, isAnnounced.withLock({ $0 }) else { return }
        channel.emit(.released, callSite: .unknown, parent: nil, to: logger)
    }

    /// Emits `created` with the store's state the first time it is called (for the logger in use).
    /// Captures no reference to the recorder, so that subscriptions can hold it.
    private func announcement() -> (any CycleLogging) -> Void {
        let channel = self.channel
        let isAnnounced = self.isAnnounced
        let properties = storeProperties
        return { logger in
            guard isAnnounced.withLock({ announced in
                defer { announced = true }
                return !announced
            }) else { return }
            channel.emit(.created(state: CapturedValue(PublishedProperty.snapshot(of: properties))), callSite: .unknown, parent: nil, to: logger)
        }
    }

    // MARK: Dispatches

    /// Runs `send` as a dispatch named `name` carrying `value` (`nil` for `Void` inputs).
    func dispatch(name: String, value: Any?, callSite: CallSite, _ send: () -> Void) {
        guard let logger = channel.logger, !isReleased.withLock({ $0 }) else { return send() }
        announcement()(logger)
        let start = EventTime.now()
        let sequence = channel.emit(.willDispatch(input: value.map(CapturedValue.init)), name: name, callSite: callSite, at: start, to: logger)
        pendingEvents.withLock { $0[sequence] = [] }
        DispatchScope.run(inside: sequence, send)
        let events = pendingEvents.withLock { $0.removeValue(forKey: sequence) } ?? []
        for event in events.enumerated().sorted(by: { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }) {
            Self.emit(event.element, parent: sequence, on: channel, to: logger)
        }
        let end = EventTime.now()
        let duration = Duration.nanoseconds(Int64(end.monotonicNanoseconds - start.monotonicNanoseconds))
        channel.emit(.didDispatch(duration: duration), name: name, callSite: callSite, parent: sequence, at: end, to: logger)
    }

    /// Logs a value an output publisher delivered.
    func outputValue(_ value: Any, name: String) {
        guard let logger = channel.logger else { return }
        let activity = PendingEvent(
            order: storeProperties.count + (outputOrder[name] ?? outputOrder.count), kind: .activity(CapturedValue(value)),
            name: name, time: .now()
        )
        Self.log(activity, pending: pendingEvents, announce: announcement(), on: channel, to: logger)
    }

    // MARK: Names

    /// The name of the property `keyPath` reaches in `container`, remembered per key path.
    ///
    /// A key path to a stored property names itself; one to a computed property — which is what a
    /// `@Published` property is — prints as `<computed …>` on Linux. Such a property is then found
    /// among `container`'s stored properties by identity (the same subject object) or as the only
    /// `@Published` property of its value type.
    func name(of keyPath: AnyKeyPath, in container: Any, value: Any, valueType: Any.Type) -> String {
        if let known = propertyNames.withLock({ $0[keyPath] }) { return known }
        let name = Self.resolveName(of: keyPath, in: container, value: value, valueType: valueType)
        propertyNames.withLock { $0[keyPath] = name }
        return name
    }

    static func resolveName(of keyPath: AnyKeyPath, in container: Any, value: Any, valueType: Any.Type) -> String {
        let text = ChangedPath(keyPath).description
        if !text.isEmpty, !text.contains("…") { return text }
        var children: [Mirror.Child] = []
        var mirror: Mirror? = Mirror(reflecting: container)
        while let current = mirror {
            children += current.children
            mirror = current.superclassMirror
        }
        func plain(_ label: String) -> String { label.hasPrefix("_") ? String(label.dropFirst()) : label }
        if type(of: value) is AnyClass {
            let object = value as AnyObject
            if let match = children.first(where: { type(of: $0.value) is AnyClass && ($0.value as AnyObject) === object }), let label = match.label {
                return plain(label)
            }
        }
        let published = children.filter { ($0.value as? any PublishedStorage)?.holds(valueType) == true }
        if published.count == 1, let label = published[0].label { return plain(label) }
        let sameType = children.filter { type(of: $0.value) == valueType }
        if sameType.count == 1, let label = sameType[0].label { return plain(label) }
        return text
    }
}
