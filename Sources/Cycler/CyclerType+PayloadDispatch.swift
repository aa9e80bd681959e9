@_spi(Tooling) import Rewind

extension CyclerType {
    /// Runs an action that takes a payload, and records the payload with the dispatch so that a
    /// replay can send it again (see ``replayTarget(resending:)``).
    ///
    /// ```swift
    /// func add(_ amount: Int) {
    ///     dispatch("add", with: amount) { context, amount in
    ///         context.commit { $0.update($0.value.count + amount, \.count) }
    ///     }
    /// }
    /// ```
    public func dispatch<Payload: Encodable, Result>(
        _ name: String,
        with payload: Payload,
        _ description: String = "",
        file: StaticString = #fileID,
        function: StaticString = #function,
        line: UInt = #line,
        _ action: (CyclerWeakContext<Self>, Payload) throws -> Result
    ) rethrows -> Result {
        try runDispatch(
            name: name, description: description, input: LoggedValue(payload),
            callSite: CallSite(file: file, function: function, line: line)
        ) { context in
            try action(context, payload)
        }
    }
}
