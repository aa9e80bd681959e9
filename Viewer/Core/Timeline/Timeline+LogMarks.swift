import Logging
@_spi(Tooling) import Rewind

/// The steps of the app's warnings and errors, for the overview strip (errors stand out there):
/// found between keys from the moment a journal opens, and again for the blocks a live writer adds.
package struct LogMarks: Sendable, Equatable {
    /// The steps of messages at `error` or above, and of warnings, in order (each up to
    /// ``Timeline/LogMarksJob/rememberedSteps``).
    package var errors: [UInt64] = []
    package var warnings: [UInt64] = []

    /// None found yet.
    package init() {}
}

extension Timeline {
    /// Reads only what can hold a warning: a block none of whose sources is a logger is passed
    /// over from the index, a logger's block whose summary has no warning or error from its
    /// summary, and the rest are decoded. A journal without logs costs nothing; one with rare
    /// errors, a summary per block.
    struct LogMarksJob {
        private(set) var marks = LogMarks()
        /// The next block to look at: blocks added later are looked at when the job goes on.
        private(set) var block = 0
        /// How many steps of each level are remembered, as for a watch.
        static let rememberedSteps = WatchJob.rememberedSteps
        private static let warnings = Condition.logMessages(from: .warning)

        /// Whether every block so far has been looked at (a live writer may add more).
        func isDone(_ timeline: Timeline) -> Bool {
            block >= timeline.reader.blocks.count
        }

        /// Looks at up to `budget` blocks' worth (a summary is a 32nd of a block read); returns
        /// whether every block so far has been looked at.
        mutating func step(_ timeline: Timeline, budget: Int) -> Bool {
            let reader = timeline.reader
            let loggers = reader.loggerIDs
            var read = 0, looked = 0
            let (product, overflow) = budget.multipliedReportingOverflow(by: WatchJob.summariesPerBlockRead)
            let lookLimit = overflow ? Int.max : product
            while block < reader.blocks.count, read < budget, looked < lookLimit {
                defer { block += 1 }
                guard !loggers.isDisjoint(with: reader.blocks[block].sources.keys) else { continue }
                looked += 1
                guard reader.mayHold(Self.warnings, inBlock: block) else { continue }
                read += 1
                for event in timeline.events(inBlock: block) ?? [] {
                    guard let level = event.logLevel, level >= .warning else { continue }
                    if level >= .error {
                        if marks.errors.count < Self.rememberedSteps { marks.errors.append(event.sequence) }
                    } else if marks.warnings.count < Self.rememberedSteps {
                        marks.warnings.append(event.sequence)
                    }
                }
            }
            return isDone(timeline)
        }
    }
}
