import Foundation
@_spi(Tooling) import Rewind

// Usage:
//   rewind-benchmarks [--output FILE] [--workload counter|todo|wide|wide-toggle|closure-toggle|ricemill|flask|flask-board[,…]]
//                     [--contender NAME[,…]] [--repeat N] [--keep DIR] [--replay-only] [--no-instructions]
//   rewind-benchmarks --stress [--output FILE]
//   rewind-benchmarks --flight-recorder [--seconds N] [--output FILE]   (todo at 10,000 events/s: CPU and memory; dumps of a full ring)
//     eight threads × a million events into one journal, waiting and dropping, every event accounted for.
//   rewind-benchmarks --instruction-check Benchmarks/instruction-thresholds.json
//     CI's check: callgrind's instructions per event (counter, todo) against the committed thresholds.
//   rewind-benchmarks --logs [--rewind PATH] [--repeat N] [--no-instructions] [--output FILE]
//     a log message's cost on the app's thread (RecordingLogHandler beside StreamLogHandler and a
//     no-op handler, with and without metadata: ns, instructions, allocations), and a
//     1,000,000-message journal read for its one error (log --level error, query --first) beside the floor.
//   rewind-benchmarks --shrink [--output FILE]   (Replay.shrink on a 10,000-input session)
//   rewind-benchmarks --reading [--rewind PATH] [--repeat N] [--operations verify,log,…] [--output FILE]
//     reads through a 3 M-event counter journal and a 300 k-event todo journal with the release
//     `rewind` (default: the repository's .build/release/rewind): verify, log, export, blame, log --grep, viewer /,
//     each beside the floor (every block inflated) and as a multiple of it; `--operations` runs only those named.
// Runs every contender on every workload, each in a child process of its own (so that peak memory
// is the contender's own), then reads the state at 1,000 random steps of the counter journal, runs
// the viewer on it, and replays a recorded counter session (`--replay-only`: just the replay).
// Unless `--no-instructions`, each workload also runs under callgrind with no logger and with the
// journal (and the flight recorder's ring, when `ring` is a contender), for instructions and
// allocations per event on the app's thread and the writer's.
// Prints a table and writes the figures as JSON (default: benchmark-results.json).

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}

/// The `rewind` the reading benchmarks run: `--rewind PATH`, or by default the repository's own
/// release build (this file is Benchmarks/Sources/RewindBenchmarks/main.swift); exits when absent.
func releaseRewind() -> String {
    let rewind = option("--rewind") ?? URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/release/rewind").path
    guard FileManager.default.isExecutableFile(atPath: rewind) else {
        FileHandle.standardError.write(Data("no rewind at \(rewind): build it with 'swift build -c release --product rewind', or pass --rewind PATH\n".utf8))
        exit(2)
    }
    return rewind
}

if let path = option("--run-viewer") {
    // Child mode: the viewer on a journal, alone in its process so its peak memory is its own.
    FileHandle.standardOutput.write(try JSONEncoder().encode(try ViewerMeasurement.run(path: path)))
    exit(0)
}

if let path = option("--run-inflate") {
    // Child mode: every block of a journal read and inflated, nothing decoded.
    FileHandle.standardOutput.write(try JSONEncoder().encode(try ReadingMeasurement.inflateEveryBlock(path: path)))
    exit(0)
}

if let path = option("--run-viewer-search") {
    // Child mode: the viewer's search on a journal.
    let literal = arguments[arguments.firstIndex(of: "--run-viewer-search")! + 2]
    FileHandle.standardOutput.write(try JSONEncoder().encode(try ReadingMeasurement.viewerSearch(path: path, literal: literal)))
    exit(0)
}

if let mode = option("--run-log") {
    // Child mode: messages logged with one handler, with or without metadata.
    let parts = mode.split(separator: ":").map(String.init)
    let nanoseconds = try LogMeasurement.logMessages(
        handler: LogMeasurement.Handler(rawValue: parts[0])!, metadata: parts[1] == "metadata",
        count: option("--messages").flatMap(Int.init) ?? LogMeasurement.timedMessages, file: option("--file")!)
    FileHandle.standardOutput.write(try JSONEncoder().encode(nanoseconds))
    exit(0)
}

if let path = option("--record-log-session") {
    // Child mode: a million messages, one of them an error.
    try LogMeasurement.recordSession(file: path)
    exit(0)
}

