import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Synchronization
import Testing
import TestSupport

@Suite("Flight recorder")
struct FlightRecorderTests {
    struct Shop: Codable, Equatable {
        var orders: [String] = []
        var total = 0
    }

    final class ShopModel: CyclerType, Sendable {
        let state: Storage<Shop> = .init(.init())
    }

    /// A 128 KiB ring of small blocks, so that a test's few thousand commits go round it several times.
    static func configuration(age: Duration = .seconds(300)) -> FlightRecorder.Configuration {
        var configuration = FlightRecorder.Configuration()
        configuration.maximumBytes = 128 << 10
        configuration.age = age
        configuration.journal.blockSize = 4 * 1024
        configuration.rateLimit = .unlimited
        return configuration
    }

    /// Commits `count` orders, each adding a line of text, so that the ring fills.
    static func order(_ shop: ShopModel, count: Int, from first: Int = 0) {
        for number in first..<(first + count) {
            shop.commit("order") { state in
                // Text that compresses little, as real orders' does.
                let code = String(UInt64(number) &* 0x9E37_79B9_7F4A_7C15, radix: 36)
                state.update(state.value.orders.suffix(20) + ["order \(number): \(code)"], \.orders)
                state.update(state.value.total + number, \.total)
            }
        }
    }

    @Test("after many laps the ring holds the newest events, in order, each step's state the one a full journal recorded")
    func ringKeepsTheNewest() throws {
        let directory = TemporaryDirectory()
        let ringPath = directory.file("shop.rewind-ring")
        let recorder = try FlightRecorder(path: ringPath, configuration: Self.configuration())
        let full = try JournalLogger(path: directory.file("full.rewind"))
        let shop = ShopModel()
        shop.set(logger: MultiplexLogger([recorder, full]))
        Self.order(shop, count: 6_000)
        recorder.close()
        full.close()
        #expect(recorder.statistics.bytesWritten > 2 * (128 << 10), "the ring went round more than twice")

        let ring = try JournalReader(path: ringPath)
        let window = try #require(ring.ring)
        #expect(window.wasClosed && window.size == 128 << 10 && window.blockCount > 1)
        let everything = try JournalReader(path: directory.file("full.rewind"))
        let allSequences = everything.allEvents().map(\.sequence)
        let kept = ring.allEvents().map(\.sequence)
        // What survives is one run of steps that ends with the last one recorded: no gap, no
        // event of an older lap, nothing out of order.
        #expect(!kept.isEmpty && kept.count < allSequences.count)
        #expect(Array(allSequences.suffix(kept.count)) == kept)
        let source = try #require(ring.sources.first?.source.instanceID)
        // Before the window's first state record (the rest of a commit cut by the window's
        // start: its `willMutate` and changes, up to the `didMutate` that records the state it
        // settled in) the state is not known there, and the ring says so rather than guess; from
        // it on, every state is known. Other tests number steps in this process too: events are
        // counted, not sequence numbers.
        let firstKnown = try #require(try kept.first { try ring.state(of: source, at: $0) != nil })
        #expect(try #require(kept.firstIndex(of: firstKnown)) < 4, "\(ring.allEvents().prefix(5).map { "\($0.sequence) \($0.kind)" })")
        for sequence in stride(from: firstKnown, through: kept.last!, by: max(1, kept.count / 50)) {
            #expect(try ring.state(of: source, at: sequence) == everything.state(of: source, at: sequence), "step \(sequence)")
        }
        #expect(try ring.verify().isClean)
    }

