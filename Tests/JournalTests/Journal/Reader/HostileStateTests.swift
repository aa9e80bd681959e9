import Foundation
@testable @_spi(Fuzzing) @_spi(Tooling) import Rewind
import Testing

/// CRC-correct journals that once crashed, exhausted memory or took minutes: states built deep by
/// diffs, blocks that decode to tens of millions of values, object diffs in an order no writer
/// makes. Each is also kept in `Fuzz/Regressions` (written by `REWIND_WRITE_REGRESSIONS=1 swift
/// test --filter HostileState`), which the fuzzer starts from and every command is run on.
@Suite("Hostile states")
struct HostileStateTests {
    static func key(_ name: String, depth: Int) -> StatePath { StatePath(Array(repeating: .key(name), count: depth)) }

    /// A value `levels` deep: `{a: {a: … 1}}`.
    static func nested(_ levels: Int) -> StateValue {
        var value = StateValue.integer(1)
        for _ in 1..<levels { value = .object(["a": value]) }
        return value
    }

    /// The crafted journals, by name.
    static func journals() -> [(name: String, bytes: [UInt8])] {
        var result: [(String, [UInt8])] = []

        // Each diff adds a 200-level value at the end of the last: 40 of them would make a state
        // 8,000 levels deep from under 1 KB.
        var deep = CraftedJournal()
        deep.commit(.keyframe(.object([:])))
        for step in 0..<40 {
            deep.commit(.diff(StateDiff(changes: [StateChange(path: key("a", depth: 1 + 199 * step), operation: .added(nested(200)))])))
        }
        result.append(("deep-state-by-diffs", deep.bytes()))

        // One keyframe of nine million nulls: 9 MB that decode to hundreds of megabytes.
        var nulls = CraftedJournal()
        nulls.commit(.keyframe(.array(Array(repeating: .null, count: 9_000_000))))
        result.append(("nine-million-nulls", nulls.bytes()))

        // One diff of five million removals (each a change and a path component).
        var removals = CraftedJournal()
        removals.commit(.keyframe(.object(["x": .null])))
        removals.commit(.diff(StateDiff(changes: Array(repeating: StateChange(path: StatePath([.key("x")]), operation: .removed(.null)), count: 5_000_000))))
        result.append(("five-million-removals", removals.bytes()))

        result.append(("object-diff-out-of-order", objectDiffOutOfOrder()))
        return result
    }

    /// An object of 20,000 fields, then a diff that alternates removals and additions: each
    /// addition before a removal made the old reader merge all fields again.
    static func objectDiffOutOfOrder() -> [UInt8] {
        var fields = StateObjectFields()
        for index in 0..<20_000 { fields["f\(index)"] = .integer(Int64(index)) }
        var alternating = CraftedJournal()
        alternating.commit(.keyframe(.object(fields)))
        var changes: [StateChange] = []
        for index in 0..<10_000 {
            changes.append(StateChange(path: StatePath([.key("new\(index)")]), operation: .added(.null), fieldPosition: 20_000 - index))
            changes.append(StateChange(path: StatePath([.key("f\(index)")]), operation: .removed(.null)))
        }
        alternating.commit(.diff(StateDiff(changes: changes)))
        return alternating.bytes()
    }

    /// What the fuzzer's harness and every command do with a journal.
    static func exercise(_ path: String) throws -> (states: Int, verification: JournalVerification) {
        let reader = try JournalReader(path: path)
        var walker = StateWalker()
        var states = 0
        for event in reader.events() {
            _ = event.rowText(valueLimit: 80)
            if let (before, after) = walker.advance(event) {
                states += 1
                _ = after.indentedDescription()
                _ = JSONText.value(after)
                if let before { _ = DiffRenderer().lines(from: before, to: after) }
            }
            _ = try reader.state(of: event.source.instanceID, at: event.sequence)
        }
        return (states, try reader.verify())
    }

    @Test("each crafted journal reads without a crash, quickly, and says what is wrong", .timeLimit(.minutes(10)))
    func craftedJournals() throws {
        let directory = TemporaryDirectory()
        let write = ProcessInfo.processInfo.environment["REWIND_WRITE_REGRESSIONS"] == "1"
        for (name, bytes) in Self.journals() {
            let path = directory.file(name + ".rewind")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            if write { try Data(bytes).write(to: URL(fileURLWithPath: HostileInputTests.regressions + "/" + name)) }
            let (_, verification) = try Self.exercise(path)
            #expect(!verification.isClean, "\(name)")
        }
    }

