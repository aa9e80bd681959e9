import DequeModule
@_spi(Tooling) import Rewind

/// Two recordings of one scenario compared source by source: each unit of the first is paired
/// with the unit of the second that has its label — or, unlabelled, the one of its type that
/// appeared in the same order among units of that type — since instance numbers differ between
/// runs, and units of several types interleave differently from run to run. The events of each pair
/// are compared in order, with the state each leaves.
struct RecordingComparison {
    /// Where the recordings first differ, by the position of the first recording's event.
    struct Divergence {
        /// The event's place in the first recording, from 1.
        var position: Int
        /// How many pairs of events matched before.
        var compared: Int
        /// The differing events (`nil` where one recording has no more events of the unit).
        var left: RecordedEvent?
        var right: RecordedEvent?
        /// What differs in the events themselves.
        var differences: [String]
        /// The unit's state after each.
        var leftState: StateValue?
        var rightState: StateValue?
    }

    /// How the comparison ended.
    enum Outcome {
        /// Every event of every compared unit matched; how many events were compared.
        case match(compared: Int)
        case divergence(Divergence)
    }

    let left: JournalReader
    let right: JournalReader
    /// The only unit to compare (a source of `left`), if one was named.
    let only: UInt64?

    /// The units of `right` paired with those of `left`, by instance number.
    static func pairing(_ left: [RecordedSource], _ right: [RecordedSource]) -> [UInt64: UInt64] {
        func keys(_ sources: [RecordedSource]) -> [(key: String, id: UInt64)] {
            // Units that share a label, or a type without one, pair in the order they appeared.
            var ordinals: [String: Int] = [:]
            return sources.map { source in
                let name = source.label.map { "label \($0)" } ?? "type \(source.typeName)"
                let ordinal = ordinals[name, default: 0]
                ordinals[name] = ordinal + 1
                return ("\(name) #\(ordinal)", source.instanceID)
            }
        }
        let rightByKey = Dictionary(keys(right).map { ($0.key, $0.id) }, uniquingKeysWith: { first, _ in first })
        var pairing: [UInt64: UInt64] = [:]
        for (key, id) in keys(left) { pairing[id] = rightByKey[key] }
        return pairing
    }

    func run() -> Outcome {
        // The app's own log messages are not the units' doing: two runs log request ids and
        // timings that differ without any step having diverged.
        let units = { (sources: [JournalReader.SourceSpan]) in sources.map(\.source).filter { !$0.isLogger } }
        let pairing = Self.pairing(units(left.sources), units(right.sources))
        let paired = only.map { Set([$0]) } ?? Set(pairing.keys)
        let pairedRight = Set(paired.compactMap { pairing[$0] })
        var rightEvents = right.events().makeIterator()
        // Events of the second recording read past while looking for another unit's next one.
        var waiting: [UInt64: Deque<RecordedEvent>] = [:]
        func nextRight(of id: UInt64) -> RecordedEvent? {
            if let event = waiting[id]?.popFirst() { return event }
            while let event = rightEvents.next() {
                if event.source.isLogger { continue }
                if event.source.instanceID == id { return event }
                if pairedRight.contains(event.source.instanceID) || only == nil { waiting[event.source.instanceID, default: []].append(event) }
            }
            return nil
        }
        var leftStates = StateWalker(), rightStates = StateWalker()
        var position = 0, compared = 0
        for a in left.events() {
            position += 1
            let id = a.source.instanceID
            if let only, id != only { continue }
            if a.source.isLogger { continue }
            guard let pair = pairing[id] else {
                return .divergence(Divergence(
                    position: position, compared: compared, left: a, right: nil,
                    differences: ["source \(a.source) is not in the second recording"], leftState: nil, rightState: nil
                ))
            }
            _ = leftStates.advance(a)
            guard let b = nextRight(of: pair) else {
                return .divergence(Divergence(
                    position: position, compared: compared, left: a, right: nil, differences: [], leftState: leftStates.state(of: id), rightState: nil
                ))
            }
            _ = rightStates.advance(b)
            compared += 1
            var differences: [String] = []
            if a.source.typeName != b.source.typeName { differences.append("source \(a.source) vs \(b.source)") }
            if a.kind != b.kind { differences.append("kind \(a.kind.rawValue) vs \(b.kind.rawValue)") }
            if a.name != b.name { differences.append("name \(VisibleText.quoted(a.name)) vs \(VisibleText.quoted(b.name))") }
            if a.path != b.path { differences.append("path \(a.path ?? "none") vs \(b.path ?? "none")") }
            if a.value != b.value { differences.append("value \((a.value ?? .null).compactDescription(limit: 60)) vs \((b.value ?? .null).compactDescription(limit: 60))") }
            let leftState = leftStates.state(of: id), rightState = rightStates.state(of: pair)
            if differences.isEmpty && leftState == rightState { continue }
            return .divergence(Divergence(
                position: position, compared: compared - 1, left: a, right: b, differences: differences, leftState: leftState, rightState: rightState
            ))
        }
        // The second recording goes on: an event of a compared unit, or of a unit the first lacks.
        let unpairedRight = Set(units(right.sources).map(\.instanceID)).subtracting(pairing.values)
        for id in paired.compactMap({ pairing[$0] }).sorted() {
            if let b = nextRight(of: id) {
                return .divergence(Divergence(position: position + 1, compared: compared, left: nil, right: b, differences: [], leftState: nil, rightState: nil))
            }
        }
        if only == nil, let extra = right.events().first(where: { unpairedRight.contains($0.source.instanceID) }) {
            return .divergence(Divergence(
                position: position + 1, compared: compared, left: nil, right: extra,
                differences: ["source \(extra.source) is not in the first recording"], leftState: nil, rightState: nil
            ))
        }
        return .match(compared: compared)
    }
}
