/// Structure-aware mutation for the reader's fuzzer: byte flips of a block payload rarely keep it
/// decodable, and never make it decode to something large or deep, which is where readers break
/// (a state thousands of levels deep built by diffs, a block of millions of values, diffs in an
/// order no writer makes). These mutations decode the records, change them as trees, and encode
/// them again, so every result is a well-formed block that reaches the state code.
extension JournalFuzzing {
    /// `payload` (an uncompressed events-block payload) with one structural change chosen by
    /// `seed`, or `nil` when it does not decode. The result is at most about `maximumSize` bytes.
    public static func mutatedPayload(_ payload: [UInt8], seed: UInt32, maximumSize: Int) -> [UInt8]? {
        guard var block = DecodedBlock(payload), !block.records.isEmpty else { return nil }
        var random = MutationRandom(seed: seed)
        let index = random.below(block.records.count)
        switch random.below(6) {
        case 0: block.repeatRecord(at: index, times: 1 << random.below(12))
        case 1: block.records[index].deepen(by: 1 + random.below(400), random: &random)
        case 2: block.records[index].widen(to: 1 << random.below(20), random: &random)
        case 3: block.records[index].reorderDiff(random: &random)
        case 4: block.records[index].deepenDiffPaths(by: 1 + random.below(400))
        default: block.records[index].turnChangesIntoAdditionsAndRemovals()
        }
        let encoded = block.encoded()
        return encoded.count <= maximumSize ? encoded : nil
    }
}

/// A block payload as its sources and records.
private struct DecodedBlock {
    var sources: [RecordedSource]
    var records: [WireRecord]

    init?(_ payload: [UInt8]) {
        var reader = ByteReader(payload)
        do {
            let count = try reader.count(atMost: reader.remaining)
            var strings: [String] = []
            for _ in 0..<count { strings.append(try reader.string()) }
            sources = try SourceTable.readBlockTable(from: &reader, strings: strings)
            var clock = try RecordClock.readBases(from: &reader)
            records = []
            while !reader.isAtEnd {
                records.append(try WireRecord.read(from: &reader, strings: strings, clock: &clock, sourceCount: sources.count))
            }
        } catch {
            return nil
        }
    }

    mutating func repeatRecord(at index: Int, times: Int) {
        let record = records[index]
        var copies: [WireRecord] = []
        for copy in 1...times {
            var next = record
            next.sequence = record.sequence &+ UInt64(copy)
            copies.append(next)
        }
        records.insert(contentsOf: copies, at: index + 1)
    }

    func encoded() -> [UInt8] {
        var builder = BlockBuilder()
        for record in records where record.sourceIndex < sources.count {
            let source = sources[record.sourceIndex]
            let eventSource = EventSource(framework: .init(rawValue: source.framework), typeName: source.typeName, instanceID: source.instanceID, label: source.label)
            builder.appendUnchecked(record, source: eventSource, sourceID: source.instanceID)
        }
        return builder.payload()
    }
}

private extension WireRecord {
    /// Every tree the record carries, changed by `transform`.
    mutating func transformTrees(_ transform: (StateValue) -> StateValue) {
        switch state {
        case .keyframe(let tree)?: state = .keyframe(transform(tree))
        case .diff(let diff)?:
            state = .diff(StateDiff(changes: diff.changes.map { change in
                switch change.operation {
                case .added(let value): StateChange(path: change.path, operation: .added(transform(value)), fieldPosition: change.fieldPosition)
                case .changed(let old, let value): StateChange(path: change.path, operation: .changed(from: old, to: transform(value)))
                case .removed: change
                }
            }))
        case nil: break
        }
        switch body {
        case .value(let value): body = .value(transform(value))
        case .change(let path, let value): body = .change(path: path, value: transform(value))
        default: break
        }
    }

    mutating func deepen(by levels: Int, random: inout MutationRandom) {
        let asArray = random.below(2) == 0
        transformTrees { tree in
            var value = tree
            for _ in 0..<levels { value = asArray ? .array([value]) : .object(["a": value]) }
            return value
        }
    }

    mutating func widen(to count: Int, random: inout MutationRandom) {
        let kind = random.below(3)
        transformTrees { tree in
            switch kind {
            case 0: .array(Array(repeating: .null, count: count))
            case 1: .array(Array(repeating: tree, count: min(count, 4096)))
            default:
                .object(StateObjectFields(uniqueKeysWithValues: (0..<min(count, 65_536)).map { ("f\($0)", StateValue.integer(Int64($0))) }))
            }
        }
    }

    mutating func reorderDiff(random: inout MutationRandom) {
        guard case .diff(let diff)? = state else { return }
        var changes = diff.changes
        if random.below(2) == 0 { changes.reverse() } else { changes.shuffle(using: &random) }
        state = .diff(StateDiff(changes: changes))
    }

    mutating func deepenDiffPaths(by levels: Int) {
        guard case .diff(let diff)? = state else { return }
        let prefix = [StatePath.Component](repeating: .key("a"), count: levels)
        state = .diff(StateDiff(changes: diff.changes.map {
            StateChange(path: StatePath(prefix + $0.path.components), operation: $0.operation, fieldPosition: $0.fieldPosition)
        }))
    }

    mutating func turnChangesIntoAdditionsAndRemovals() {
        guard case .diff(let diff)? = state else { return }
        state = .diff(StateDiff(changes: diff.changes.flatMap { change -> [StateChange] in
            guard case .changed(_, let value) = change.operation else { return [change] }
            return [
                StateChange(path: change.path, operation: .added(value), fieldPosition: 0),
                StateChange(path: change.path, operation: .removed(.null)),
            ]
        }))
    }
}

/// A small seeded generator (SplitMix64), so that a mutation is the same for the same seed.
private struct MutationRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt32) {
        state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
