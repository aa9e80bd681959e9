import Rewind

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

        init(_ condition: Condition) {
            self.condition = condition
            scan = ConditionScan(condition)
        }

        /// Reads up to `budget` blocks; returns whether the whole journal has been read.
        mutating func step(_ timeline: Timeline, budget: Int) -> Bool {
            var read = 0
            while block < timeline.reader.blocks.count, read < budget {
                defer { block += 1 }
                read += 1
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
