import Synchronization

/// Writes a flight recorder's dumps of its ring: for the triggers that write on their caller's
/// thread, and for the dump thread (``DumpQueue``). An object of its own, which the dump thread
/// holds rather than the recorder: a dump waiting for its tail when the recorder is released
/// without ``FlightRecorder/close()`` is still written.
final class DumpWriter: Sendable {
    private let ring: String
    private let configuration: FlightRecorder.Configuration
    private let journal: JournalLogger
    private let catalog: RingCatalog
    /// Dumps made so far: numbers the dumps of one process, so that two never share a name.
    private let dumpsMade = Atomic<Int>(0)

    init(ring: String, configuration: FlightRecorder.Configuration, journal: JournalLogger, catalog: RingCatalog) {
        self.ring = ring
        self.configuration = configuration
        self.journal = journal
        self.catalog = catalog
    }

    /// Writes a dump of the ring's window now, with every event logged before the call.
    func write(_ request: DumpSchedule.Request) throws(JournalWriteError) -> String {
        let step = request.step ?? EventSequence.last
        try journal.flush()
        let number = dumpsMade.add(1, ordering: .relaxed).newValue
        let path = try RingDump.dump(
            ringAt: ring, catalog: catalog, age: configuration.age, directory: configuration.dumpDirectory, number: number, trigger: request.trigger,
            reason: request.reason, step: step, signal: request.signal
        ).path
        configuration.onDump?(path)
        return path
    }

    /// Writes a dump the dump thread took: its failure goes to
    /// ``FlightRecorder/Configuration/onDumpFailure``.
    func writeReportingFailure(_ request: DumpSchedule.Request) {
        do {
            _ = try write(request)
        } catch {
            configuration.onDumpFailure?(error)
        }
    }
}
