/// A substance's state: a Codable struct with default values.
///
/// Properties whose names start with `_` are internal: they are kept and archived, but changing
/// them causes no reaction and no change event.
///
/// ```swift
/// struct AppState: State {
///     enum prop: StateProp { case counter, title }
///     var counter = 0
///     var title = ""
///     var _cache = ""   // ignored for change detection
/// }
/// ```
public protocol State: Codable {
    /// The state a substance starts with.
    init()
}

/// The raw type of a state's key enum (`enum prop: StateProp { case counter }`), so that keys are
/// strings that `reaction.on(_:)` matches.
public typealias StateProp = String

/// The raw type of a reactive substance's mixer enum (`enum Mixers: SubstanceMixer { case login }`).
public typealias SubstanceMixer = String

/// A mixer's payload: what `Flask.substances(reactTo:payload:)` hands to each mixer.
public typealias MixerPayload = [String: Any]
