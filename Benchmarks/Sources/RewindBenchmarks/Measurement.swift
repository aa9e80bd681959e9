import Foundation
@_spi(Tooling) import Rewind

enum Measurement {
    struct Result: Codable {
        var workload: String
        var contender: String
        var commits: Int
        var events: Int
        /// Caller-thread time per commit, nanoseconds.
        var callerCommitP50: Double
        var callerCommitP99: Double
        /// The longest a commit kept the caller's thread, nanoseconds: in `.wait` mode, how long the
        /// app stalls when the writer falls behind (its takes are bounded, so that it frees room
        /// in steps).
        var callerCommitMax: Double? = nil
        /// Events kept per second from the first commit until everything is durably on disk (or, for
        /// the in-memory contender, until the last commit returns).
        var eventsPerSecond: Double
        var bytesOnDisk: Int
        var peakResidentKilobytes: Int
        /// Commits per second the app made while the logger recorded (the loop's own time, without
        /// waiting for the logger to finish): what the user feels.
        var appCommitsPerSecond: Double? = nil
        /// How long closing the logger took: writing what was still queued, the index, the fsync.
        var closeMilliseconds: Double? = nil
        /// Events the logger dropped (the journal in drop mode).
        var eventsDropped: Int? = nil
        /// Caller-thread time per event: per-commit time divided by the events a commit makes.
        var callerEventP50: Double { callerCommitP50 / Double(Workload.eventsPerCommit) }
        var callerEventP99: Double { callerCommitP99 / Double(Workload.eventsPerCommit) }
        /// Bytes per event kept (a dropped event takes no space).
        var bytesPerEvent: Double { Double(bytesOnDisk) / Double(events - (eventsDropped ?? 0)) }

        /// Each figure's median over several runs of the same contender.
        static func median(of runs: [Result]) -> Result {
            func middle<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
            var result = runs[0]
            result.callerCommitP50 = middle(runs.map(\.callerCommitP50))
            result.callerCommitP99 = middle(runs.map(\.callerCommitP99))
            // The longest stall of all the runs, not a typical one.
            result.callerCommitMax = runs.compactMap(\.callerCommitMax).max()
            result.eventsPerSecond = middle(runs.map(\.eventsPerSecond))
            result.bytesOnDisk = middle(runs.map(\.bytesOnDisk))
            result.peakResidentKilobytes = middle(runs.map(\.peakResidentKilobytes))
            result.appCommitsPerSecond = middle(runs.map { $0.appCommitsPerSecond ?? 0 })
            result.closeMilliseconds = middle(runs.map { $0.closeMilliseconds ?? 0 })
            result.eventsDropped = runs[0].eventsDropped.map { _ in middle(runs.map { $0.eventsDropped ?? 0 }) }
            return result
        }
    }

    struct ReadResult: Codable {
        var journalEvents: Int
        var reads: Int
        var openMilliseconds: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
    }

