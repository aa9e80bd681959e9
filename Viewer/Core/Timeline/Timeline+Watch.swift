@_spi(Tooling) import Rewind

extension Timeline {
    /// Finds every step where a condition holds (the viewer's `w`), reading the journal's blocks
    /// in order — every event, shown or not, since each step's state depends on the ones before —
    /// a few blocks per step, between keys.
    struct WatchJob {
        let condition: Condition
        private var scan: ConditionScan
        private var block = 0
        private(set) var sequences: [UInt64] = []
        private(set) var total = 0
        /// How many matches are remembered for marks and n/N; all are counted.
        static let rememberedSteps = 100_000
        /// How many block summaries are looked at in the time of one block read.
        static let summariesPerBlockRead = 32

        init(_ condition: Condition) {
            self.condition = condition
            scan = ConditionScan(condition)
        }

        /// Reads up to `budget` blocks; returns whether the whole journal has been read.
        mutating func step(_ timeline: Timeline, budget: Int) -> Bool {
            var read = 0, looked = 0
            // The budget may be unbounded (Int.max): the product saturates.
            let (product, overflow) = budget.multipliedReportingOverflow(by: Self.summariesPerBlockRead)
            let lookLimit = overflow ? Int.max : product
            while block < timeline.reader.blocks.count, read < budget, looked < lookLimit {
                defer { block += 1 }
                looked += 1
                // A block whose summary rules the condition out is not read: a summary costs a
                // few hundred bytes, so many are looked at for one block read.
                guard timeline.reader.mayHold(condition, inBlock: block) else {
                    scan.skip(block: block, of: timeline.reader)
                    continue
                }
                read += 1
                scan.enter(block: block, of: timeline.reader)
                for event in timeline.events(inBlock: block) ?? [] {
                    guard let step = scan.step(event) else { continue }
                    total += 1
                    if sequences.count < Self.rememberedSteps { sequences.append(step.event.sequence) }
                }
            }
            return block >= timeline.reader.blocks.count
        }

        /// How far it has read, 0…1.
        func progress(_ timeline: Timeline) -> Double {
            timeline.reader.blocks.isEmpty ? 1 : Double(block) / Double(timeline.reader.blocks.count)
        }
    }
}
