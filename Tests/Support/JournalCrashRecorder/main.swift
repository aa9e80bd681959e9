import Cycler
import Foundation
import Logging
@_spi(Tooling) import Rewind
import Synchronization

// Usage: journal-crash-recorder FILE
//        journal-crash-recorder --ring FILE [--crash-after N [--crash-with segv|abort|overflow]] [--condition TEXT]
//                               [--assert-at N] [--pause-at N] [--precondition-at N]
//                               [--own-usr2 --close-at N]
//        journal-crash-recorder FILE --log-failures --stop-at N
// Commits to a Cycler view model as fast as it can, syncing the journal (or, with --ring, a flight
// recorder's 128 KiB ring) every 500 commits and printing "synced N" after each sync: every event
// up to sequence N is then on disk. The parent test kills this process with SIGKILL at a random
// moment and checks the file. With --crash-after N, the process ends in a `fatalError` at its Nth
// commit (synced or not) — or, with --crash-with, by writing through a bad pointer (SIGSEGV), in
// `abort()` (SIGABRT), or by a recursion that overflows the main thread's stack (SIGSEGV). A flight recorder prints "dumped PATH" for each dump it makes: on SIGUSR2,
// when --condition's condition (over the state: `count`) becomes true, and with --assert-at N,
// when `dump(unless:)` finds the count at N. Its rate limit is off. With --pause-at N, it stops
// committing once N commits are synced until its first dump is made (at most a minute), so that a
// dump made on its own thread finds the step that triggered it still in the small ring. With
// --precondition-at N, the recorder's own `precondition` fails at commit N (not a sync's): the
// process records why, dumps and traps. With --own-usr2, the app installs a SIGUSR2 handler of its
// own before the recorder starts, and says "app saw usr2 K" after a sync once it has seen K; with
// --close-at N it closes the recorder once N commits are synced, says "closed", and goes on saying
// what its handler saw for ten seconds. With --log-failures, the app logs a message per commit
// through swift-log into the journal (RecordingLogHandler), and logs each failure it is told of
// (onFailure, on the writer's thread) the same way, with a small queue that waits when full: run
// under `ulimit -f` the disk fills, and the app must go on to --stop-at's commit, close, and say
// "finished N".

final class Counter: CyclerType, Sendable {
    struct State: Codable { var count = 0; var step = 1; var label = "crash" }
    let state: Storage<State> = .init(.init())
}

/// Recurses until the stack runs out: each call keeps a frame (its result is used after the call).
func deeper(_ depth: Int) -> Int {
    var frame = (depth, depth &+ 1, depth &+ 2, depth &+ 3)
    return withUnsafeMutablePointer(to: &frame) { deeper($0.pointee.1) &+ $0.pointee.0 }
}

func say(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

var arguments = Array(CommandLine.arguments.dropFirst())
let ring = arguments.first == "--ring"
if ring { arguments.removeFirst() }
let path = arguments[0]
/// The value after `option` in the arguments, if it is there.
@MainActor func option(_ option: String) -> String? {
    arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let crashAfter = option("--crash-after").flatMap { Int($0) }
let assertAt = option("--assert-at").flatMap { Int($0) }
let pauseAt = option("--pause-at").flatMap { Int($0) }
let preconditionAt = option("--precondition-at").flatMap { Int($0) }
let closeAt = option("--close-at").flatMap { Int($0) }
/// SIGUSR2s the app's own handler saw.
enum AppSignals {
    static let seen = Atomic<Int>(0)
}
if arguments.contains("--own-usr2") {
    // Made before the handler can run: a static's first use is not async-signal-safe.
    _ = AppSignals.seen.load(ordering: .relaxed)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in AppSignals.seen.add(1, ordering: .relaxed) }
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(SIGUSR2, &action, nil)
}
var appSignalsSaid = 0
/// Says how many SIGUSR2s the app's handler saw, when that changed.
@MainActor func sayAppSignals() {
    let seen = AppSignals.seen.load(ordering: .relaxed)
    if seen != appSignalsSaid {
        appSignalsSaid = seen
        say("app saw usr2 \(seen)")
    }
}
let crashWith = option("--crash-with")
let logsFailures = arguments.contains("--log-failures")
let stopAt = option("--stop-at").flatMap { Int($0) }
/// The app's swift-log logger, recording into the journal, once the journal is made.
enum AppLog {
    static let logger = Mutex<Logger?>(nil)
}
let firstDump = DispatchSemaphore(value: 0)
var configuration = JournalConfiguration()
configuration.blockSize = 4 * 1024
let logger: any CycleLogging
let sync: () throws -> Void
var assertion: (Int) throws -> Void = { _ in }
var closeRecorder: () -> Void = {}
if ring {
    var recorderConfiguration = FlightRecorder.Configuration()
    recorderConfiguration.maximumBytes = 128 << 10
    recorderConfiguration.journal = configuration
    recorderConfiguration.onDump = {
        say("dumped \($0)")
        firstDump.signal()
    }
    recorderConfiguration.rateLimit = .unlimited
    recorderConfiguration.conditions = try option("--condition").map { [try Condition(parsing: $0)] } ?? []
    let recorder = try FlightRecorder(path: path, configuration: recorderConfiguration)
    (logger, sync) = (recorder, recorder.sync)
    closeRecorder = recorder.close
    assertion = { round in _ = try recorder.dump(unless: round != assertAt, "the count reached \(round)") }
    if let preconditionAt {
        assertion = { round in recorder.precondition(round != preconditionAt, "the count reached \(round)") }
    }
} else {
    if logsFailures {
        configuration.queueCapacity = 256
        configuration.overflow = .wait
        configuration.onFailure = { error in
            say("failed: \(error)")
            AppLog.logger.withLock { $0 }?.error("recording failed: \(error)")
        }
    }
    let journal = try JournalLogger(path: path, configuration: configuration)
    (logger, sync) = (journal, journal.sync)
    closeRecorder = journal.close
    if logsFailures {
        AppLog.logger.withLock { $0 = Logger(label: "app") { RecordingLogHandler(label: $0, recordingTo: journal) } }
    }
}
let counter = Counter()
counter.set(logger: logger)
var round = 0
while true {
    round += 1
    counter.commit("tick") { $0.update($0.value.count + 1, \.count) }
    if assertAt != nil || preconditionAt != nil { try assertion(round) }
    if logsFailures {
        AppLog.logger.withLock { $0 }?.info("tick \(round)")
        if round == stopAt {
            closeRecorder()
            say("finished \(round)")
            exit(0)
        }
        continue
    }
    if round % 500 == 0 {
        try sync()
        say("synced \(round)")
        sayAppSignals()
        if round == closeAt {
            closeRecorder()
            say("closed")
            for _ in 0..<1_000 {
                sayAppSignals()
                usleep(10_000)
            }
            exit(0)
        }
        if round == pauseAt { _ = firstDump.wait(timeout: .now() + .seconds(60)) }
    }
    if let crashAfter, round >= crashAfter {
        switch crashWith {
        case "segv": UnsafeMutablePointer<Int>(bitPattern: 16)!.pointee = round
        case "abort": abort()
        case "overflow": print(deeper(round))
        default: fatalError("crash after \(round) commits")
        }
    }
}
