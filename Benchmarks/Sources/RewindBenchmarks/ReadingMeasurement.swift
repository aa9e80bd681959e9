import Foundation
@_spi(Fuzzing) @_spi(Tooling) import Rewind
import RewindViewer

/// Reading through a journal: `rewind verify`, `log`, `export` (JSON Lines and Perfetto), `blame`, `query`, `log --grep` and
/// the viewer's `/`, on a 3,000,000-event counter journal and a 300,000-event todo journal recorded
/// by the benchmark, beside the floor: inflating every block, nothing decoded. The commands run as a user runs them — the release `rewind` binary, output to
/// /dev/null — each the median of several runs, with its peak memory.
enum ReadingMeasurement {
    struct Result: Codable {
        var journal: String
        var events: Int
        var operation: String
        var seconds: Double
        var eventsPerSecond: Double
        var peakResidentMegabytes: Double
        /// For an export to a file: its size per event.
        var bytesPerEvent: Double?
        /// The seconds as a multiple of the same journal's floor, measured in the same run
        /// (issue 45's targets are stated this way: they hold on a machine of any speed).
        var timesFloor: Double?
    }

    /// What `--reading` writes as JSON.
    struct Report: Codable {
        var results: [Result]
        var machine: String
    }

    /// One journal's reads. `literal` is what `log --grep` and the viewer look for.
    struct Journal {
        var name: String
        var path: String
        var blamePath: String
        var literal: String
    }

    /// Runs every operation, or with `operations` only those named: `verify`, `log`, `blame`,
    /// `log --grep` (both searches), `viewer /`, … (the floor is always measured, and the 30 M-event
    /// journal only for `query --first`).
    static func run(rewind: String, scratch: String, repeats: Int, operations: Set<String>? = nil) throws -> [Result] {
        func wanted(_ operation: String) -> Bool {
            guard let operations else { return true }
            return operations.contains { name in
                operation == name || operation.hasPrefix(name + " (") || (name == "blame" && operation.hasPrefix("blame "))
            }
        }
        var results: [Result] = []
        for (workload, blamePath) in [(Workload.counter, "count"), (.todo, "items[7].done")] {
            let path = "\(scratch)/\(workload.rawValue)-reading.rewind"
            FileHandle.standardError.write(Data("recording the \(workload.rawValue) journal…\n".utf8))
            try runChild(["--run", "\(workload.rawValue):journal", "--file", path])
            let reader = try JournalReader(path: path)
            // A number that occurs once, near the end (the counter's 30th value from the end); the
            // todo journal's values are Booleans, so its search is for text that occurs nowhere.
            let literal = workload == .counter ? String(workload.commits - 10) : "nowhere 12345"
            let journal = Journal(name: workload.rawValue, path: path, blamePath: blamePath, literal: literal)
            let events = reader.eventCount
            results.append(try inflateFloor(journal: journal.name, path: path, events: events, repeats: repeats))
            // A condition first true near the end (counter), or one that holds at a few steps (todo).
            let condition = workload == .counter ? "count == \(workload.commits - 1000)" : "changed(items[7].done)"
            let commands: [(String, [String])] = [
                ("verify", ["verify", path]),
                ("query --first", ["query", path, condition, "--first"]),
                ("query --count", ["query", path, condition, "--count"]),
                ("log", ["log", path]),
                ("export jsonl", ["export", path, "--format", "jsonl"]),
                ("export perfetto", ["export", path, "--format", "perfetto"]),
                ("blame \(blamePath)", ["blame", path, blamePath]),
                ("log --grep (no filters yet)", ["log", path, "--grep", literal]),
                ("log --grep (filters made)", ["log", path, "--grep", literal]),
            ]
            for (name, arguments) in commands where wanted(name) {
                var runs: [(seconds: Double, megabytes: Double)] = []
                for _ in 0..<repeats {
                    if name.contains("no filters") { unlink(path + ".search") }
                    runs.append(try timeCommand(rewind, arguments))
                }
                let median = runs.sorted { $0.seconds < $1.seconds }[runs.count / 2]
                results.append(Result(journal: journal.name, events: events, operation: name, seconds: median.seconds,
                                      eventsPerSecond: Double(events) / median.seconds, peakResidentMegabytes: median.megabytes))
                FileHandle.standardError.write(Data("  \(journal.name) \(name): \(String(format: "%.2f", median.seconds)) s\n".utf8))
            }
            // Each export's size, written once to a file.
            for (format, operation) in [("jsonl", "export jsonl"), ("perfetto", "export perfetto")] where wanted(operation) {
                let exported = path + "." + format
                _ = try timeCommand(rewind, ["export", path, "--format", format, "-o", exported])
                if let size = (try? FileManager.default.attributesOfItem(atPath: exported))?[.size] as? Int,
                   let index = results.lastIndex(where: { $0.journal == journal.name && $0.operation == operation }) {
                    results[index].bytesPerEvent = Double(size) / Double(events)
                    FileHandle.standardError.write(Data("  \(journal.name) \(operation): \(String(format: "%.1f", Double(size) / Double(events))) bytes/event\n".utf8))
                }
                unlink(exported)
            }
            unlink(path + ".search")
            if wanted("viewer /") {
                let data = try runChild(["--run-viewer-search", path, literal])
                for (name, seconds) in try JSONDecoder().decode([String: Double].self, from: data).sorted(by: { $0.key < $1.key }) {
                    let result = Result(
                        journal: journal.name, events: events, operation: name, seconds: seconds,
                        eventsPerSecond: Double(events) / seconds, peakResidentMegabytes: 0
                    )
                    results.append(result)
                }
            }
        }
        if wanted("query --first") { results += try tenTimesLarger(rewind: rewind, scratch: scratch) }
        return withFloorRatios(results)
    }

