extension Duration {
    /// The duration in whole nanoseconds, as a journal records it; one past what 64 bits hold
    /// (292 years) saturates rather than traps, since a logger may be handed any duration.
    @_spi(Tooling) public var nanoseconds: Int64 {
        let (whole, overflow) = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, sumOverflow) = whole.addingReportingOverflow(components.attoseconds / 1_000_000_000)
        guard !overflow, !sumOverflow else { return components.seconds < 0 ? .min : .max }
        return sum
    }
}
