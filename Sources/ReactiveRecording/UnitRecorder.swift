import Foundation
@preconcurrency import OpenCombine
import Rewind

/// A unit's link to the loggers, for units built from publishers (Ricemill machines, Unio streams):
/// it announces the unit, turns input values into dispatches, state property changes into
/// key-path changes and output values into activities — so that the user's resolver or logic needs
/// no logging code.
///
/// Each change carries only the property's new value; the journal rebuilds the whole state at every
/// step from the state announced at creation and the changes since.
package final class UnitRecorder: @unchecked Sendable {
    // Unchecked: `subscriptions` and `outputOrder` are written only while the unit is being made,
    // before the recorder is shared; everything else is immutable or `Locked`.
    package let channel: EventChannel
    private let stateProperties: [ObservedProperty]
    /// The unit's state now, for its `created` event: made once, since the unit asks before every
    /// dispatch and output. Captures no reference to the recorder, so that subscriptions can hold it.
    private let stateNow: @Sendable () -> CapturedValue?
    private let propertyNames = Locked<[AnyKeyPath: String]>([:])
    private let pendingEvents = Locked<[UInt64: [PendingEvent]]>([:])
    private var subscriptions: [AnyCancellable] = []
    /// The output's properties in declaration order, by name.
    private var outputOrder: [String: Int] = [:]

    /// Starts watching `stateProperties`; the unit is announced at once if a logger listens.
    package init(source: EventSource, stateProperties: [ObservedProperty]) {
        channel = EventChannel(source: source)
        self.stateProperties = stateProperties
        stateNow = { CapturedValue(ObservedProperty.snapshot(of: stateProperties)) }
        subscriptions = stateProperties.enumerated().map { index, property in
            let channel = self.channel
            let pending = self.pendingEvents
            let state = stateNow
            // The first value is the current one, sent on subscription: not a change.
            return property.publisher.dropFirst().sink { value in
                guard channel.logger != nil else { return }
                let change = PendingEvent(
                    order: index, kind: .change(path: ChangedPath(name: property.name), value: CapturedValue(value), state: nil),
                    name: "", time: .now()
                )
                Self.log(change, pending: pending, state: state, on: channel)
            }
        }
        _ = channel.announcedLogger(state: stateNow)
    }

    /// Learns the output's property order, for ordering its activities (see ``PendingEvent``), and
    /// logs every new value of `valueProperties` (an output's own `@Published` properties, which no
    /// publisher read through the output wrapper reports) as an activity. Call while the unit is
    /// being made.
    package func observe(output: Any, valueProperties: [ObservedProperty] = []) {
        for (index, child) in ObservedProperty.children(of: output).enumerated() {
            if let label = child.label { outputOrder[ObservedProperty.plainName(label)] = index }
        }
        subscriptions += valueProperties.map { property in
            // The first value is the current one, sent on subscription: not a new value.
            property.publisher.dropFirst().sink { [weak self] value in
                self?.outputValue(value, name: property.name)
            }
        }
    }

    /// Sends this unit's events to `logger` (`nil`: back to the process-wide default), announcing
    /// the unit to it with its state now.
    package func set(logger: (any CycleLogging)?) {
        channel.set(logger: logger)
        _ = channel.announcedLogger(state: stateNow)
    }

    /// The unit's state now, as logged.
    package func currentState() -> StateFields {
        ObservedProperty.snapshot(of: stateProperties)
    }

    /// Logs the unit's release; called when the unit goes.
    package func released() {
        channel.release()
    }

    // MARK: Dispatches and activities

    /// Runs `send` as a dispatch named `name` carrying `value` (`nil` for `Void` inputs).
    package func dispatch(name: String, value: Any?, callSite: CallSite, _ send: () -> Void) {
        dispatch(value: value, callSite: callSite, nameKnownBefore: true, send: send) { name }
    }

    /// Runs `send` as a dispatch carrying `value`, named by `name` once `send` has run: for an input
    /// whose name is learned by watching which property the send changed. The `willDispatch` event
    /// keeps the number and time of the dispatch's start, and reaches the loggers after the events
    /// other units logged during it.
    package func dispatch(value: Any?, callSite: CallSite, send: () -> Void, name: () -> String) {
        dispatch(value: value, callSite: callSite, nameKnownBefore: false, send: send, name: name)
    }

    private func dispatch(value: Any?, callSite: CallSite, nameKnownBefore: Bool, send: () -> Void, name: () -> String) {
        guard let logger = channel.announcedLogger(state: stateNow) else { return send() }
        let start = EventTime.now()
        let input = value.map(CapturedValue.init)
        let sequence = nameKnownBefore
            ? channel.emit(.willDispatch(input: input), name: name(), callSite: callSite, at: start, to: logger)
            : EventSequence.next()
        pendingEvents.withLock { $0[sequence] = [] }
        DispatchScope.run(inside: sequence, send)
        let name = name()
        if !nameKnownBefore {
            channel.emit(.willDispatch(input: input), name: name, callSite: callSite, at: start, sequence: sequence, to: logger)
        }
        let events = pendingEvents.withLock { $0.removeValue(forKey: sequence) } ?? []
        for event in events.enumerated().sorted(by: { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }) {
            Self.emit(event.element, parent: sequence, on: channel, to: logger)
        }
        let end = EventTime.now()
        let duration = Duration.nanoseconds(Int64(end.monotonicNanoseconds - start.monotonicNanoseconds))
        channel.emit(.didDispatch(duration: duration), name: name, callSite: callSite, parent: sequence, at: end, to: logger)
    }

    /// Logs a value an output publisher delivered.
    package func outputValue(_ value: Any, name: String) {
        guard channel.logger != nil else { return }
        let activity = PendingEvent(
            order: stateProperties.count + (outputOrder[name] ?? outputOrder.count), kind: .activity(CapturedValue(value)),
            name: name, time: .now()
        )
        Self.log(activity, pending: pendingEvents, state: stateNow, on: channel)
    }

    /// The name of the property `keyPath` reaches in `container`, remembered per key path (see
    /// ``PropertyNames``); `nil` when it cannot be told from the container alone.
    package func name(
        of keyPath: AnyKeyPath, in container: Any, value: Any, isCandidate: (Any) -> Bool,
        currentValue: (Any) -> Any? = { _ in nil }
    ) -> String? {
        if let known = propertyNames.withLock({ $0[keyPath] }) { return known }
        guard let name = PropertyNames.name(of: keyPath, in: container, value: value, isCandidate: isCandidate, currentValue: currentValue) else {
            return nil
        }
        remember(name, for: keyPath)
        return name
    }

    /// Remembers the name of the property `keyPath` reaches.
    package func remember(_ name: String, for keyPath: AnyKeyPath) {
        propertyNames.withLock { $0[keyPath] = name }
    }

    // MARK: Ordering

    /// A state change or output value seen during one of this unit's dispatches, logged when the
    /// dispatch ends.
    ///
    /// Why wait: OpenCombine delivers a value to a publisher's subscribers in no fixed order (they
    /// sit in a hash set), so the order in which one input's effects reach the state differs from
    /// run to run. Logging a dispatch's changes in the order the state declares its properties, then
    /// its output values in the order the output declares its properties (and for each property in
    /// the order they happened) makes a session's log the same every time — for tests, fixtures and
    /// replays.
    private struct PendingEvent: Sendable {
        let order: Int
        let kind: Event.Kind
        let name: String
        let time: EventTime
    }

    /// Logs `event` now, or at the end of the running dispatch of this unit if there is one.
    private static func log(
        _ event: PendingEvent, pending: Locked<[UInt64: [PendingEvent]]>, state: () -> CapturedValue?, on channel: EventChannel
    ) {
        let dispatch = DispatchScope.currentDispatch
        if let dispatch, pending.withLock({ $0[dispatch]?.append(event) != nil }) { return }
        guard let logger = channel.announcedLogger(state: state) else { return }
        emit(event, parent: dispatch, on: channel, to: logger)
    }

    private static func emit(_ event: PendingEvent, parent: UInt64?, on channel: EventChannel, to logger: any CycleLogging) {
        channel.emit(event.kind, name: event.name, callSite: .unknown, parent: parent, at: event.time, to: logger)
    }
}