    @Test("a dump is a complete journal (0600, indexed) that says why it was made, and two never share a name")
    func dumpIsAJournal() throws {
        let directory = TemporaryDirectory()
        let recorder = try FlightRecorder(path: directory.file("shop.rewind-ring"), configuration: Self.configuration())
        let full = try JournalLogger(path: directory.file("full.rewind"))
        let shop = ShopModel()
        shop.set(logger: MultiplexLogger([recorder, full]))
        Self.order(shop, count: 3_000)
        let first = try #require(try recorder.dump(reason: "negative total"))
        let second = try #require(try recorder.dump(reason: "again"))
        #expect(first != second)
        #expect(try recorder.dump(unless: true, "never made") == nil)
        let asserted = try #require(try recorder.dump(unless: false, "cart.total < 0"))
        recorder.close()

        var status = stat()
        #expect(stat(first, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(URL(fileURLWithPath: first).deletingLastPathComponent().path == URL(fileURLWithPath: directory.path).path)
        #expect(URL(fileURLWithPath: first).lastPathComponent.hasPrefix("shop-"))
        let dump = try JournalReader(path: first)
        #expect(dump.hasIndex && dump.ring == nil && dump.damage.isEmpty)
        let why = try #require(dump.header.dump)
        #expect(why.trigger == .call && why.reason == "negative total")
        // Everything logged before the call is in it, up to the step the trigger fired at (other
        // tests number steps in this process too: that step may be theirs), with no gap.
        full.close()
        let events = dump.allEvents().map(\.sequence)
        let recorded = try JournalReader(path: directory.file("full.rewind")).allEvents().map(\.sequence)
        #expect(!events.isEmpty && events.count < recorded.count)
        #expect(Array(recorded.suffix(events.count)) == events)
        #expect(try #require(why.step) >= events.last!)
        #expect(try JournalReader(path: asserted).header.dump?.trigger == .assertion)
        #expect(try JournalReader(path: asserted).header.dump?.reason == "cart.total < 0")
    }

