import Foundation
@_spi(Tooling) import Rewind

/// The flight recorder's own targets (issue 44): what it costs at a realistic rate — 10,000
/// events a second of the todo workload from one thread — in CPU time of the whole process
/// (getrusage: the app's thread and the writer's) and peak memory, against no logger, each in a
/// process of its own; and how long a dump of a full 16 MiB window takes after its trigger.
enum FlightRecorderMeasurement {
    /// One paced run.
    struct Paced: Codable {
        var contender: String
        var seconds: Double
        var events: Int
        /// User and system CPU time of the whole process during the run, seconds.
        var cpuSeconds: Double
        var peakResidentKilobytes: Int
    }

    /// Dumps of a full ring.
    struct Dumps: Codable {
        var ringBytes: Int
        var windowEvents: Int
        var dumpBytes: Int
        var p50Milliseconds: Double
        var maxMilliseconds: Double
    }

    struct Result: Codable {
        var eventsPerSecond: Int
        var none: Paced
        var ring: Paced
        var dumps: Dumps
        var machine: String

        /// CPU time the recorder adds, as a percentage of one core.
        var cpuPercentOfOneCore: Double { 100 * (ring.cpuSeconds - none.cpuSeconds) / ring.seconds }
        var extraResidentMegabytes: Double { Double(ring.peakResidentKilobytes - none.peakResidentKilobytes) / 1024 }

        var table: String {
            [
                String(
                    format:
                        "flight recorder, todo at %d events/s for %.0f s: CPU %.3f s with no logger, %.3f s recording (+%.2f%% of one core, target ≤ 1%%); peak RSS %.1f MB vs %.1f MB (+%.1f MB, target ≤ 16)",
                    eventsPerSecond, ring.seconds, none.cpuSeconds, ring.cpuSeconds, cpuPercentOfOneCore,
                    Double(ring.peakResidentKilobytes) / 1024, Double(none.peakResidentKilobytes) / 1024, extraResidentMegabytes),
                String(
                    format: "dump of a full %.0f MiB ring (%d events, %.1f MB written): p50 %.1f ms, max %.1f ms (target ≤ 200 ms)",
                    Double(dumps.ringBytes) / 1_048_576, dumps.windowEvents, Double(dumps.dumpBytes) / 1e6, dumps.p50Milliseconds, dumps.maxMilliseconds),
                "machine: \(machine)"
            ].joined(separator: "\n")
        }
    }

    /// Commits the todo workload at `eventsPerSecond` for `seconds`, recording with `contender`
    /// (`none` or `ring`) into `file`.
    static func paced(contender: Contender, seconds: Double, eventsPerSecond: Int, file: String) throws -> Paced {
        var recorder: FlightRecorder?
        if contender == .ring {
            var configuration = FlightRecorder.Configuration()
            configuration.journal.replaceExisting = true
            recorder = try FlightRecorder(path: file, configuration: configuration)
        }
        let commitsPerSecond = Double(eventsPerSecond) / Double(Workload.eventsPerCommit)
        let commits = Int(commitsPerSecond * seconds)
        let interval = 1e9 / commitsPerSecond
        let cpuBefore = cpuSeconds()
        let start = EventTime.monotonicNow()
        do {
            let driver = Workload.todo.makeDriver(logger: recorder)
            for index in 0..<commits {
                let due = start + UInt64(Double(index) * interval)
                let now = EventTime.monotonicNow()
                if due > now {
                    var wait = timespec(tv_sec: Int(due - now) / 1_000_000_000, tv_nsec: Int(due - now) % 1_000_000_000)
                    nanosleep(&wait, nil)
                }
                driver.commit(index % Workload.todo.commits)
            }
        }
        recorder?.close()
        let elapsed = Double(EventTime.monotonicNow() - start) / 1e9
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Paced(
            contender: contender.rawValue, seconds: elapsed, events: commits * Workload.eventsPerCommit, cpuSeconds: cpuSeconds() - cpuBefore,
            peakResidentKilobytes: Int(usage.ru_maxrss))
    }

    /// Fills a 16 MiB ring with the todo workload, then times `repeats` dumps of it.
    static func dumps(directory: String, repeats: Int = 5) throws -> Dumps {
        var configuration = FlightRecorder.Configuration()
        configuration.journal.replaceExisting = true
        configuration.rateLimit = .unlimited
        configuration.age = .seconds(3600)
        configuration.dumpDirectory = directory
        let recorder = try FlightRecorder(path: directory + "/bench.rewind-ring", configuration: configuration)
        var index = 0
        do {
            let driver = Workload.todo.makeDriver(logger: recorder)
            // Past one and a half laps, so that the window is a full ring that has wrapped.
            while recorder.statistics.bytesWritten < configuration.maximumBytes * 3 / 2 {
                for _ in 0..<10_000 {
                    driver.commit(index % Workload.todo.commits)
                    index += 1
                }
                try recorder.sync()
            }
        }
        try recorder.sync()
        var times: [Double] = []
        var last = ""
        for _ in 0..<repeats {
            let before = EventTime.monotonicNow()
            last = try recorder.dump(reason: "benchmark")!
            times.append(Double(EventTime.monotonicNow() - before) / 1e6)
        }
        recorder.close()
        times.sort()
        let reader = try JournalReader(path: last)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: last)[.size] as? Int) ?? 0
        return Dumps(
            ringBytes: configuration.maximumBytes, windowEvents: reader.eventCount, dumpBytes: bytes, p50Milliseconds: times[times.count / 2],
            maxMilliseconds: times.last!)
    }

    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