if arguments.contains("--logs") {
    // The app's own messages: their cost on its thread beside StreamLogHandler's, and reading a
    // million of them for a rare error.
    let rewind = releaseRewind()
    let scratch = NSTemporaryDirectory() + "rewind-logs-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let repeats = option("--repeat").flatMap(Int.init) ?? 3
    let callers = try LogMeasurement.callers(scratch: scratch, repeats: repeats, instructions: !arguments.contains("--no-instructions"))
    print(LogMeasurement.table(callers))
    let reading = try LogMeasurement.reading(rewind: rewind, scratch: scratch, repeats: repeats)
    print()
    print(ReadingMeasurement.table(reading))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let output = option("--output") ?? "log-results.json"
    let report = LogMeasurement.Report(callers: callers, reading: reading, machine: Measurement.machineDescription())
    try encoder.encode(report).write(to: URL(fileURLWithPath: output))
    print("\nwritten to \(output)")
    exit(0)
}

if arguments.contains("--reading") {
    let rewind = releaseRewind()
    let scratch = NSTemporaryDirectory() + "rewind-reading-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let operations = option("--operations").map { Set($0.split(separator: ",").map(String.init)) }
    let results = try ReadingMeasurement.run(rewind: rewind, scratch: scratch, repeats: option("--repeat").flatMap(Int.init) ?? 3, operations: operations)
    print(ReadingMeasurement.table(results))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let output = option("--output") ?? "reading-results.json"
    try encoder.encode(ReadingMeasurement.Report(results: results, machine: Measurement.machineDescription()))
        .write(to: URL(fileURLWithPath: output))
    print("\nwritten to \(output)")
    exit(0)
}

