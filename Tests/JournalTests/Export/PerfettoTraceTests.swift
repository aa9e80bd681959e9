import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import TestSupport
import Testing

/// The Perfetto export, read back with a protobuf reader of the wire format. (CI also decodes the
/// fixtures' traces with Perfetto's own protos: .ci/perfetto-check.py.)
@Suite("Perfetto trace")
struct PerfettoTraceTests {
    struct Loading: Codable { var isLoading = false; var results: [String] = []; var ratio = 0.5 }

    final class Search: CyclerType {
        let state: Storage<Loading> = .init(.init())
        var pending: CyclerWeakContext<Search>?

        func search() {
            dispatch("search") { context in
                context.commit("start") { $0.update(true, \.isLoading) }
                pending = context
            }
        }

        func answer() {
            pending?.commit("answer") {
                $0.update(["swift"], \.results)
                $0.update(false, \.isLoading)
                $0.update(0.75, \.ratio)
            }
        }
    }

    typealias Step = (before: StateValue?, after: StateValue)

    @Test(
        "a trace made from a journal's records, read in their blocks, is the trace made from its events, byte for byte",
        arguments: StateFoldAgreementTests.fixtures + ["counter-flipped-byte", "todo-torn-tail"], [false, true]
    )
    func recordsAndEventsMakeTheSameTrace(name: String, countsListElements: Bool) throws {
        let reader = try JournalReader(path: Repository.fixture(name))
        func trace<Fields: EventFields>(_ items: some Sequence<Fields>, advance: (inout StateWalker, Fields) -> Step?) -> [UInt8] {
            var trace = PerfettoTrace(recordingName: name)
            trace.countsListElements = countsListElements
            var walker = StateWalker()
            var bytes: [UInt8] = []
            for item in items {
                trace.add(item, change: advance(&walker, item))
                bytes += trace.takeBytes()
            }
            return bytes
        }
        let fromEvents = trace(reader.events()) { $0.advance($1) }
        let damageFromEvents = reader.damage
        let fromRecords = trace(reader.records()) { $0.advance($1) }
        #expect(fromEvents.count > 500)
        #expect(fromRecords == fromEvents)
        #expect(reader.damage == damageFromEvents, "both readings pass over the same damage")
    }

    @Test("a commit that outlives its dispatch is a flow from it; changes are instants with path, old and new; numbers are counters")
    func asyncFlowAndCounters() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("search.rewind")
        let journal = try JournalLogger(path: path)
        let search = Search()
        search.set(logger: journal)
        search.search()
        search.answer()
        journal.close()

        let events = Array(try JournalReader(path: path).events())
        var trace = PerfettoTrace(recordingName: "search.rewind")
        var walker = StateWalker()
        for event in events { trace.add(event, change: walker.advance(event)) }
        let packets = WireFields(trace.takeBytes()).messages(1)

        let dispatch = try #require(events.first { $0.kind == .willDispatch })
        let answer = try #require(events.first { $0.kind == .willMutate && $0.name == "answer" })
        #expect(answer.parent == dispatch.sequence)
        let trackEvents = packets.compactMap { $0.messages(11).first }
        let starting = trackEvents.filter { $0.fixed64s(47).contains(dispatch.sequence) }
        let ending = trackEvents.filter { $0.fixed64s(48).contains(dispatch.sequence) }
        #expect(starting.count == 1, "the dispatch starts the flow")
        #expect(ending.count == 1, "the commit made after the dispatch ended ends it")
        #expect(ending.first.map(Self.sequence) == answer.sequence)

