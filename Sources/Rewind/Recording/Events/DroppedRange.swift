/// Events a writer in drop mode could not keep.
public struct DroppedRange: Sendable, Equatable {
    /// How many were dropped.
    public var count: UInt64
    /// The lowest and highest sequence numbers among them.
    public var sequences: ClosedRange<UInt64>
}
