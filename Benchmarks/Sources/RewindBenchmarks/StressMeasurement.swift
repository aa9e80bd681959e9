import Cycler
import Foundation
@_spi(Tooling) import Rewind

/// Eight producer threads commit at once into one journal, a million events each; the journal is
/// then read back and every sequence number accounted for: recorded once, or counted as dropped
/// (drop mode only). `--stress` runs it waiting and dropping.
enum StressMeasurement {
    struct Result: Codable {
        var overflow: String
        var threads: Int
        var eventsLogged: Int
        var eventsRecorded: Int
        var duplicates: Int
        /// Events the journal says it dropped (its statistics).
        var eventsDropped: Int
        /// Events the journal's dropped-events records cover.
        var eventsInDropRecords: Int
        /// Sequence numbers neither recorded nor counted as dropped.
        var unaccounted: Int
        var seconds: Double
        var passes: Bool { duplicates == 0 && unaccounted == 0 && eventsDropped == eventsInDropRecords && (overflow == "drop" || eventsDropped == 0) }
    }

    static let threads = 8
    /// Commits per thread: three events each, a million events a thread.
    static let commitsPerThread = 333_333

    static func run(overflow: JournalConfiguration.Overflow, path: String) throws -> Result {
        var configuration = JournalConfiguration()
        configuration.replaceExisting = true
        configuration.overflow = overflow
        let journal = try JournalLogger(path: path, configuration: configuration)
        let first = EventSequence.next() + 1
        let start = EventTime.monotonicNow()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let model = CounterModel()
            model.set(logger: journal)
            for _ in 0..<commitsPerThread { model.commit("increment") { $0.update($0.value.count + 1, \.count) } }
        }
        journal.close()
        let seconds = Double(EventTime.monotonicNow() - start) / 1e9
        let last = EventSequence.next() - 1
        let dropped = Int(journal.statistics.eventsDropped)
        var seen = [Bool](repeating: false, count: Int(last - first + 1))
        var recorded = 0, duplicates = 0, inDropRecords = 0
        for event in try JournalReader(path: path).events(matching: EventFilter()) {
            if let range = event.dropped {
                inDropRecords += Int(range.count)
                continue
            }
            recorded += 1
            let slot = Int(event.sequence - first)
            if seen[slot] { duplicates += 1 }
            seen[slot] = true
        }
        let logged = seen.count
        return Result(
            overflow: overflow == .wait ? "wait" : "drop", threads: threads, eventsLogged: logged, eventsRecorded: recorded,
            duplicates: duplicates, eventsDropped: dropped, eventsInDropRecords: inDropRecords,
            unaccounted: logged - (recorded - duplicates) - dropped, seconds: seconds
        )
    }

    static func line(_ result: Result) -> String {
        String(format: "stress, %@ mode: %d threads logged %d events in %.1f s; recorded %d, dropped %d (drop records say %d), duplicated %d, unaccounted %d — %@",
               result.overflow, result.threads, result.eventsLogged, result.seconds, result.eventsRecorded, result.eventsDropped,
               result.eventsInDropRecords, result.duplicates, result.unaccounted, result.passes ? "pass" : "FAIL")
    }
}