    @Test("diffs may not build a state deeper than any reader decodes")
    func depthBound() throws {
        let directory = TemporaryDirectory()
        let deep = Self.journals().first { $0.name == "deep-state-by-diffs" }!
        let path = directory.file("deep.rewind")
        try Data(deep.bytes).write(to: URL(fileURLWithPath: path))
        let reader = try JournalReader(path: path)
        let last = try #require(reader.sequenceRange?.upperBound)
        #expect(try reader.state(of: 1, at: last) == nil, "the state stops where it would grow too deep")
        #expect(try reader.state(of: 1, at: 2)?.isDeeper(than: StateValue.maximumDepth) == false)
        let verification = try reader.verify()
        #expect(verification.unbuildableStates.first?.sequence == 3)
    }

    @Test("a change may not build a state deeper than any reader decodes either; a scalar at a deep place is set")
    func changeDepthBound() {
        func nested(_ depth: Int, leaf: StateValue) -> StateValue {
            (0..<depth).reduce(leaf) { inner, _ in .object(["a": inner]) }
        }
        let state = nested(250, leaf: .integer(0))
        let deepPlace = Array(repeating: "a", count: 250).joined(separator: ".")
        let set = StateStep.change(path: deepPlace, value: .integer(7)).applied(to: state)
        #expect(set == nested(250, leaf: .integer(7)))
        let grown = StateStep.change(path: deepPlace, value: nested(100, leaf: .null)).applied(to: state)
        #expect(grown == nil || grown?.isDeeper(than: StateValue.maximumDepth) == false)
    }

    @Test("a block that decodes to more values than the bound is damaged, named as such")
    func decodedSizeBound() throws {
        let directory = TemporaryDirectory()
        for name in ["nine-million-nulls", "five-million-removals"] {
            let bytes = Self.journals().first { $0.name == name }!.bytes
            #expect(bytes.count < 128 * 1024, "a small file: \(bytes.count) bytes")
            let path = directory.file(name + ".rewind")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let reader = try JournalReader(path: path)
            #expect(reader.eventCount == 0)
            #expect(reader.damage.first?.reason.contains("more than \(JournalFormat.maximumDecodedItemsPerBlock) values in one block") == true, "\(name): \(reader.damage)")
        }
    }

    @Test("an object diff in an order no writer makes is refused in linear time", .timeLimit(.minutes(10)))
    func outOfOrderObjectDiff() throws {
        let directory = TemporaryDirectory()
        let bytes = Self.objectDiffOutOfOrder()
        let path = directory.file("objects.rewind")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try JournalReader(path: path)
        #expect(try reader.state(of: 1, at: 2) == nil)
        #expect(try reader.verify().unbuildableStates.map(\.sequence) == [2])
    }

    @Test("a value of 100,000 elements prints on one line in linear time", .timeLimit(.minutes(10)))
    func longCompactDescription() {
        let value = StateValue.array((0..<100_000).map { .integer(Int64($0)) })
        let text = value.compactDescription(limit: .max)
        #expect(text.hasPrefix("[0, 1, 2") && text.hasSuffix("99999]"))
        #expect(value.compactDescription(limit: 20) == "[0, 1, 2, 3, 4, 5, …")
    }
}

extension HostileStateTests {
    @Test("the fuzzer's structural mutations of the fixtures' blocks read without a crash or a hang", .timeLimit(.minutes(10)))
    func structuralMutations() throws {
        let directory = TemporaryDirectory()
        var payloads: [[UInt8]] = []
        for name in ["todo", "demo", "flask"] {
            payloads += try JournalFuzzing.payloads(ofJournalAt: Repository.fixture(name))
        }
        var mutated = 0
        for seed in 0..<48 as Range<UInt32> {
            let payload = payloads[Int(seed) % payloads.count]
            guard let changed = JournalFuzzing.mutatedPayload(payload, seed: seed, maximumSize: 1 << 20) else { continue }
            mutated += 1
            let path = directory.file("mutated-\(seed).rewind")
            try Data(JournalFuzzing.journal(wrappingPayload: changed)).write(to: URL(fileURLWithPath: path))
            _ = try? Self.exercise(path)
        }
        #expect(mutated > 30, "most mutations give a well-formed block")
    }
}
