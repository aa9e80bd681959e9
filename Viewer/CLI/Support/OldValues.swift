@_spi(Tooling) import Rewind

/// The value each change's path held before the change, for `log`'s `quantity: 0 → -1`: each
/// source's state carried along the events a command reads, by the one rule of ``StateWalker``.
///
/// A reader that sees every step of the sources it shows (`seesEveryStep`) picks each source up
/// once, where it first meets it, and walks on. One that skips steps (a text search reads only
/// the events that match) rebuilds the state before each change it shows.
struct OldValues {
    let reader: JournalReader
    let seesEveryStep: Bool
    private var walker = StateWalker()
    private var joined: Set<UInt64> = []

    init(reader: JournalReader, seesEveryStep: Bool) {
        self.reader = reader
        self.seesEveryStep = seesEveryStep
    }

    /// The value `event`'s path held before it (``ValueBefore``). Call it for every event read, in
    /// order.
    mutating func before(_ event: RecordedEvent) -> ValueBefore {
        let source = event.source.instanceID
        let isChange = event.kind == .change
        if seesEveryStep ? !joined.contains(source) : isChange {
            // Where the reader joins the source: its state as the journal has it just before.
            let fold = (try? reader.stateFold(of: source, before: event.sequence)) ?? StateFold()
            walker.resume(source, from: fold)
            joined.insert(source)
        }
        let old = walker.value(before: event)
        if seesEveryStep { walker.advance(event) }
        return old
    }
}
