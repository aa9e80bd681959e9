import Cycler
import Foundation
@_spi(Tooling) import Rewind

// Usage: journal-crash-recorder FILE
// Commits to a Cycler view model as fast as it can, syncing the journal every 500 commits and
// printing "synced N" after each sync: every event up to sequence N is then on disk. The parent test
// kills this process with SIGKILL at a random moment and checks the file.

final class Counter: CyclerType, Sendable {
    struct State: Codable { var count = 0; var step = 1; var label = "crash" }
    let state: Storage<State> = .init(.init())
}

let path = CommandLine.arguments[1]
var configuration = JournalConfiguration()
configuration.blockSize = 4 * 1024
let journal = try JournalLogger(path: path, configuration: configuration)
let counter = Counter()
counter.set(logger: journal)
var round = 0
while true {
    round += 1
    counter.commit("tick") { $0.update($0.value.count + 1, \.count) }
    if round % 500 == 0 {
        try journal.sync()
        let line = Array("synced \(round)\n".utf8)
        _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}
