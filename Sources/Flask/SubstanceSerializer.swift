import Foundation

/// Turns a substance state into JSON and back: the one codec archiving uses.
///
/// What JSON cannot hold is mapped to `nil`: a ``FlaskRef`` (to an object) is archived as null, as
/// is any object inside a ``FlaskDictRef`` that is not a string, number, boolean, array or
/// dictionary.
///
/// ```swift
/// let json = try SubstanceSerializer.jsonFromState(state)
/// let decoded: AppState = try SubstanceSerializer.stateFromJson(json)
/// ```
public enum SubstanceSerializer {
    /// `state` as JSON data, keys sorted.
    public static func dataFromState<T: State>(_ state: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(state)
    }

    /// `state` as a JSON string, keys sorted.
    public static func jsonFromState<T: State>(_ state: T) throws -> String {
        String(decoding: try dataFromState(state), as: UTF8.self)
    }

    /// The state a JSON document describes.
    public static func stateFromData<T: State>(_ data: Data) throws -> T {
        try JSONDecoder().decode(T.self, from: data)
    }

    /// The state a JSON string describes.
    public static func stateFromJson<T: State>(_ json: String) throws -> T {
        try stateFromData(Data(json.utf8))
    }
}