if arguments.contains("--shrink") {
    // Shrinking a 10,000-input session with one planted bad input, in this process.
    let scratch = NSTemporaryDirectory() + "rewind-shrink-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let results = try ShrinkMeasurement.run(directory: scratch)
    results.map(ShrinkMeasurement.line).forEach { print($0) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(ShrinkMeasurement.Report(results: results, machine: Measurement.machineDescription()))
        .write(to: URL(fileURLWithPath: option("--output") ?? "shrink-results.json"))
    exit(results.allSatisfy(\.targetMet) ? 0 : 1)
}

if arguments.contains("--stress") {
    // Eight producer threads × a million events, waiting then dropping; every event accounted for.
    let scratch = NSTemporaryDirectory() + "rewind-stress-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    var results: [StressMeasurement.Result] = []
    for overflow in [JournalConfiguration.Overflow.wait, .drop] {
        let result = try StressMeasurement.run(overflow: overflow, path: "\(scratch)/stress.rewind")
        print(StressMeasurement.line(result))
        results.append(result)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(results).write(to: URL(fileURLWithPath: option("--output") ?? "stress-results.json"))
    exit(results.allSatisfy(\.passes) ? 0 : 1)
}

if let thresholds = option("--instruction-check") {
    // CI's check: instructions per event against the committed thresholds (see InstructionCheck).
    guard InstructionCount.isAvailable else {
        FileHandle.standardError.write(Data("--instruction-check needs callgrind: apt-get install valgrind\n".utf8))
        exit(2)
    }
    let scratch = NSTemporaryDirectory() + "rewind-instructions-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let verdicts = try InstructionCheck.run(thresholdsPath: thresholds, scratch: scratch)
    print(InstructionCheck.table(verdicts))
    let over = verdicts.filter { !$0.passes }
    if !over.isEmpty {
        print("\n\(over.count) figure(s) above their threshold (\(thresholds)): recording got more expensive")
        exit(1)
    }
    exit(0)
}

if let contender = option("--run-paced") {
    // Child mode: the todo workload paced, with no logger or the flight recorder.
    let result = try FlightRecorderMeasurement.paced(
        contender: Contender(rawValue: contender)!, seconds: option("--seconds").flatMap(Double.init) ?? 60, eventsPerSecond: 10_000, file: option("--file")!)
    FileHandle.standardOutput.write(try JSONEncoder().encode(result))
    exit(0)
}

if arguments.contains("--flight-recorder") {
    let scratch = NSTemporaryDirectory() + "rewind-flight-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    // Each paced run in a process of its own, so that its peak memory is its own.
    func paced(_ contender: Contender) throws -> FlightRecorderMeasurement.Paced {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--run-paced", contender.rawValue, "--seconds", option("--seconds") ?? "60", "--file", "\(scratch)/paced.rewind-ring"]
        let pipe = Pipe()
        child.standardOutput = pipe
        try child.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return try JSONDecoder().decode(FlightRecorderMeasurement.Paced.self, from: data)
    }
    let result = FlightRecorderMeasurement.Result(
        eventsPerSecond: 10_000, none: try paced(.none), ring: try paced(.ring), dumps: try FlightRecorderMeasurement.dumps(directory: scratch),
        machine: Measurement.machineDescription())
    print(result.table)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(result).write(to: URL(fileURLWithPath: option("--output") ?? "flight-recorder-results.json"))
    exit(0)
}

if let run = option("--run") {
    // Child mode: one workload with one contender.
    let parts = run.split(separator: ":").map(String.init)
    let result = try Measurement.run(workload: Workload(rawValue: parts[0])!, contender: Contender(rawValue: parts[1])!, file: option("--file")!)
    let data = try JSONEncoder().encode(result)
    FileHandle.standardOutput.write(data)
    exit(0)
}

let outputPath = option("--output") ?? "benchmark-results.json"
// This machine's timings wander from run to run; each figure is the median of several runs.
let repeats = option("--repeat").flatMap(Int.init) ?? 3
let replayOnly = arguments.contains("--replay-only")
let workloads = replayOnly ? [] : option("--workload").map { $0.split(separator: ",").map { Workload(rawValue: String($0))! } } ?? Workload.allCases
let contenders = option("--contender").map { $0.split(separator: ",").map { Contender(rawValue: String($0))! } } ?? Contender.allCases
let scratch = option("--keep") ?? NSTemporaryDirectory() + "rewind-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)

var results: [Measurement.Result] = []
for workload in workloads {
    for contender in contenders {
        let file = "\(scratch)/\(workload.rawValue)-\(contender.rawValue)" + ([.journal, .drop].contains(contender) ? ".rewind" : ".jsonl")
        var runs: [Measurement.Result] = []
        for run in 1...repeats {
            FileHandle.standardError.write(Data("running \(workload.rawValue) / \(contender.rawValue) (\(run) of \(repeats))…\n".utf8))
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["--run", "\(workload.rawValue):\(contender.rawValue)", "--file", file]
            let pipe = Pipe()
            child.standardOutput = pipe
            try child.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            child.waitUntilExit()
            runs.append(try JSONDecoder().decode(Measurement.Result.self, from: data))
        }
        results.append(Measurement.Result.median(of: runs))
    }
}

var instructions: [InstructionCount.Result] = []
if !arguments.contains("--no-instructions") && InstructionCount.isAvailable {
    for workload in workloads {
        // The flight recorder's ring is counted beside the journal when it was asked for.
        for contender in [Contender.none, .journal] + (contenders.contains(.ring) ? [.ring] : []) {
            FileHandle.standardError.write(Data("counting instructions: \(workload.rawValue) / \(contender.rawValue)…\n".utf8))
            instructions.append(try InstructionCount.run(workload: workload, contender: contender, scratch: scratch))
        }
    }
}

var reads: Measurement.ReadResult?
var viewer: ViewerMeasurement.Result?
// The reads and the viewer need the counter's journal: only when the journal contender ran.
if workloads.contains(.counter), FileManager.default.fileExists(atPath: "\(scratch)/counter-journal.rewind") {
    reads = try Measurement.randomStateReads(path: "\(scratch)/counter-journal.rewind", count: 1_000)
    FileHandle.standardError.write(Data("running the viewer on the counter journal…\n".utf8))
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--run-viewer", "\(scratch)/counter-journal.rewind"]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    child.waitUntilExit()
    viewer = try JSONDecoder().decode(ViewerMeasurement.Result.self, from: data)
}
FileHandle.standardError.write(Data("replaying a recorded counter session…\n".utf8))
let replayed = try ReplayMeasurement.run(directory: scratch)
let report = Measurement.Report(results: results, instructions: instructions, reads: reads, viewer: viewer, replay: replayed, machine: Measurement.machineDescription())
print(report.table())
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
try encoder.encode(report).write(to: URL(fileURLWithPath: outputPath))
print("\nwritten to \(outputPath)")
if option("--keep") == nil { try? FileManager.default.removeItem(atPath: scratch) }
