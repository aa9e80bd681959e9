import FuzzerDriver
import Foundation
@_spi(Fuzzing) @_spi(Tooling) import Rewind

// Feeds every input to the journal reader as a file, the way every command and app meets a journal:
// open it, read every event, rebuild states, diff them, verify the file. The reader's promise is
// that none of this crashes, hangs or allocates without bound, whatever the bytes are.
//
// An input starting with the journal signature's first byte (0x89) is a whole file: a journal, or
// a flight recorder's ring (read by the reader's ring scan). An input
// starting with 1 is a summary block's payload, decoded and judged as a query does. Any other input
// is one block's uncompressed payload after a mode byte, framed with good checksums before it is
// read: mutations in a real file rarely get past the block checksum to the decoder behind it.
//
//   rewind-fuzz seeds OUTPUT JOURNAL…   writes each block payload of the journals as a seed
//   rewind-fuzz [libFuzzer flags] CORPUS…   fuzzes (see Fuzz/run)

/// The file each input is written to (one per fuzzer process, on a memory file system when there
/// is one).
let inputPath: String = {
    let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    return "\(directory)/rewind-fuzz-\(getpid()).rewind"
}()

/// How many of the first events get their state rebuilt and diffed with the one before; the last
/// event of every source gets it too, which applies the whole chain from its last keyframe. Each
/// rebuild decodes a block again, so a few keep the fuzzer fast.
let statefulEvents = 8

/// A condition over the fuzzed journal's states, for its summaries and a query.
let condition = try! Condition(parsing: "count > 3 || (kind == change && changed(items)) || name == \"add\"")

func exercise(_ path: String) {
    guard let reader = try? JournalReader(path: path) else { return }
    _ = reader.sources
    _ = reader.sequenceRange
    _ = reader.timeSpan
    _ = reader.lostEventCount
    var previousStates: [UInt64: StateValue] = [:]
    var lastEvents: [UInt64: UInt64] = [:]
    func rebuild(_ source: UInt64, at sequence: UInt64) {
        guard let state = try? reader.state(of: source, at: sequence) else { return }
        if let previous = previousStates[source] {
            _ = DiffRenderer().lines(from: previous, to: state)
        }
        previousStates[source] = state
    }
    var seen = 0
    for event in reader.events() {
        _ = event.rowText(valueLimit: 80)
        lastEvents[event.source.instanceID] = event.sequence
        seen += 1
        if seen <= statefulEvents { rebuild(event.source.instanceID, at: event.sequence) }
    }
    for (source, sequence) in lastEvents { rebuild(source, at: sequence) }
    // Block summaries, and a query that passes over the blocks they rule out.
    JournalFuzzing.judgeEveryBlock(of: reader, condition)
    _ = Array(reader.steps(where: condition).prefix(4))
    if let last = reader.sequenceRange?.upperBound { _ = try? reader.event(sequence: last) }
    // Without an index the reader has already walked every block as verify would.
    if reader.hasIndex { _ = try? reader.verify() }
}

if CommandLine.arguments.count >= 3, CommandLine.arguments[1] == "seeds" {
    let output = CommandLine.arguments[2]
    for journal in CommandLine.arguments.dropFirst(3) {
        let name = URL(fileURLWithPath: journal).deletingPathExtension().lastPathComponent
        for (number, payload) in try JournalFuzzing.payloads(ofJournalAt: journal).enumerated() {
            let seed = Data([0]) + Data(payload)
            try seed.write(to: URL(fileURLWithPath: "\(output)/\(name)-block\(number).payload"))
        }
        for (number, payload) in try JournalFuzzing.summaryPayloads(ofJournalAt: journal).enumerated() {
            let seed = Data([1]) + Data(payload)
            try seed.write(to: URL(fileURLWithPath: "\(output)/\(name)-summary\(number).payload"))
        }
    }
    exit(0)
}

let descriptor = open(inputPath, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0o600)
guard descriptor >= 0 else {
    FileHandle.standardError.write(Data("rewind-fuzz: cannot create \(inputPath)\n".utf8))
    exit(2)
}

// Payload inputs (mode byte 0) are also mutated as structures: records repeated thousands of
// times, trees deepened by hundreds of levels or widened to a million values, diffs reordered or
// turned into addition/removal pairs, diff paths made deep — what byte flips never reach.
RewindSetStructureMutator { data, size, maxSize, seed in
    guard let data, size > 1, data[0] == 0 else { return 0 }
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let mutated = JournalFuzzing.mutatedPayload(payload, seed: seed, maximumSize: maxSize - 1), !mutated.isEmpty else { return 0 }
    mutated.withUnsafeBytes { (data + 1).update(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: mutated.count) }
    return mutated.count + 1
}

var arguments = CommandLine.arguments.map { strdup($0) } + [nil]
var argumentCount = Int32(CommandLine.arguments.count)
let status = arguments.withUnsafeMutableBufferPointer { buffer -> Int32 in
    var argv = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argumentCount, &argv) { data, size in
        guard let data, size > 0 else { return 0 }
        let input = UnsafeBufferPointer(start: data, count: size)
        if input[0] == 1 {
            JournalFuzzing.readSummary(payload: Array(input.dropFirst()))
            return 0
        }
        let file = input[0] == 0x89 ? Array(input) : JournalFuzzing.journal(wrappingPayload: Array(input.dropFirst()))
        ftruncate(descriptor, 0)
        _ = file.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        exercise(inputPath)
        return 0
    }
}
unlink(inputPath)
exit(status)