        // Interned names, and the counter tracks of the numbers that changed.
        let names = packets.flatMap { $0.messages(12) }.flatMap { $0.messages(2) }.map { $0.string(2) }
        #expect(names.contains("search") && names.contains("answer") && names.contains("results[0]"))
        let tracks = packets.flatMap { $0.messages(60) }
        let counters = tracks.filter { !$0.messages(8).isEmpty || $0.raw(8) != nil }.map { $0.string(2) }
        #expect(counters == ["\(dispatch.source.description) ratio"])
        let samples = trackEvents.filter { $0.varints(9) == [4] }
        #expect(samples.map { $0.double(44) } == [0.5, 0.75], "the value before the first change, then the change")
    }

    @Test("a list replaced wholesale is one instant, not a track per element; element counters are asked for and capped")
    func listsStayInProportion() throws {
        let source = RecordedSource(instanceID: 1, framework: "Cycler", typeName: "Cart", label: nil)
        func state(_ quantities: [Int], total: Int) -> StateValue {
            .object(["total": .integer(Int64(total)), "items": .array(quantities.map { .object(["quantity": .integer(Int64($0))]) })])
        }
        func event(_ sequence: UInt64, _ kind: Event.Category) -> RecordedEvent {
            RecordedEvent(
                sequence: sequence, wallNanoseconds: Int64(sequence), monotonicNanoseconds: sequence, source: source, kind: kind,
                name: "step", description: "", file: "", function: "", line: 0, parent: nil
            )
        }
        func trace(countingElements: Bool) -> (counters: [String], instants: Int, bytes: Int) {
            var trace = PerfettoTrace(recordingName: "cart.rewind")
            trace.countsListElements = countingElements
            let first = state(Array(repeating: 1, count: 2_000), total: 0)
            trace.add(event(1, .created), change: nil)
            // Every element and the total change at once, then one element and the total.
            trace.add(event(2, .didMutate), change: (first, state(Array(repeating: 2, count: 2_000), total: 10)))
            trace.add(event(3, .didMutate), change: (state(Array(repeating: 2, count: 2_000), total: 10), state([5] + Array(repeating: 2, count: 1_999), total: 13)))
            let bytes = trace.takeBytes()
            let packets = WireFields(bytes).messages(1)
            let counters = packets.flatMap { $0.messages(60) }.filter { !$0.messages(8).isEmpty || $0.raw(8) != nil }.map { $0.string(2) }
            let instants = packets.compactMap { $0.messages(11).first }.filter { $0.varints(9) == [3] }.count
            return (counters, instants, bytes.count)
        }
        let plain = trace(countingElements: false)
        #expect(plain.counters == ["Cart#1 total"], "\(plain.counters)")
        // created, the wholesale step as one instant, then the two changes of the last step.
        #expect(plain.instants == 4)
        #expect(plain.bytes < 4_096, "\(plain.bytes) bytes for three steps")
        let elements = trace(countingElements: true)
        #expect(elements.counters.sorted() == ["Cart#1 items[0].quantity", "Cart#1 total"], "\(elements.counters)")
    }

    static func sequence(_ event: WireFields) -> UInt64? {
        event.messages(4).first { $0.varints(1) == [1] }?.varints(3).first
    }

    @Test("protobuf fields are written as the wire format says")
    func wireFormat() {
        var message = ProtobufMessage()
        message.varint(1, 300)
        message.signed(2, -1)
        message.string(3, "hi")
        message.fixed64(4, 1)
        #expect(message.bytes == [0x08, 0xAC, 0x02, 0x10] + Array(repeating: 0xFF, count: 9) + [0x01, 0x1A, 0x02, 0x68, 0x69, 0x21, 1, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test("a nested message built in place is the one built apart, its length one byte or more, nested again or empty")
    func nestedInPlace() {
        for size in [0, 1, 120, 125, 126, 127, 128, 300, 16_377, 16_378, 16_380, 16_381, 20_000] {
            let text = String(repeating: "x", count: size)
            var apart = ProtobufMessage()
            var inner = ProtobufMessage()
            inner.varint(1, 7)
            var innermost = ProtobufMessage()
            innermost.string(2, text)
            inner.message(3, innermost)
            apart.varint(9, 1)
            apart.message(4, inner)
            apart.message(5, ProtobufMessage())
            var inPlace = ProtobufMessage()
            inPlace.varint(9, 1)
            inPlace.message(4) { inner in
                inner.varint(1, 7)
                inner.message(3) { $0.string(2, text) }
            }
            inPlace.message(5) { _ in }
            #expect(inPlace.bytes == apart.bytes, "a string of \(size)")
        }
    }
}

/// The fields of one protobuf message, for reading a trace back in tests.
struct WireFields {
    private var fields: [(number: Int, varint: UInt64?, bytes: [UInt8]?)] = []

    init(_ bytes: [UInt8]) {
        var index = 0
        func varint() -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return value
        }
        while index < bytes.count {
            let key = varint()
            let number = Int(key >> 3)
            switch key & 7 {
            case 0: fields.append((number, varint(), nil))
            case 1:
                fields.append((number, nil, Array(bytes[index..<index + 8])))
                index += 8
            case 2:
                let length = Int(varint())
                fields.append((number, nil, Array(bytes[index..<index + length])))
                index += length
            default: return
            }
        }
    }

    func messages(_ number: Int) -> [WireFields] { fields.filter { $0.number == number }.compactMap { $0.bytes.map(WireFields.init) } }
    func varints(_ number: Int) -> [UInt64] { fields.filter { $0.number == number }.compactMap(\.varint) }
    func raw(_ number: Int) -> [UInt8]? { fields.first { $0.number == number }?.bytes }
    func string(_ number: Int) -> String { raw(number).map { String(decoding: $0, as: UTF8.self) } ?? "" }
    func fixed64s(_ number: Int) -> [UInt64] {
        fields.filter { $0.number == number }.compactMap { $0.bytes }.map { bytes in
            bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
    }
    func double(_ number: Int) -> Double? { fixed64s(number).first.map(Double.init(bitPattern:)) }
}