    @Test("the recorder's own dump (of the blocks it wrote) equals a reader's of the ring; dumps racing the writer are one run each")
    func ownDumpAgreesWithTheScan() throws {
        let directory = TemporaryDirectory()
        let ringPath = directory.file("shop.rewind-ring")
        let recorder = try FlightRecorder(path: ringPath, configuration: Self.configuration())
        let shop = ShopModel()
        shop.set(logger: recorder)
        Self.order(shop, count: 5_000)
        try recorder.sync()
        let own = try JournalReader(path: try #require(try recorder.dump(reason: "own")))
        let scanned = try JournalReader(
            path: RingDump.dump(ringAt: ringPath, directory: directory.path, number: 99, trigger: .external, reason: "scan", step: nil).path)
        #expect(own.eventCount > 0 && own.allEvents() == scanned.allEvents())
        #expect(try own.verify().isClean)

        // Dumps while another thread commits as fast as it can: the ring is overwritten under
        // each dump. Each reads clean and is one run of commits: the orders its changes add are
        // consecutive numbers, none missing.
        let done = Atomic<Bool>(false)
        let committer = Thread {
            var number = 5_000
            while !done.load(ordering: .relaxed) {
                Self.order(shop, count: 100, from: number)
                number += 100
            }
        }
        committer.start()
        defer { done.store(true, ordering: .relaxed) }
        for round in 0..<3 {
            let dump = try JournalReader(path: try #require(try recorder.dump(reason: "racing \(round)")))
            let numbers = dump.allEvents().compactMap { event -> Int? in
                guard event.kind == .change, event.path == "orders", case .array(let orders)? = event.value else { return nil }
                guard case .string(let last)? = orders.last else { return nil }
                return Int(last.split(separator: " ")[1].dropLast())
            }
            let clean = try dump.verify().isClean
            #expect(numbers.count > 10 && clean, "round \(round)")
            #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 + 1 }, "round \(round): \(numbers.prefix(5))…")
        }
        done.store(true, ordering: .relaxed)
        recorder.close()
    }

    @Test("a dump reaches back only as far as the configured age")
    func dumpKeepsItsAge() throws {
        let directory = TemporaryDirectory()
        let recorder = try FlightRecorder(path: directory.file("shop.rewind-ring"), configuration: Self.configuration(age: .zero))
        let shop = ShopModel()
        shop.set(logger: recorder)
        Self.order(shop, count: 3_000)
        let dump = try JournalReader(path: try #require(try recorder.dump(reason: "now")))
        recorder.close()
        let ring = try JournalReader(path: directory.file("shop.rewind-ring"))
        // Age zero: only the block(s) that end at the newest event's time.
        #expect(dump.eventCount > 0 && dump.eventCount < ring.eventCount)
        #expect(dump.allEvents().last?.sequence == ring.allEvents().last?.sequence)
    }

    @Test(
        "crafted rings read without a hang: a frame every 60 bytes claiming the rest of the file, and a file of nothing but block magic",
        .timeLimit(.minutes(10)))
    func craftedRingsReadQuickly() throws {
        let directory = TemporaryDirectory()
        let header = JournalHeader(formatVersion: JournalFormat.version, createdWallNanoseconds: 0, createdMonotonicNanoseconds: 0, writerVersion: "crafted")
            .encoded(signature: JournalFormat.ringMagic)
        let size = 1 << 20
        var frames = header
        while frames.count + JournalFormat.frameHeaderLength <= size {
            let rest = UInt32(size - frames.count - JournalFormat.frameHeaderLength)
            frames += BlockFrame(
                type: .events, compressedLength: max(1, rest), uncompressedLength: 100, eventCount: 1, firstSequence: 1, lastSequence: 1,
                firstWallNanoseconds: 0, lastWallNanoseconds: 0, payloadCRC: 0, lap: 1
            ).encoded()
        }
        var magic = header
        while magic.count < size { magic += JournalFormat.blockMagic }
        for (name, bytes) in [("frames", frames), ("magic", magic)] {
            let path = directory.file("\(name).rewind-ring")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let reader = try JournalReader(path: path)
            #expect(reader.eventCount == 0 && (reader.ring?.skippedRegions ?? 0) > 0, "\(name)")
        }
    }

    @Test(
        "a wrapped ring cut at every length around each block's start and end, and at a stride between, reads the whole blocks before the cut, in order",
        .timeLimit(.minutes(10)))
    func ringCutAtEveryBoundary() throws {
        let directory = TemporaryDirectory()
        let ringPath = directory.file("shop.rewind-ring")
        var configuration = Self.configuration()
        configuration.maximumBytes = 64 << 10
        let recorder = try FlightRecorder(path: ringPath, configuration: configuration)
        let shop = ShopModel()
        shop.set(logger: recorder)
        Self.order(shop, count: 2_000)
        recorder.close()
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ringPath)))
        let full = try JournalReader(path: ringPath)
        let allEvents = full.allEvents().map(\.sequence)
        let known = Set(allEvents)
        // Where blocks start and end in the file: found by their magic and frames.
        var boundaries: Set<Int> = [0, whole.count]
        let descriptor = open(ringPath, O_RDONLY)
        defer { close(descriptor) }
        let header = try JournalHeader.decodeFixedPart(JournalReader.read(descriptor, at: 0, count: JournalFormat.fixedHeaderLength)).get()
        let scan = RingScan(descriptor: descriptor, size: whole.count, regionStart: header.length, flags: header.flags)
        #expect(scan.blocks.count > 4 && scan.blocks.first!.offset > scan.blocks.last!.offset, "the ring wrapped: its oldest block lies after its newest")
        for block in scan.blocks {
            boundaries.insert(block.offset)
            boundaries.insert(block.offset + block.frame.totalLength)
        }
        var lengths = Set(stride(from: 0, to: whole.count, by: 1_021))
        for boundary in boundaries {
            for delta in -2...2 where (0...whole.count).contains(boundary + delta) { lengths.insert(boundary + delta) }
        }
        let path = directory.file("cut.rewind-ring")
        for length in lengths.sorted() {
            try Data(whole.prefix(length)).write(to: URL(fileURLWithPath: path))
            guard let reader = try? JournalReader(path: path) else {
                #expect(length < header.length, "a ring cut after its header opens: \(length)")
                continue
            }
            let events = reader.allEvents().map(\.sequence)
            // What is kept is the whole blocks before the cut, in the order they were written:
            // events the ring held, in order, none twice; all of them when nothing was cut.
            #expect(zip(events, events.dropFirst()).allSatisfy { $0 < $1 } && known.isSuperset(of: events), "cut at \(length)")
            #expect(length < whole.count || events == allEvents)
            #expect(reader.eventCount == events.count, "cut at \(length)")
        }
    }

