extension Event.Category {
    /// The kind as rows and the viewer say it: `dispatch`, `finished`, `mutate`, `mutated`,
    /// `change`, `replace`, `activity`, `created`, `released`, `dropped`, `log`. JSON, journals and
    /// OpenTelemetry keep the raw value (`willDispatch`, …).
    package var word: String {
        switch self {
        case .willDispatch: "dispatch"
        case .didDispatch: "finished"
        case .willMutate: "mutate"
        case .didMutate: "mutated"
        case .change: "change"
        case .replace: "replace"
        case .activity: "activity"
        case .created: "created"
        case .released: "released"
        case .dropped: "dropped"
        case .log: "log"
        }
    }

    /// The kind a filter names: its word as the screen shows it (`dispatch`) or its recorded
    /// name (`willDispatch`), in any case.
    ///
    /// ```swift
    /// Event.Category(named: "dispatch")      // .willDispatch
    /// Event.Category(named: "didMutate")     // .didMutate
    /// ```
    package init?(named name: String) {
        let lowered = name.lowercased()
        guard let kind = Self.allCases.first(where: { $0.word == lowered || $0.rawValue.lowercased() == lowered }) else { return nil }
        self = kind
    }

    /// Every kind's word and recorded name, for error messages: `dispatch (willDispatch), …`.
    package static var namesForHelp: String {
        allCases.map { $0.word == $0.rawValue ? $0.word : "\($0.word) (\($0.rawValue))" }.joined(separator: ", ")
    }
}
