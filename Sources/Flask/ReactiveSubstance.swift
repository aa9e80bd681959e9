import Foundation
@_spi(Tooling) import Rewind

/// A mixer's body: it changes `substance.prop` and then calls `react` (commit, and tell the
/// reactors) or `abort` (drop the changes, no reaction). Call one of them before returning; a mixer
/// that calls neither is aborted.
public typealias SubstanceMixerReaction = (_ payload: MixerPayload?, _ react: @escaping () -> Void, _ abort: @escaping () -> Void) -> Void

/// A substance that answers the process's mixers (the Fluxor style): it defines, in
/// ``defineMixers()``, what each case of its mixer enum does.
///
/// ```swift
/// enum EnvMixers: SubstanceMixer { case login, logout }
///
/// final class AppReactiveSubstance: ReactiveSubstance<AppState, EnvMixers> {
///     override func defineMixers() {
///         define(mix: .login) { payload, react, abort in
///             self.prop.title = "signed"
///             react()
///         }
///     }
/// }
/// Flask.substances(reactTo: EnvMixers.login, payload: ["username": "foo"])
/// ```
open class ReactiveSubstance<T: State, Mixers: RawRepresentable>: Substance<T>, MixerReceiving, @unchecked Sendable
where Mixers.RawValue == String {
    // Unchecked: `mixers` is `Locked`.
    private let mixers = Locked<[String: SubstanceMixerReaction]>([:])

    public required init() {
        super.init()
        defineMixers()
    }

    public required init(name: String, archive: Bool = false) {
        super.init(name: name, archive: archive)
        defineMixers()
    }

    /// Define the substance's mixers here with ``define(mix:_:)``; called once, at creation.
    open func defineMixers() {}

    /// Makes the substance answer `mixer` with `reaction`.
    public func define(mix mixer: Mixers, _ reaction: @escaping SubstanceMixerReaction) {
        let key = MixerKey(mixer)
        mixers.withLock { $0[key.identifier] = reaction }
        scope.mixers.register(self, for: key)
    }

    func handles(_ key: MixerKey) -> Bool {
        mixers.withLock { $0[key.identifier] != nil }
    }

    func mixerKey(named name: String) -> MixerKey? {
        guard let mixer = Mixers(rawValue: name) else { return nil }
        let key = MixerKey(mixer)
        return handles(key) ? key : nil
    }

    /// Applies one mixer: a dispatch carrying the payload, around the mutation it commits or the
    /// abort. Runs on the flux.
    func apply(_ key: MixerKey, payload: MixerPayload?, lock: FluxLock?, callSite: CallSite) {
        guard let reaction = mixers.withLock({ $0[key.identifier] }) else { return }
        let logger = announcedLogger()
        let start = EventTime.now()
        var sequence: UInt64?
        if let logger {
            sequence = channel.emit(.willDispatch(input: payload.map { LoggedValue(PayloadText.fields($0)) }), name: key.name, callSite: callSite, at: start, to: logger)
        }
        DispatchScope.run(inside: sequence) {
            beginMix()
            var outcome: Bool?
            reaction(payload, { if outcome == nil { outcome = true } }, { if outcome == nil { outcome = false } })
            if outcome == true {
                let committed = commitMix(named: key.name, callSite: callSite)
                scope.reactors.deliver(committed, from: self, lock: lock)
            } else {
                abortMix()
                if let logger {
                    channel.emit(.activity(LoggedValue(StateFields([("mixer", key.name)]))), name: "abort", callSite: callSite, to: logger)
                }
            }
        }
        if let logger, let sequence {
            let end = EventTime.now()
            let duration = Duration.nanoseconds(Int64(end.monotonicNanoseconds - start.monotonicNanoseconds))
            channel.emit(.didDispatch(duration: duration), name: key.name, callSite: callSite, parent: sequence, at: end, to: logger)
        }
    }
}

/// A mixer case, known by its enum type and case name, so that two enums with a `login` case stay
/// apart.
struct MixerKey: Hashable, Sendable {
    let identifier: String
    let name: String

    init<Mixer: RawRepresentable>(_ mixer: Mixer) where Mixer.RawValue == String {
        name = mixer.rawValue
        identifier = "\(String(reflecting: Mixer.self)).\(mixer.rawValue)"
    }
}

/// Substances that answer mixers, as the registry sees them.
protocol MixerReceiving: AnyObject {
    func handles(_ key: MixerKey) -> Bool
    func mixerKey(named name: String) -> MixerKey?
    func apply(_ key: MixerKey, payload: MixerPayload?, lock: FluxLock?, callSite: CallSite)
}

/// Which reactive substances answer which mixers, held weakly: a substance that goes stops
/// answering.
final class MixerRegistry: Sendable {
    static let shared = MixerRegistry()

    private struct Entry: @unchecked Sendable {
        // Unchecked: a weak reference, read under the registry's lock.
        weak var substance: (any MixerReceiving)?
    }

    private let entries = Locked<[MixerKey: [Entry]]>([:])

    func register(_ substance: any MixerReceiving, for key: MixerKey) {
        entries.withLock { entries in
            var list = entries[key, default: []].filter { $0.substance != nil }
            if !list.contains(where: { $0.substance === substance }) { list.append(Entry(substance: substance)) }
            entries[key] = list
        }
    }

    /// The live substances answering `key`, in the order they defined it.
    func substances(for key: MixerKey) -> [any MixerReceiving] {
        entries.withLock { entries in
            let live = entries[key, default: []].filter { $0.substance != nil }
            entries[key] = live
            return live.compactMap(\.substance)
        }
    }
}

/// A payload as a value that captures well: its keys sorted, values as they are.
enum PayloadText {
    static func fields(_ payload: MixerPayload) -> StateFields {
        StateFields(payload.keys.sorted().map { ($0, payload[$0]!) })
    }
}