    @Test("a state larger than the whole ring is left out of it, and the statistics count its events")
    func blockLargerThanTheRing() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("small.rewind-ring")
        let recorder = try FlightRecorder(path: path, configuration: Self.configuration())
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Huge"))
        channel.emit(.created(state: LoggedValue(["note": "small"])), callSite: CallSite(), to: recorder)
        try recorder.sync()
        // 256 KiB of text that does not compress, in a 128 KiB ring.
        var random = SplitMix(seed: 7)
        let noise = (0..<(256 << 10) / 16).map { _ in String(random.next(), radix: 16) }.joined()
        channel.emit(.replace(state: LoggedValue(["note": noise])), callSite: CallSite(), to: recorder)
        try recorder.sync()
        channel.emit(.replace(state: LoggedValue(["note": "small again"])), callSite: CallSite(), to: recorder)
        recorder.close()
        #expect(recorder.statistics.eventsLeftOutOfRing == 1, "\(recorder.statistics)")
        let ring = try JournalReader(path: path)
        #expect(ring.eventCount == 2, "the events before and after it are kept")
    }

    @Test("a file at the ring's path that is not a ring is kept, and the recorder does not start")
    func keepsOtherFiles() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("notes.txt")
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: JournalWriteError.self) { try FlightRecorder(path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "my notes")
    }

    @Test(
        "a recorder killed with SIGKILL, at 50 moments from its first sync to many laps on, leaves a ring the next recorder dumps, with every synced event of its window",
        arguments: 0..<50)
    func killedRecorderIsDumpedAtNextStart(round: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("crash.rewind-ring")
        let child = try FlightRecorderTriggerTests.child(ring: path)
        // From the first sync (before the 128 KiB ring first wraps) to a few laps on, at a moment
        // inside the child's run of commits that differs by round.
        let syncsBeforeKill = 1 + (round * 29) % 72
        let lastSynced = JournalCrashSafetyTests.lastSynced(by: child, after: syncsBeforeKill)
        kill(child.process.processIdentifier, SIGKILL)
        child.process.waitUntilExit()
        try #require(lastSynced > 0)

        // `rewind` reads the ring as it was left.
        let left = try JournalReader(path: path)
        #expect(left.ring?.wasClosed == false)
        let next = try FlightRecorder(path: path, configuration: Self.configuration())
        next.close()
        let dumpPath = try #require(next.previousRunDump)
        let dump = try JournalReader(path: dumpPath)
        #expect(dump.header.dump?.trigger == .unclosed)
        let sequences = dump.allEvents().map(\.sequence)
        // Event 1 is the counter's `created`; each commit adds willMutate, change and didMutate.
        let syncedThrough = UInt64(1 + 3 * lastSynced)
        let first = try #require(sequences.first)
        if syncsBeforeKill >= 60 { #expect(first > 1, "the window is the end of the run, not all of it") }
        #expect(sequences.last! >= syncedThrough)
        // At most the block being written is lost: the window is one run, every synced event in it.
        #expect(sequences == Array(first...sequences.last!), "no event of the window missing")
        #expect(Array(sequences.prefix { $0 <= syncedThrough }) == Array(first...syncedThrough), "no synced event of the window missing")
        #expect(dump.allEvents().map(\.sequence) == left.allEvents().map(\.sequence))
        // A closed ring is not dumped again.
        let third = try FlightRecorder(path: path, configuration: Self.configuration())
        third.close()
        #expect(third.previousRunDump == nil)
    }
}

