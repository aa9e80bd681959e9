/// What a walk over a whole journal takes from an events block — the opening walk of a file
/// without an index, `verify` and `recover`: its sources, each one's events in it, and (for
/// `verify`) its state records folded, without its events built.
struct BlockOutline {
    /// The block's source table.
    var sources: [RecordedSource]
    /// How many events the block holds.
    var eventCount: Int
    /// Per source instance: its events in the block.
    var summaries: [UInt64: JournalBlock.SourceSpan] = [:]
    /// The block's state records, folded where the block was decoded (only when asked for).
    var states: FoldedStates?

    /// The lowest and highest sequence numbers of the block's events.
    var sequences: ClosedRange<UInt64>? {
        JournalBlock.SourceSpan.sequences(of: summaries.values)
    }

    /// A block's state records folded on the thread that decoded it, so that a walk's own thread
    /// only joins blocks up. The writer starts each source's states in a block with a keyframe, so
    /// from there on they fold without the blocks before; a source's records before its first
    /// keyframe in the block (none, in a file this writer made) are kept for the walk to fold onto
    /// the state the blocks before left (``StateFold/applyNoting(_:)`` both ways: one rule).
    struct FoldedStates {
        /// A state record of a source not yet keyframed in the block.
        struct Leading {
            /// Its place among the block's state records.
            var position: Int
            /// Its source's place in the block's source table.
            var sourceIndex: Int
            var sequence: UInt64
            var record: StateRecord
        }

        /// A state record that did not apply.
        struct Failure {
            var position: Int
            var sourceIndex: Int
            var sequence: UInt64
            /// Whether its source had a state to apply it to.
            var hadState: Bool
        }

        /// The records of sources not yet keyframed in the block, in order.
        private(set) var leading: [Leading] = []
        /// Each source instance keyframed in the block: its fold at the block's end.
        private(set) var ends: [UInt64: StateFold] = [:]
        /// The records from a keyframe on that did not apply, in order.
        private(set) var failures: [Failure] = []
        /// How many state records the block holds.
        private(set) var count = 0

        /// Folds the block's next state record, of the source at `source` in the block's table,
        /// which is the source instance `instance` (a crafted table may name one twice: both
        /// entries' records fold into one state, as every reader folds them).
        mutating func fold(_ record: StateRecord, source: Int, instance: UInt64, sequence: UInt64) {
            defer { count += 1 }
            if ends[instance] == nil, case .diff = record {
                leading.append(Leading(position: count, sourceIndex: source, sequence: sequence, record: record))
                return
            }
            let (hadState, moved) = ends[instance, default: StateFold()].applyNoting(record)
            if !moved { failures.append(Failure(position: count, sourceIndex: source, sequence: sequence, hadState: hadState)) }
        }
    }
}

extension StateFold {
    /// Applies a state record; says whether there was a recorded state to apply it to, and
    /// whether the state moved.
    mutating func applyNoting(_ record: StateRecord) -> (hadState: Bool, moved: Bool) {
        let hadState = recorded != nil
        return (hadState, apply(.record(record)))
    }
}
