extension SchemaProblem {
    /// The problem with re-sending `input` as a value of `type` (the unit's action, an input
    /// property's value), naming what changed; `nil` when it decodes. For a ``ReplayTarget``'s
    /// ``ReplayTarget/inputProblem(_:)``.
    ///
    /// ```swift
    /// func inputProblem(_ input: RecordedInput) -> SchemaProblem? { .sending(input, as: Action.self) }
    /// ```
    public static func sending(_ input: RecordedInput, as type: any Decodable.Type) -> SchemaProblem? {
        InputShape.problem(input, as: type)
    }
}
