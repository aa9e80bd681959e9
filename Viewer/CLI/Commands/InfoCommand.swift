import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarise a journal: format, writer, sources, events, time span, sizes, integrity.",
        discussion: "Example:  rewind info Fixtures/todo.rewind --json | jq .sources"
    )

    @OptionGroup var journal: JournalArgument
    var file: String { journal.file }
    @Flag(help: "Write the summary as one JSON object.") var json = false

    func run() throws {
        let reader = try JournalOpening.open(file)
        let output = Output()
        let sizes = reader.payloadSizes
        let span = reader.timeSpan
        // The same check as `rewind verify`: every block read, the index compared with them. The
        // index alone cannot tell whether the blocks it lists are intact.
        let verification: JournalVerification
        do { verification = try reader.verify() } catch { throw CommandFailure(error) }
        let integrity = Self.integrity(verification)
        if json {
            output.line(
                CommandJSON.object { object in
                    object.field("file", file)
                    object.field("format_version", reader.header.formatVersion)
                    object.field("writer", reader.header.writerVersion)
                    object.field("created", EventTime.iso8601(wallNanoseconds: reader.header.createdWallNanoseconds))
                    object.field("recording_id", reader.header.recordingIDString)
                    object.field("app_version", reader.header.appVersion)
                    object.field("events", reader.eventCount)
                    object.field("first_seq", reader.sequenceRange?.lowerBound)
                    object.field("last_seq", reader.sequenceRange?.upperBound)
                    object.field("first_time", span.map { EventTime.iso8601(wallNanoseconds: $0.lowerBound) })
                    object.field("last_time", span.map { EventTime.iso8601(wallNanoseconds: $0.upperBound) })
                    object.field("file_bytes", reader.ring?.size ?? reader.fileSize)
                    object.field("blocks", reader.blocks.count)
                    object.field("compressed_bytes", sizes.compressed)
                    object.field("uncompressed_bytes", sizes.uncompressed)
                    object.field("has_index", reader.hasIndex)
                    object.field("clean", verification.isClean)
                    object.field("integrity", integrity)
                    object.raw("damage", CommandJSON.array(verification.damage.map(CommandJSON.damage)))
                    object.raw("ring", reader.ring.map(Self.json(ring:)) ?? "null")
                    object.raw("dump", reader.header.dump.map(CommandJSON.dump) ?? "null")
                    object.raw(
                        "sources",
                        "["
                            + reader.sources.map { summary in
                                JSONText.object {
                                    $0.field("id", summary.source.instanceID)
                                    $0.field("framework", summary.source.framework)
                                    $0.field("type", summary.source.typeName)
                                    $0.field("label", summary.source.label)
                                    $0.field("events", summary.eventCount)
                                    $0.field("first_seq", summary.sequences.lowerBound)
                                    $0.field("last_seq", summary.sequences.upperBound)
                                }
                            }.joined(separator: ",") + "]")
                })
            return
        }
        let ratio = sizes.compressed > 0 ? String(format: "%.1f×", Double(sizes.uncompressed) / Double(sizes.compressed)) : "—"
        output.line("File        \(VisibleText.escaped(file)) (\(Self.bytes(reader.ring?.size ?? reader.fileSize)))")
        output.line("Format      version \(reader.header.formatVersion), written by Rewind \(VisibleText.escaped(reader.header.writerVersion))")
        output.line("Created     \(EventTime.iso8601(wallNanoseconds: reader.header.createdWallNanoseconds))")
        output.line("Recording   \(reader.header.recordingIDString)" + (reader.header.appVersion.map { ", app version \(VisibleText.escaped($0))" } ?? ""))
        if let ring = reader.ring {
            let state =
                if ring.wasClosed {
                    "closed"
                } else if let signal = ring.crashSignal {
                    "its process died of \(CrashMarks.name(of: signal))"
                } else {
                    "open (its process is running, or ended without closing it)"
                }
            output.line("Ring        a flight recorder's ring: \(ring.blockCount) blocks survive, read as the journal below; \(state)")
        }
        if let dump = reader.header.dump {
            output.line("Dump        \(VisibleText.escaped(dump.summary)), made \(EventTime.iso8601(wallNanoseconds: dump.dumpedWallNanoseconds))")
        }
        if let range = reader.sequenceRange, let span {
            let seconds = Double(EventTime.wallNanoseconds(from: span.lowerBound, to: span.upperBound)) / 1e9
            output.line("Events      \(reader.eventCount) (steps \(range.lowerBound)–\(range.upperBound)) over \(String(format: "%.3f", seconds)) s")
            output.line("Time        \(EventTime.iso8601(wallNanoseconds: span.lowerBound)) – \(EventTime.iso8601(wallNanoseconds: span.upperBound))")
        } else {
            output.line("Events      0")
        }
        output.line("Blocks      \(reader.blocks.count): \(Self.bytes(sizes.compressed)) compressed, \(Self.bytes(sizes.uncompressed)) uncompressed (\(ratio))")
        output.line("Integrity   \(integrity)")
        output.line("Sources")
        for summary in reader.sources {
            let label = summary.source.label.map { " \"\(VisibleText.escaped($0))\"" } ?? ""
            output.line(
                "  #\(summary.source.instanceID)  \(VisibleText.padded(VisibleText.escaped(summary.source.framework), to: 9)) \(VisibleText.padded(VisibleText.escaped(summary.source.typeName) + label, to: 20)) \(summary.eventCount) events (steps \(summary.sequences.lowerBound)–\(summary.sequences.upperBound))"
            )
        }
    }

    /// What a flight recorder's ring holds, as `info --json`'s `ring`.
    static func json(ring: RingWindow) -> String {
        JSONText.object {
            $0.field("size_bytes", ring.size)
            $0.field("blocks", ring.blockCount)
            $0.field("closed", ring.wasClosed)
            $0.field("crash_signal", ring.crashSignal.map { UInt64(UInt32(bitPattern: $0)) })
            $0.field("skipped_regions", ring.skippedRegions)
        }
    }

    /// One line on the journal's integrity, agreeing with `rewind verify`.
    static func integrity(_ verification: JournalVerification) -> String {
        if verification.isClean { return "clean (every block checked)" }
        let lost = verification.lostEventCount
        if !verification.damage.isEmpty {
            let count = verification.damage.count
            return "damaged: \(count) region\(count == 1 ? "" : "s") unreadable, \(lost) events lost; run 'rewind verify'"
        }
        if let problem = verification.indexProblem { return "blocks intact; \(problem)" }
        let count = verification.unbuildableStates.count
        return "blocks intact; \(count) step\(count == 1 ? "'s" : "s'") state cannot be rebuilt; run 'rewind verify'"
    }

    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1024: "\(count) B"
        case ..<(1024 * 1024): String(format: "%.1f KiB", Double(count) / 1024)
        default: String(format: "%.1f MiB", Double(count) / 1_048_576)
        }
    }
}