    static func run(workload: Workload, contender: Contender, file: String) throws -> Result {
        var journal: JournalLogger?
        var naive: NaiveJSONLogger?
        var snapshots: SnapshotLogger?
        var swiftLog: SwiftLogTextLogger?
        var recorder: FlightRecorder?
        let logger: (any CycleLogging)?
        switch contender {
        case .none: logger = nil
        case .journal, .drop:
            var configuration = JournalConfiguration()
            configuration.replaceExisting = true  // each repeat records to the same file
            if contender == .drop { configuration.overflow = .drop }
            // To compare the two ways of compressing on one machine: 1 on a thread of its own, 0 inline.
            if let own = ProcessInfo.processInfo.environment["REWIND_BENCH_COMPRESS_ON_OWN_THREAD"] {
                configuration.compressesOnOwnThread = own == "1"
            }
            journal = try JournalLogger(path: file, configuration: configuration)
            logger = journal
        case .ring:
            var configuration = FlightRecorder.Configuration()
            configuration.journal.replaceExisting = true
            recorder = try FlightRecorder(path: file, configuration: configuration)
            logger = recorder
        case .naive:
            naive = NaiveJSONLogger(path: file)
            logger = naive
        case .snapshots:
            snapshots = SnapshotLogger()
            logger = snapshots
        case .discard:
            logger = DiscardingLogger()
        case .swiftlog:
            swiftLog = SwiftLogTextLogger(path: file)
            logger = swiftLog
        }
        var samples = [UInt64](repeating: 0, count: workload.commits)
        let start = EventTime.monotonicNow()
        var loopEnd = start
        do {
            // The view model is released at the end of this scope, so its `released` event is
            // logged before the loggers close.
            let driver = workload.makeDriver(logger: logger)
            for index in 0..<workload.commits {
                let before = EventTime.monotonicNow()
                driver.commit(index)
                samples[index] = EventTime.monotonicNow() - before
            }
            loopEnd = EventTime.monotonicNow()
        }
        journal?.close()  // writes the rest, the index, and fsyncs
        recorder?.close()
        naive?.close()    // synchronize: fsync
        swiftLog?.close()
        let end = EventTime.monotonicNow()
        let dropped = journal.map { $0.statistics.eventsDropped }
        withExtendedLifetime(snapshots) {}
        samples.sort()
        let events = workload.commits * Workload.eventsPerCommit
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        // A ring's file is its fixed size: what the recorder wrote into it is what it cost.
        let size = recorder.map { $0.statistics.bytesWritten } ?? (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        return Result(
            workload: workload.rawValue, contender: contender.rawValue, commits: workload.commits, events: events,
            callerCommitP50: Double(samples[samples.count / 2]), callerCommitP99: Double(samples[samples.count * 99 / 100]),
            callerCommitMax: Double(samples.last ?? 0),
            eventsPerSecond: Double(events - Int(dropped ?? 0)) / (Double(end - start) / 1e9), bytesOnDisk: size,
            peakResidentKilobytes: Int(usage.ru_maxrss),
            appCommitsPerSecond: Double(workload.commits) / (Double(loopEnd - start) / 1e9),
            closeMilliseconds: Double(end - loopEnd) / 1e6,
            eventsDropped: dropped.map(Int.init)
        )
    }

    /// Opens the counter journal and reads the state at `count` random steps.
    static func randomStateReads(path: String, count: Int) throws -> ReadResult {
        let opened = EventTime.monotonicNow()
        let reader = try JournalReader(path: path)
        let openTime = Double(EventTime.monotonicNow() - opened) / 1e6
        let range = reader.sequenceRange!
        let source = reader.sources[0].source.instanceID
        var generator = SystemRandomNumberGenerator()
        var times: [Double] = []
        for _ in 0..<count {
            let step = UInt64.random(in: range, using: &generator)
            let before = EventTime.monotonicNow()
            _ = try reader.state(of: source, at: step)
            times.append(Double(EventTime.monotonicNow() - before) / 1e6)
        }
        times.sort()
        return ReadResult(journalEvents: reader.eventCount, reads: count, openMilliseconds: openTime, p50Milliseconds: times[count / 2], p99Milliseconds: times[count * 99 / 100], maxMilliseconds: times.last!)
    }

    static func machineDescription() -> String {
        "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
    }

    struct Report: Codable {
        var results: [Result]
        var instructions: [InstructionCount.Result]?
        var reads: ReadResult?
        var viewer: ViewerMeasurement.Result?
        var replay: ReplayMeasurement.Result?
        var machine: String

        func table() -> String {
            var lines = ["workload        contender   caller ns/event p50   p99   overhead p50   app speed   events/s to disk   bytes/event   peak RSS MB   close ms   longest stall ms   dropped"]
            for result in results {
                let baseline = results.first { $0.workload == result.workload && $0.contender == "none" }
                let overhead = baseline.map { result.callerEventP50 - $0.callerEventP50 } ?? 0
                lines.append([
                    result.workload.padding(toLength: 15, withPad: " ", startingAt: 0),
                    result.contender.padding(toLength: 10, withPad: " ", startingAt: 0),
                    String(format: "%19.0f", result.callerEventP50), String(format: "%5.0f", result.callerEventP99),
                    String(format: "%14.0f", overhead),
                    baseline?.appCommitsPerSecond.map { String(format: "%10.0f%%", 100 * (result.appCommitsPerSecond ?? 0) / $0) } ?? "          —",
                    String(format: "%18.0f", result.eventsPerSecond),
                    result.bytesOnDisk == 0 ? "            —" : String(format: "%13.2f", result.bytesPerEvent),
                    String(format: "%13.1f", Double(result.peakResidentKilobytes) / 1024),
                    String(format: "%10.0f", result.closeMilliseconds ?? 0), String(format: "%18.1f", (result.callerCommitMax ?? 0) / 1e6),
                    result.eventsDropped.map { String(format: "%9d", $0) } ?? "        —",
                ].joined(separator: " "))
            }
            if let instructions, !instructions.isEmpty {
                lines.append("")
                lines.append(InstructionCount.table(instructions))
            }
            if let reads {
                lines.append("")
                lines.append(String(format: "state at %d random steps of the %d-event counter journal: open %.1f ms; read p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                                    reads.reads, reads.journalEvents, reads.openMilliseconds, reads.p50Milliseconds, reads.p99Milliseconds, reads.maxMilliseconds))
            }
            if let viewer {
                lines.append(String(format: "viewer on the %d-event counter journal (200×60): first frame %.1f ms; step p50 %.2f ms, max %.2f ms; jump p50 %.2f ms, max %.2f ms; search through the whole journal %.0f ms (then counting its matches %.0f ms); folded step p50 %.2f ms; peak memory %.1f MB",
                                    viewer.journalEvents, viewer.firstFrameMilliseconds, viewer.stepP50Milliseconds, viewer.stepMaxMilliseconds,
                                    viewer.jumpP50Milliseconds, viewer.jumpMaxMilliseconds, viewer.searchMilliseconds, viewer.searchCountMilliseconds, viewer.foldedStepP50Milliseconds, viewer.peakResidentMegabytes))
            }
            if let replay {
                lines.append(ReplayMeasurement.line(replay))
            }
            lines.append("machine: \(machine)")
            return lines.joined(separator: "\n")
        }
    }
}
