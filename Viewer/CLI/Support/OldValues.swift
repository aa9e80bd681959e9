@_spi(Tooling) import Rewind

/// The value each change's path held before the change, for `log --grep`'s `quantity: 0 → -1`,
/// where a search reads only the events that may match: the state before each change shown is
/// rebuilt (``JournalReader/stateFold(of:before:)``) and the value read from it by the one rule
/// of ``ValueBefore``. A reader that sees every step walks states along instead
/// (``WalkedEvents``).
struct OldValues {
    let reader: JournalReader

    /// The value `event`'s path held before it (``ValueBefore``): `unknown` for an event that is
    /// not a change.
    func before(_ event: RecordedEvent) -> ValueBefore {
        guard event.kind == .change else { return .unknown }
        let fold = (try? reader.stateFold(of: event.source.instanceID, before: event.sequence)) ?? StateFold()
        return ValueBefore(of: event, in: fold.current)
    }
}