    /// Each result given its seconds as a multiple of the floor measured for its journal (the
    /// same name and number of events) in this run.
    static func withFloorRatios(_ results: [Result]) -> [Result] {
        let floors = results.filter { $0.operation == floorOperation }
        return results.map { result in
            var result = result
            if result.operation != floorOperation,
               let floor = floors.first(where: { $0.journal == result.journal && $0.events == result.events }), floor.seconds > 0 {
                result.timesFloor = result.seconds / floor.seconds
            }
            return result
        }
    }

    static let floorOperation = "inflate every block (floor)"

    /// A 30,000,000-event counter journal: the floor, and `query --first` for a condition first
    /// true near its end (once each: a run takes tens of seconds).
    static func tenTimesLarger(rewind: String, scratch: String) throws -> [Result] {
        let path = "\(scratch)/counter-30m-reading.rewind"
        let commits = 10_000_000
        FileHandle.standardError.write(Data("recording the 30 M-event counter journal…\n".utf8))
        try runChild(["--run", "counter:journal", "--file", path], environment: ["REWIND_BENCH_COMMITS": String(commits)])
        let events = try JournalReader(path: path).eventCount
        var results = [try inflateFloor(journal: "counter", path: path, events: events, repeats: 1)]
        let seconds = try timeCommand(rewind, ["query", path, "count == \(commits - 1000)", "--first"])
        results.append(Result(journal: "counter", events: events, operation: "query --first", seconds: seconds.seconds,
                              eventsPerSecond: Double(events) / seconds.seconds, peakResidentMegabytes: seconds.megabytes))
        FileHandle.standardError.write(Data("  30 M query --first: \(String(format: "%.2f", seconds.seconds)) s\n".utf8))
        unlink(path)
        return results
    }

