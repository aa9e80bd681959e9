import Cycler
import Foundation
@_spi(Tooling) import Rewind

// Usage: journal-crash-recorder FILE
//        journal-crash-recorder --ring FILE
// Commits to a Cycler view model as fast as it can, syncing the journal (or, with --ring, a flight
// recorder's 128 KiB ring) every 500 commits and printing "synced N" after each sync: every event up
// to sequence N is then on disk. The parent test kills this process with SIGKILL at a random moment
// and checks the file.

final class Counter: CyclerType, Sendable {
    struct State: Codable { var count = 0; var step = 1; var label = "crash" }
    let state: Storage<State> = .init(.init())
}

let ring = CommandLine.arguments.count > 2 && CommandLine.arguments[1] == "--ring"
let path = CommandLine.arguments[ring ? 2 : 1]
var configuration = JournalConfiguration()
configuration.blockSize = 4 * 1024
let logger: any CycleLogging
let sync: () throws -> Void
if ring {
    var recorderConfiguration = FlightRecorder.Configuration()
    recorderConfiguration.maximumBytes = 128 << 10
    recorderConfiguration.journal = configuration
    let recorder = try FlightRecorder(path: path, configuration: recorderConfiguration)
    (logger, sync) = (recorder, recorder.sync)
} else {
    let journal = try JournalLogger(path: path, configuration: configuration)
    (logger, sync) = (journal, journal.sync)
}
let counter = Counter()
counter.set(logger: logger)
var round = 0
while true {
    round += 1
    counter.commit("tick") { $0.update($0.value.count + 1, \.count) }
    if round % 500 == 0 {
        try sync()
        let line = Array("synced \(round)\n".utf8)
        _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}
