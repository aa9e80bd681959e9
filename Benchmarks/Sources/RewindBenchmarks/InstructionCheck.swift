import Foundation

/// The check CI runs (`.ci/instruction-check`): instructions per event on the app's thread (over no
/// logger) and on the writer's, counted by callgrind on the counter and todo workloads, held
/// against the thresholds committed in `Benchmarks/instruction-thresholds.json`.
///
/// Callgrind counts instructions, not time, so the figures hold on a loaded machine; what still
/// moves between runs is how the writer's batches fall (a few percent), which the margin covers.
/// A change that makes recording cheaper lowers the thresholds in the same commit.
enum InstructionCheck {
    /// The committed thresholds.
    struct Thresholds: Codable {
        /// How far above a threshold a count may be (0.08: 8%).
        var margin: Double
        var workloads: [String: Limits]
    }

    struct Limits: Codable {
        /// Instructions per event on the app's thread, over the same loop with no logger.
        var callerOverheadPerEvent: Double
        /// Instructions per event on the writer's threads (the writer and the compressor).
        var writerPerEvent: Double
        /// Heap allocations per commit on the app's thread, over no logger.
        var callerAllocationsPerCommit: Double
    }

    /// One figure against its threshold.
    struct Verdict {
        var workload: String
        var figure: String
        var measured: Double
        var threshold: Double
        var allowed: Double
        var passes: Bool { measured <= allowed }
    }

    static func run(thresholdsPath: String, scratch: String) throws -> [Verdict] {
        let thresholds = try JSONDecoder().decode(Thresholds.self, from: Data(contentsOf: URL(fileURLWithPath: thresholdsPath)))
        var verdicts: [Verdict] = []
        for (name, limits) in thresholds.workloads.sorted(by: { $0.key < $1.key }) {
            guard let workload = Workload(rawValue: name) else { throw InstructionCount.Failure(description: "unknown workload \(name) in \(thresholdsPath)") }
            FileHandle.standardError.write(Data("counting instructions: \(name)…\n".utf8))
            let none = try InstructionCount.run(workload: workload, contender: .none, scratch: scratch)
            let journal = try InstructionCount.run(workload: workload, contender: .journal, scratch: scratch)
            func verdict(_ figure: String, _ measured: Double, _ threshold: Double, slack: Double = 0) -> Verdict {
                Verdict(workload: name, figure: figure, measured: measured, threshold: threshold, allowed: threshold * (1 + thresholds.margin) + slack)
            }
            verdicts.append(
                verdict(
                    "caller instructions/event over none", journal.callerInstructionsPerEvent - none.callerInstructionsPerEvent, limits.callerOverheadPerEvent))
            verdicts.append(verdict("writer instructions/event", journal.writerInstructionsPerEvent, limits.writerPerEvent))
            // Allocations are whole numbers per commit: a quarter of one is the slack for rounding.
            verdicts.append(
                verdict(
                    "caller allocations/commit over none", journal.callerAllocationsPerCommit - none.callerAllocationsPerCommit,
                    limits.callerAllocationsPerCommit, slack: 0.25))
        }
        return verdicts
    }

    static func table(_ verdicts: [Verdict]) -> String {
        var lines = ["workload   figure                                  measured   threshold     allowed   verdict"]
        for verdict in verdicts {
            lines.append(
                [
                    verdict.workload.padding(toLength: 10, withPad: " ", startingAt: 0),
                    verdict.figure.padding(toLength: 38, withPad: " ", startingAt: 0),
                    String(format: "%9.1f", verdict.measured),
                    String(format: "%11.1f", verdict.threshold),
                    String(format: "%11.1f", verdict.allowed),
                    verdict.passes ? "  ok" : "  OVER"
                ].joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }
}
