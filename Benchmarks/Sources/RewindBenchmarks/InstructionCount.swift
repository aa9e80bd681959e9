import Foundation

/// Instructions and heap allocations per event, on the app's thread and on the logger's own
/// threads (the journal's writer), counted by callgrind: figures that hold on a noisy machine,
/// where times wander (this VM has no hardware counters for `perf stat`).
///
/// Each workload runs under callgrind twice, with `commits` and with twice as many; the difference
/// is what `commits` more commits cost, without the process's start-up and the view model's set-up.
/// The app's own cost is then taken away by the same count for the `none` contender.
enum InstructionCount {
    struct Result: Codable {
        var workload: String
        var contender: String
        /// Instructions per event on the committing thread (the app's own work included).
        var callerInstructionsPerEvent: Double
        /// Heap allocations per commit on the committing thread.
        var callerAllocationsPerCommit: Double
        /// Instructions per event on every other thread: the writer, the compressor.
        var writerInstructionsPerEvent: Double
        /// Heap allocations per commit on every other thread.
        var writerAllocationsPerCommit: Double
    }

    /// What one callgrind run counted, per thread group.
    struct Counts {
        var callerInstructions = 0.0
        var callerAllocations = 0.0
        var otherInstructions = 0.0
        var otherAllocations = 0.0
    }

    /// Commits per callgrind run: enough that set-up is small beside them, few enough that
    /// callgrind (about fifty times slower than the machine) finishes in seconds.
    static func commits(for workload: Workload) -> Int {
        switch workload {
        case .counter, .ricemill: 20_000
        case .flask: 5_000
        case .todo: 4_000
        case .wideToggle: 1_000
        case .wide, .closureToggle, .flaskBoard: 300
        }
    }

    /// Whether callgrind is installed (`apt-get install valgrind`).
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")
    }

    static func run(workload: Workload, contender: Contender, scratch: String) throws -> Result {
        let commits = commits(for: workload)
        let small = try count(workload: workload, contender: contender, commits: commits, scratch: scratch)
        let large = try count(workload: workload, contender: contender, commits: 2 * commits, scratch: scratch)
        let events = Double(commits * Workload.eventsPerCommit)
        return Result(
            workload: workload.rawValue, contender: contender.rawValue,
            callerInstructionsPerEvent: (large.callerInstructions - small.callerInstructions) / events,
            callerAllocationsPerCommit: (large.callerAllocations - small.callerAllocations) / Double(commits),
            writerInstructionsPerEvent: (large.otherInstructions - small.otherInstructions) / events,
            writerAllocationsPerCommit: (large.otherAllocations - small.otherAllocations) / Double(commits)
        )
    }

    private static func count(workload: Workload, contender: Contender, commits: Int, scratch: String) throws -> Counts {
        try count(
            name: "\(workload.rawValue)-\(contender.rawValue)-\(commits)",
            arguments: [
                "--run", "\(workload.rawValue):\(contender.rawValue)", "--file", "\(scratch)/\(workload.rawValue)-\(contender.rawValue)-callgrind.rewind"
            ],
            environment: ["REWIND_BENCH_COMMITS": String(commits)], scratch: scratch
        )
    }

    /// Runs this benchmark's binary with `arguments` under callgrind: what its main thread (the
    /// app's) and its other threads counted.
    static func count(name: String, arguments: [String], environment: [String: String], scratch: String) throws -> Counts {
        let prefix = "\(scratch)/callgrind-\(name)"
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let valgrind = ["valgrind", "--tool=callgrind", "--separate-threads=yes", "--callgrind-out-file=\(prefix).%p", CommandLine.arguments[0]]
        child.arguments = valgrind + arguments
        child.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { throw Failure(description: "callgrind failed on \(name)") }
        // One file per thread: `PREFIX.PID-01` is the main thread, the one that commits.
        let directory = URL(fileURLWithPath: prefix).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: prefix).lastPathComponent + ".\(child.processIdentifier)-"
        try? FileManager.default.removeItem(atPath: "\(prefix).\(child.processIdentifier)")
        var counts = Counts()
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasPrefix(name) {
            let path = "\(directory)/\(file)"
            let (instructions, allocations) = try totals(of: path)
            try? FileManager.default.removeItem(atPath: path)
            if file.hasSuffix("-01") {
                counts.callerInstructions += instructions
                counts.callerAllocations += allocations
            } else {
                counts.otherInstructions += instructions
                counts.otherAllocations += allocations
            }
        }
        return counts
    }

    /// A callgrind file's instruction total and its number of calls to the allocator.
    private static func totals(of path: String) throws -> (instructions: Double, allocations: Double) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // Function names are compressed: `cfn=(12) malloc` the first time, `cfn=(12)` after.
        var names: [Substring: Substring] = [:]
        var calledIsAllocator = false
        var instructions = 0.0
        var allocations = 0.0
        for line in text.split(separator: "\n") {
            if line.hasPrefix("summary:") || line.hasPrefix("totals:") {
                instructions = Double(line.split(separator: " ").last ?? "0") ?? 0
            } else if line.hasPrefix("fn=") || line.hasPrefix("cfn=") {
                let body = line.drop { $0 != "=" }.dropFirst()
                guard body.hasPrefix("("), let close = body.firstIndex(of: ")") else { continue }
                let id = body[body.index(after: body.startIndex)..<close]
                let rest = body[body.index(after: close)...].drop { $0 == " " }
                if !rest.isEmpty { names[id] = rest }
                if line.hasPrefix("cfn=") { calledIsAllocator = allocatorNames.contains(names[id] ?? "") }
            } else if line.hasPrefix("calls="), calledIsAllocator {
                allocations += Double(line.dropFirst(6).split(separator: " ").first ?? "0") ?? 0
            }
        }
        return (instructions, allocations)
    }

    private static let allocatorNames: Set<Substring> = ["malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func table(_ results: [Result]) -> String {
        var lines = ["workload        contender   caller instr/event   overhead instr/event   alloc overhead/commit   writer instr/event   writer allocs/commit"]
        for result in results {
            let baseline = results.first { $0.workload == result.workload && $0.contender == "none" }
            lines.append([
                result.workload.padding(toLength: 15, withPad: " ", startingAt: 0),
                result.contender.padding(toLength: 10, withPad: " ", startingAt: 0),
                String(format: "%19.0f", result.callerInstructionsPerEvent),
                String(format: "%22.0f", result.callerInstructionsPerEvent - (baseline?.callerInstructionsPerEvent ?? 0)),
                String(format: "%21.2f", result.callerAllocationsPerCommit - (baseline?.callerAllocationsPerCommit ?? 0)),
                String(format: "%20.0f", result.writerInstructionsPerEvent),
                String(format: "%22.2f", result.writerAllocationsPerCommit),
            ].joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }
}
