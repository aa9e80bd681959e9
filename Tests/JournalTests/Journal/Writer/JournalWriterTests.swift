import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Synchronization
import Testing

@Suite("Journal writer")
struct JournalWriterTests {
    struct Counter: Codable, Equatable { var count = 0 }

    final class CounterModel: CyclerType, Sendable {
        let state: Storage<Counter> = .init(.init())
    }

    @Test("a unit whose every step is recorded whole (all of its state changes) still gets blocks of about the block size")
    func keyframedStepsFillBlocks() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("whole.rewind")
        var configuration = JournalConfiguration()
        configuration.blockSize = 2 * 1024
        // Longer than the test: blocks seal by their size only.
        configuration.flushInterval = .seconds(3600)
        let journal = try JournalLogger(path: path, configuration: configuration)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Whole"))
        for number in 0..<2_000 {
            let code = (0..<6).map { String((UInt64(number) &* 31 &+ UInt64($0)) &* 0x9E37_79B9_7F4A_7C15, radix: 36) }.joined()
            channel.emit(.replace(state: LoggedValue(["name": code, "code": code])), callSite: CallSite(), to: journal)
        }
        journal.close()
        let reader = try JournalReader(path: path)
        #expect(reader.eventCount == 2_000)
        // 2,000 records of ~170 bytes should be many blocks, none many times the block size (its
        // records are; their strings, in the block's string table, come on top). Only each
        // block's first keyframe is left out of the size that seals it.
        #expect(reader.blocks.count > 10 && reader.blocks.allSatisfy { $0.uncompressedLength < 8 * 2 * 1024 }, "\(reader.blocks.map(\.uncompressedLength))")
        #expect(try reader.verify().isClean)
    }

    @Test("follow mode sees events written after it started")
    func follow() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("live.rewind")
        let journal = try JournalLogger(path: path)
        let model = CounterModel()
        model.set(logger: journal)
        model.commit { $0.update(1, \.count) }
        try journal.flush()

        let reader = try JournalReader(path: path)
        #expect(!reader.hasIndex)
        #expect(reader.eventCount == 4)
        #expect(reader.damage.isEmpty)
        #expect(reader.refresh() == 0)

        model.commit { $0.update(2, \.count) }
        try journal.flush()
        #expect(reader.refresh() == 1)
        #expect(reader.eventCount == 7)
        let id = model.eventSource.instanceID
        #expect(try reader.state(of: id, at: reader.sequenceRange!.upperBound) == StateCapture.capture(Counter(count: 2)))

        journal.close()
        reader.refresh()
        #expect(reader.allEvents().count == 7)
        #expect(reader.damage.isEmpty)
    }

    @Test("in drop mode a full queue drops events and the journal says how many and where")
    func dropMode() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("drops.rewind")
        var configuration = JournalConfiguration()
        configuration.queueCapacity = 1
        configuration.overflow = .drop
        let journal = try JournalLogger(path: path, configuration: configuration)
        let memory = InMemoryLogger()
        let model = CounterModel()
        model.set(logger: MultiplexLogger([memory, journal]))
        for value in 1...20_000 { model.commit { $0.update(value, \.count) } }
        journal.close()
        let dropped = journal.statistics.eventsDropped
        let reader = try JournalReader(path: path)
        let events = reader.allEvents()
        let markers = events.compactMap(\.dropped)
        let recorded = events.filter { $0.kind != .dropped }
        #expect(dropped > 0)
        #expect(markers.reduce(0) { $0 + $1.count } == dropped)
        #expect(UInt64(recorded.count) + dropped == UInt64(memory.events.count))
        let recordedSequences = Set(recorded.map(\.sequence))
        for marker in markers {
            // The markers' ranges cover the sequence numbers that are missing.
            #expect(!recordedSequences.contains(marker.sequences.lowerBound))
        }
    }

    struct Feed: Codable, Equatable {
        struct Message: Codable, Equatable { var id: Int; var text: String; var read: Bool }
        var messages = (0..<1_000).map { Message(id: $0, text: "message \($0)", read: false) }
    }

    final class FeedModel: CyclerType, Sendable {
        let state: Storage<Feed> = .init(.init())
    }

    @Test("the queue is bounded in bytes: a large state's events count its size, so a small byte limit drops them in drop mode, counted exactly")
    func queueBoundedInBytes() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("bytes.rewind")
        var configuration = JournalConfiguration()
        // Room for a thousand small events, but not for two states of a 1,000-message feed.
        configuration.queueByteLimit = 256 * 1_000
        configuration.overflow = .drop
        let journal = try JournalLogger(path: path, configuration: configuration)
        let memory = InMemoryLogger()
        let model = FeedModel()
        model.set(logger: MultiplexLogger([memory, journal]))
        for step in 0..<3_000 {
            model.commit("read") { $0.update(true, \.messages[step % 1_000].read) }
        }
        journal.close()
        let dropped = journal.statistics.eventsDropped
        let events = try JournalReader(path: path).allEvents()
        let recorded = events.filter { $0.kind != .dropped }
        #expect(dropped > 0)
        #expect(events.compactMap(\.dropped).reduce(0) { $0 + $1.count } == dropped)
        #expect(UInt64(recorded.count) + dropped == UInt64(memory.events.count))
    }

    @Test("eight threads of a thousand commits each, waiting or dropping: nothing lost or duplicated, drops counted exactly", arguments: [JournalConfiguration.Overflow.wait, .drop])
    func eightProducersAccountForEveryEvent(overflow: JournalConfiguration.Overflow) async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("stress.rewind")
        var configuration = JournalConfiguration()
        configuration.queueCapacity = 64  // small, so producers really wait for the writer (or drop)
        configuration.blockSize = 8 * 1024
        configuration.overflow = overflow
        let journal = try JournalLogger(path: path, configuration: configuration)
        let memory = InMemoryLogger(capacity: 1_000_000)
        let models = (0..<8).map { _ in CounterModel() }
        for model in models { model.set(logger: MultiplexLogger([memory, journal])) }
        await withTaskGroup(of: Void.self) { group in
            for model in models {
                group.addTask {
                    for _ in 0..<1_000 { model.commit("add") { $0.update($0.value.count + 1, \.count) } }
                }
            }
        }
        journal.close()
        let dropped = journal.statistics.eventsDropped
        let reader = try JournalReader(path: path)
        let events = reader.allEvents()
        let recorded = events.filter { $0.kind != .dropped }.map(\.sequence)
        let logged = Set(memory.events.map(\.sequence))
        #expect(Set(recorded).count == recorded.count)
        #expect(Set(recorded).isSubset(of: logged))
        #expect(UInt64(recorded.count) + dropped == UInt64(logged.count))
        #expect(events.compactMap(\.dropped).reduce(0) { $0 + $1.count } == dropped)
        guard overflow == .wait else { return }
        #expect(dropped == 0)
        for model in models {
            let id = model.eventSource.instanceID
            #expect(try reader.state(of: id, at: reader.sequenceRange!.upperBound) == StateCapture.capture(Counter(count: 1_000)))
        }
    }

    struct Pair: Codable, Equatable { var left = 0; var right = 0 }

    final class PairModel: CyclerType, Sendable {
        let state: Storage<Pair> = .init(.init())
    }

    @Test("after dropped events the states recorded are still the live ones (not derived from the changes it did not see)")
    func statesAfterDropsAreExact() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("drops.rewind")
        var configuration = JournalConfiguration()
        configuration.queueCapacity = 4
        configuration.overflow = .drop
        configuration.keyframeInterval = 1_000
        let journal = try JournalLogger(path: path, configuration: configuration)
        let memory = InMemoryLogger()
        let model = PairModel()
        model.set(logger: MultiplexLogger([memory, journal]))
        for value in 1...20_000 {
            model.commit { $0.update(value, value % 3 == 0 ? \.right : \.left) }
        }
        journal.close()
        #expect(journal.statistics.eventsDropped > 0)
        let reader = try JournalReader(path: path)
        let live = Dictionary(uniqueKeysWithValues: memory.events.compactMap { event -> (UInt64, StateValue)? in
            guard case .didMutate(_, let state) = event.kind else { return nil }
            return (event.sequence, state.tree())
        })
        var compared = 0
        for event in reader.allEvents() where event.kind == .didMutate {
            #expect(try reader.state(of: event.source.instanceID, at: event.sequence) == live[event.sequence])
            compared += 1
        }
        #expect(compared > 0)
    }

    @Test("files are private (0600) and rotate by size into files that each open on their own, blocks compressed on their own thread or not", arguments: [true, false])
    func permissionsAndRotation(compressesOnOwnThread: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("rotating.rewind")
        var configuration = JournalConfiguration()
        configuration.compressesOnOwnThread = compressesOnOwnThread
        configuration.blockSize = 512
        configuration.rotationSize = 4 * 1024
        let journal = try JournalLogger(path: path, configuration: configuration)
        let model = CounterModel()
        model.set(logger: journal)
        for value in 1...3_000 { model.commit { $0.update(value, \.count) } }
        journal.close()

        var paths = [path]
        while FileManager.default.fileExists(atPath: JournalEncoder.rotatedPath(path, paths.count)) {
            paths.append(JournalEncoder.rotatedPath(path, paths.count))
        }
        #expect(paths.count > 2)
        #expect(paths[1].hasSuffix("rotating.1.rewind"))
        var total = 0
        for file in paths {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let reader = try JournalReader(path: file)
            #expect(reader.hasIndex && reader.damage.isEmpty)
            total += reader.eventCount
        }
        #expect(total == 1 + 3 * 3_000)
    }

    @Test("a duration longer than 64 bits of nanoseconds hold is recorded as the longest, not a crash of the writer")
    func hugeDuration() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("long.rewind")
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Slow"))
        let dispatch = channel.emit(.willDispatch(), name: "wait", callSite: CallSite(), parent: nil, to: journal)
        channel.emit(.didDispatch(duration: .seconds(Int64.max)), name: "wait", callSite: CallSite(), parent: dispatch, to: journal)
        journal.close()
        let recorded = try #require(try JournalReader(path: path).allEvents().last)
        #expect(recorded.duration?.nanoseconds == Int64.max)
    }

    @Test("deterministic journals of the same session are byte-identical")
    func deterministic() throws {
        let directory = TemporaryDirectory()
        var configuration = JournalConfiguration()
        configuration.deterministic = true
        func record(_ name: String) throws -> Data {
            let journal = try JournalLogger(path: directory.file(name), configuration: configuration)
            let model = CounterModel()
            model.set(logger: journal)
            for value in 1...50 { model.dispatch("set") { _ in model.commit { $0.update(value, \.count) } } }
            journal.close()
            return try Data(contentsOf: URL(fileURLWithPath: directory.file(name)))
        }
        let first = try record("a.rewind"), second = try record("b.rewind")
        #expect(first == second)
        let reader = try JournalReader(path: directory.file("a.rewind"))
        #expect(reader.allEvents().map(\.sequence) == Array(1...UInt64(reader.eventCount)))
        #expect(reader.sources.map(\.source.instanceID) == [1])
    }

    @Test("a journal that cannot be created says why")
    func unwritable() {
        #expect(throws: JournalWriteError.self) { try JournalLogger(path: "/nonexistent-dir/x.rewind") }
    }
}
