import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind

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
    /// The value each state property published last, which is the value it holds once it has
    /// stored: reading a `@Published` property otherwise takes a subscription of its own.
    private let latest: LatestValues
    /// The unit's state now, for its `created` event: made once, since the unit asks before every
    /// dispatch and output. Captures no reference to the recorder, so that subscriptions can hold it.
    private let stateNow: @Sendable () -> LoggedValue?
    private let propertyNames = Locked<[AnyKeyPath: String]>([:])
    /// What the unit changed inside the running dispatches and effects, until each ends.
    private let held: HeldEvents
    private var subscriptions: [AnyCancellable] = []
    /// The output's properties in declaration order, by name.
    private var outputOrder: [String: Int] = [:]

    /// Starts watching `stateProperties`; the unit is announced at once if a logger listens.
    package init(source: EventSource, stateProperties: [ObservedProperty]) {
        channel = EventChannel(source: source)
        self.stateProperties = stateProperties
        let latest = LatestValues(names: stateProperties.map(\.name))
        self.latest = latest
        stateNow = { LoggedValue(latest.state) }
        held = HeldEvents(channel: channel, latest: latest, state: stateNow)
        subscriptions = stateProperties.enumerated().map { index, property in
            let held = self.held
            var isCurrent = true
            return property.publisher.sink { value in
                latest.store(value, at: index)
                // The first value is the current one, sent on subscription: not a change.
                guard !isCurrent else {
                    isCurrent = false
                    return
                }
                guard held.channel.handle != nil else { return }
                held.log(PendingEvent(
                    order: index, kind: .change(path: ChangedPath(name: property.name), value: LoggedValue(value), state: nil),
                    name: "", time: .now()
                ))
            }
        }
        _ = channel.announcedHandle(state: stateNow)
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
        _ = channel.announcedHandle(state: stateNow)
    }

    /// The unit's state now, as logged.
    package func currentState() -> StateFields {
        latest.state
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
        guard let logger = channel.announcedHandle(state: stateNow) else { return send() }
        let start = EventTime.now()
        let input = value.map(LoggedValue.init)
        let sequence = nameKnownBefore
            ? channel.emit(.willDispatch(input: input), name: name(), callSite: callSite, at: start, to: logger)
            : EventSequence.next()
        let ((), changes) = DispatchScope.runHolding(inside: sequence, send)
        let name = name()
        if !nameKnownBefore {
            channel.emit(.willDispatch(input: input), name: name, callSite: callSite, at: start, sequence: sequence, to: logger)
        }
        held.name(dispatch: sequence, name)
        changes.release()
        held.name(dispatch: sequence, nil)
        let end = EventTime.now()
        let duration = Duration.nanoseconds(Int64(end.monotonicNanoseconds - start.monotonicNanoseconds))
        channel.emit(.didDispatch(duration: duration), name: name, callSite: callSite, parent: sequence, at: end, to: logger)
    }

    /// Logs a value an output publisher delivered.
    package func outputValue(_ value: Any, name: String) {
        guard channel.handle != nil else { return }
        let activity = PendingEvent(
            order: stateProperties.count + (outputOrder[name] ?? outputOrder.count), kind: .activity(LoggedValue(value)),
            name: name, time: .now()
        )
        held.log(activity)
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

    /// A state change or output value seen during a dispatch or effect, logged when it ends.
    fileprivate struct PendingEvent: Sendable {
        let order: Int
        let kind: Event.Kind
        let name: String
        let time: EventTime
    }
}

/// A unit's events held until the dispatch or effect they happened in ends
/// (``DispatchScope/HeldChanges``), then logged as one commit and its output values.
///
/// Why wait, and why a commit:
/// - A `@Published` property tells its subscribers before it stores its value, so a state read
///   while it announces is one the app never had (a derived list already filtered, its source
///   still empty). Once the dispatch or effect ends, every property has stored: the commit's
///   changes carry the values the properties hold then, and its state is the state the unit
///   settled in.
/// - OpenCombine delivers a value to a publisher's subscribers in no fixed order (they sit in a
///   hash set), so the order in which one input's effects reach the state differs from run to run.
///   The commit lists the changed properties in the order the state declares them, then the output
///   values in the order the output declares its properties (and for each property in the order
///   they happened): a session's log is the same every time — for tests, fixtures and replays.
///
/// Changes made outside any dispatch or effect (work on a queue the app runs itself) are logged as
/// they come, one step each; ``DispatchScope/runEffect(causedBy:_:)`` makes such work one step.
private final class HeldEvents: @unchecked Sendable {
    // Unchecked: immutable after init; the properties' readers are the unit's own, which it
    // already calls from whatever thread changes it.
    let channel: EventChannel
    private let latest: LatestValues
    private let state: @Sendable () -> LoggedValue?
    /// The commit names of the dispatches running, by their sequence numbers.
    private let dispatchNames = Locked<[UInt64: String]>([:])

