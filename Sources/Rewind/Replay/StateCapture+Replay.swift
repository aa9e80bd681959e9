/// What replay needs of state capture beyond what a recording needs: values of types known only at
/// run time — a recorded input re-sent into a subject, a property restored — and the error for a
/// type that cannot be rebuilt.
extension StateCapture {
    /// Rebuilds a value of a type known only at run time: `Void` from no tree, a Decodable type from
    /// its tree (a replay re-sending a recorded input into a subject of that type).
    ///
    /// - Throws: `DecodingError` when the tree does not fit, ``ReplayError/notRestorable(_:)`` when
    ///   the type is not Decodable.
    package static func decode(_ type: Any.Type, from tree: StateValue?) throws -> Any {
        if type == Void.self { return () }
        guard let decodable = type as? any Decodable.Type else {
            throw ReplayError.notRestorable("\(type) is not Decodable")
        }
        return try decode(decodable, from: tree ?? .null)
    }

    /// ``decode(_:restoring:over:)`` for a type known only at run time.
    package static func decode(_ type: Any.Type, restoring tree: StateValue, over live: Any) throws -> Any {
        try decode(type, from: tree.keepingSecrets(of: live))
    }
}