@Suite("Flight recorder triggers, in a process of their own")
struct FlightRecorderTriggerTests {
    /// Runs the crash recorder on a ring with `arguments`, its output read line by line.
    static func child(ring: String, _ arguments: [String] = []) throws -> ChildProcess.Running {
        let recorder = JournalCrashSafetyTests.recorderPath
        try #require(FileManager.default.isExecutableFile(atPath: recorder), "build the journal-crash-recorder product first")
        // The runtime's backtrace would only slow a crash down.
        return try ChildProcess.Running(recorder, ["--ring", ring] + arguments, environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    /// How the child crashes, and the signals it may die of: a fatalError ends in SIGILL on
    /// x86-64, SIGTRAP on arm64; the overflow is on the thread that started the recorder, which the
    /// recorder gave a signal stack. Under ThreadSanitizer, which handles SIGSEGV itself, the
    /// faults are left out.
    static let crashes: [(String, Set<Int32>)] =
        [("fatalError", [SIGILL, SIGTRAP]), ("abort", [SIGABRT])] + (isThreadSanitized ? [] : [("segv", [SIGSEGV]), ("overflow", [SIGSEGV])])

    @Test(
        "a process that dies of a fatal signal at any commit marks its ring with it; the next start dumps the ring as a crash, every synced event in it, none missing before its last",
        arguments: crashes.flatMap { crash in [1_237, 3_000, 8_711].map { (crash.0, crash.1, $0) } }
    )
    func crashIsMarked(crash: String, fatal: Set<Int32>, at commit: Int) throws {
        let directory = TemporaryDirectory()
        let ring = directory.file("app.rewind-ring")
        let child = try Self.child(ring: ring, ["--crash-after", String(commit), "--crash-with", crash])
        var lastSynced = 0
        while let line = child.line() {
            if line.hasPrefix("synced "), let count = Int(line.dropFirst(7)) { lastSynced = count }
        }
        child.process.waitUntilExit()
        #expect(child.process.terminationReason == .uncaughtSignal && fatal.contains(child.process.terminationStatus), "\(child.process.terminationStatus)")
        #expect(lastSynced == commit / 500 * 500)
        let left = try JournalReader(path: ring)
        #expect(left.ring?.wasClosed == false && left.ring?.crashSignal.map(fatal.contains) == true, "\(String(describing: left.ring))")

        let next = try FlightRecorder(path: ring, configuration: FlightRecorderTests.configuration())
        next.close()
        let dump = try JournalReader(path: try #require(next.previousRunDump))
        let why = try #require(dump.header.dump)
        #expect(why.trigger == .crash && why.signal.map(fatal.contains) == true && why.reason.hasPrefix("the previous run died of SIG"))
        // The loss bound: every synced event is in the dump, and what is there is one run — what
        // a crash may lose is only the end, after the last block that reached the ring.
        let sequences = dump.allEvents().map(\.sequence)
        #expect(sequences.last.map { $0 >= UInt64(1 + 3 * lastSynced) } == true, "every synced event is in the dump")
        #expect(sequences.first.map { sequences == Array($0...sequences.last!) } == true, "no event missing inside the window")
        #expect(sequences.last.map { $0 <= UInt64(1 + 3 * commit) } == true, "nothing after the crash")
    }

    /// Runs the child with `arguments` until it prints its first dump, and reads that dump.
    static func firstDump(_ arguments: [String]) throws -> JournalReader {
        let directory = TemporaryDirectory()
        let child = try Self.child(ring: directory.file("app.rewind-ring"), arguments)
        defer {
            kill(child.process.processIdentifier, SIGKILL)
            child.process.waitUntilExit()
        }
        // Bounded: a child that never dumps ends the loop at its 40th sync.
        while let line = child.line(), line != "synced 20000" {
            if line.hasPrefix("dumped ") { return try JournalReader(path: String(line.dropFirst(7))) }
        }
        throw JournalReadError.notAJournal("the child made no dump")
    }

    @Test("a condition over the state dumps from the writer's side of a running process, at the step it became true")
    func conditionDumps() throws {
        let dump = try Self.firstDump(["--condition", "count == 2000", "--pause-at", "2000"])
        let why = try #require(dump.header.dump)
        #expect(why.trigger == .condition && why.reason.hasPrefix("count == 2000 on "), "\(why.summary)")
        // Event 1 is the counter's `created`; each commit adds willMutate, change and didMutate.
        #expect(why.step == 1 + 3 * 2_000)
        let step = try #require(dump.allEvents().first { $0.sequence == why.step })
        #expect(step.kind == .didMutate)
        #expect(try dump.state(of: step.source.instanceID, at: step.sequence)?[.key("count")] == .integer(2_000))
    }

    @Test("a failed assertion call dumps in a running process, with every event logged before it")
    func assertionDumps() throws {
        let dump = try Self.firstDump(["--assert-at", "1500"])
        let why = try #require(dump.header.dump)
        #expect(why.trigger == .assertion && why.reason == "the count reached 1500")
        #expect(why.step == 1 + 3 * 1_500 && dump.allEvents().last?.sequence == why.step)
    }

    @Test("SIGUSR2 makes a running recorder dump its window (trigger signal), and the process goes on")
    func signalDumps() throws {
        let directory = TemporaryDirectory()
        let ring = directory.file("app.rewind-ring")
        let child = try Self.child(ring: ring)
        defer {
            kill(child.process.processIdentifier, SIGKILL)
            child.process.waitUntilExit()
        }
        var dumped: String?
        var syncsAfterDump = 0
        // Bounded: a child that never dumps ends the loop at its 40th sync.
        while let line = child.line(), syncsAfterDump < 2, line != "synced 20000" {
            if line == "synced 1000" { kill(child.process.processIdentifier, SIGUSR2) }
            if line.hasPrefix("dumped ") { dumped = String(line.dropFirst(7)) }
            if dumped != nil, line.hasPrefix("synced ") { syncsAfterDump += 1 }
        }
        #expect(child.process.isRunning, "SIGUSR2 does not end the process")
        let dump = try JournalReader(path: try #require(dumped))
        #expect(dump.header.dump?.trigger == .signal && dump.header.dump?.signal == SIGUSR2)
        #expect(dump.eventCount > 0 && dump.hasIndex)
    }
}