    init(channel: EventChannel, latest: LatestValues, state: @escaping @Sendable () -> LoggedValue?) {
        self.channel = channel
        self.latest = latest
        self.state = state
    }

    /// Logs `event` now, or when the running dispatch or effect ends if there is one.
    func log(_ event: UnitRecorder.PendingEvent) {
        // The closure is kept by the scope until it is released: it holds neither the scope nor
        // the unit.
        if let scope = DispatchScope.currentHolding {
            let cause = scope.cause
            if scope.hold(event, for: ObjectIdentifier(self), log: { [weak self] events in
                self?.logHeld(events.compactMap { $0 as? UnitRecorder.PendingEvent }, cause: cause)
            }) {
                return
            }
        }
        guard let logger = channel.announcedHandle(state: state) else { return }
        channel.emit(event.kind, name: event.name, callSite: .unknown, parent: DispatchScope.currentDispatch, at: event.time, to: logger)
    }

    /// Names the commit of what this unit holds for dispatch `sequence` after the dispatch (an
    /// effect's commit is named `effect`). Set before the held events are released.
    func name(dispatch sequence: UInt64, _ name: String?) {
        dispatchNames.withLock { $0[sequence] = name }
    }

    private func logHeld(_ events: [UnitRecorder.PendingEvent], cause parent: UInt64?) {
        guard let logger = channel.announcedHandle(state: state) else { return }
        let name = parent.flatMap { sequence in dispatchNames.withLock { $0[sequence] } } ?? "effect"
        var changed: [Int] = []
        var start: EventTime?
        var activities: [(offset: Int, element: UnitRecorder.PendingEvent)] = []
        for (offset, event) in events.enumerated() {
            if case .change = event.kind {
                if !changed.contains(event.order) { changed.append(event.order) }
                start = start ?? event.time
            } else {
                activities.append((offset, event))
            }
        }
        if let start {
            channel.emit(.willMutate, name: name, callSite: .unknown, parent: parent, at: start, to: logger)
            let values = latest.values
            for index in changed.sorted() {
                channel.emit(
                    .change(path: ChangedPath(name: latest.names[index]), value: LoggedValue(values[index]), state: nil),
                    callSite: .unknown, parent: parent, to: logger
                )
            }
            let end = EventTime.now()
            let duration = Duration.nanoseconds(Int64(end.monotonicNanoseconds - start.monotonicNanoseconds))
            let settled = LoggedValue(latest.fields(values))
            channel.emit(.didMutate(duration: duration, state: settled), name: name, callSite: .unknown, parent: parent, at: end, to: logger)
        }
        for activity in activities.sorted(by: { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }) {
            channel.emit(activity.element.kind, name: activity.element.name, callSite: .unknown, parent: parent, at: activity.element.time, to: logger)
        }
    }
}

/// The value each of a unit's state properties published last, by the property's position: what
/// it holds once it has stored. Written by the recorder's own subscriptions, on whatever thread
/// changes the unit.
final class LatestValues: Sendable {
    /// The properties' names, as logged.
    let names: [String]
    private let stored: Locked<[Any]>

    init(names: [String]) {
        self.names = names
        stored = Locked(Array(repeating: (), count: names.count))
    }

    /// Remembers `value` as what property `index` holds.
    func store(_ value: Any, at index: Int) {
        stored.withLock { $0[index] = value }
    }

    /// Every property's value, in declaration order.
    var values: [Any] { stored.withLock { $0 } }

    /// The values now as a state to log.
    var state: StateFields { fields(values) }

    /// `values` (one per property, in declaration order) as a state to log.
    func fields(_ values: [Any]) -> StateFields {
        StateFields(zip(names, values).map { ($0, $1) })
    }
}