    /// Reading and inflating every block, decoding nothing: the floor every read of the whole
    /// journal stands on. In a child process (`--run-inflate`), so that the payloads it holds do
    /// not count in the peak memory of the commands spawned after it.
    static func inflateFloor(journal: String, path: String, events: Int, repeats: Int) throws -> Result {
        var times: [Double] = []
        for _ in 0..<repeats {
            times.append(try JSONDecoder().decode(Double.self, from: try runChild(["--run-inflate", path])))
        }
        let median = times.sorted()[times.count / 2]
        FileHandle.standardError.write(Data("  \(journal) inflate every block (floor): \(String(format: "%.3f", median)) s\n".utf8))
        return Result(journal: journal, events: events, operation: floorOperation, seconds: median,
                      eventsPerSecond: Double(events) / median, peakResidentMegabytes: 0)
    }

    /// The child's side of ``inflateFloor(journal:path:events:repeats:)``: the seconds it took.
    static func inflateEveryBlock(path: String) throws -> Double {
        let start = EventTime.monotonicNow()
        let payloads = try JournalFuzzing.payloads(ofJournalAt: path)
        precondition(!payloads.isEmpty)
        return Double(EventTime.monotonicNow() - start) / 1e9
    }

    /// The viewer's `/literal` from the first step, in this process: once without filters (the
    /// search reads and filters blocks as it goes), once more with the filters it made.
    static func viewerSearch(path: String, literal: String) throws -> [String: Double] {
        let timeline = Timeline(reader: try JournalReader(path: path))
        let program = ViewerProgram(timeline: timeline, model: ViewerModel(width: 200, height: 60, colors: true, title: path))
        _ = program.frame()
        func search() -> Double {
            program.press(.character("g"), background: false)
            let start = EventTime.monotonicNow()
            for key in [Key.character("/")] + literal.map({ Key.character($0) }) + [.enter] { program.press(key, background: false) }
            _ = program.frame()
            return Double(EventTime.monotonicNow() - start) / 1e9
        }
        return ["viewer / (no filters yet)": search(), "viewer / (filters made)": search()]
    }

    /// Runs `rewind` with output to /dev/null; its wall time and peak memory. Spawned and reaped
    /// here (not with `Process`, whose own reaper can take the child's resource usage first).
    static func timeCommand(_ rewind: String, _ arguments: [String]) throws -> (seconds: Double, megabytes: Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        var argv = ([rewind] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = EventTime.monotonicNow()
        var child: pid_t = 0
        guard posix_spawn(&child, rewind, &actions, nil, &argv, environ) == 0 else {
            throw CocoaError(.executableNotLoadable)
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child, &status, 0, &usage) == -1 && errno == EINTR {}
        return (Double(EventTime.monotonicNow() - start) / 1e9, Double(usage.ru_maxrss) / 1024)
    }

    /// Runs this benchmark's binary with `arguments`: what it wrote to standard output (its
    /// standard error to /dev/null when `quiet`).
    @discardableResult
    static func runChild(_ arguments: [String], environment: [String: String] = [:], quiet: Bool = false) throws -> Data {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = arguments
        child.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        child.standardOutput = pipe
        if quiet { child.standardError = FileHandle.nullDevice }
        try child.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return data
    }

    static func table(_ results: [Result]) -> String {
        var lines = ["journal   events      operation                      seconds  × floor     events/s   peak RSS MB  bytes/event"]
        for result in results {
            let columns = [
                result.journal.padding(toLength: 9, withPad: " ", startingAt: 0),
                String(result.events).padding(toLength: 11, withPad: " ", startingAt: 0),
                result.operation.padding(toLength: 30, withPad: " ", startingAt: 0),
                String(format: "%7.2f", result.seconds),
                result.timesFloor.map { String(format: "%7.1f×", $0) } ?? "       —",
                String(format: "%12.0f", result.eventsPerSecond),
                result.peakResidentMegabytes > 0 ? String(format: "%13.0f", result.peakResidentMegabytes) : "            —",
                result.bytesPerEvent.map { String(format: "%12.1f", $0) } ?? "",
            ]
            lines.append(columns.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }
}
