import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

/// Opening a journal the way every command does: errors become one line and exit 2; a damaged
/// journal opens with a warning line on standard error and shows what survived.
enum JournalOpening {
    static func open(_ path: String, warnAboutDamage: Bool = true) throws -> JournalReader {
        let reader: JournalReader
        do {
            reader = try JournalReader(path: path)
        } catch {
            throw CommandFailure(error)
        }
        if warnAboutDamage { Self.warnAboutDamage(in: reader) }
        return reader
    }

    /// Says on standard error that the journal is damaged, once the damage is known: a journal with
    /// an index reveals a bad block only when it is read, so commands that read call this again
    /// at the end; damage already reported is not repeated.
    static func warnAboutDamage(in reader: JournalReader) {
        let count = reader.damage.count
        guard count > reported[ObjectIdentifier(reader), default: 0] else { return }
        reported[ObjectIdentifier(reader)] = count
        let path = VisibleText.escaped(reader.path)
        Output.error("warning: \(path) is damaged (\(count) region\(count == 1 ? "" : "s"), \(reader.lostEventCount) events lost); showing what survived — run 'rewind verify \(path)' for details")
    }

    /// Refuses an output path that is the input journal under any name (the same path, another
    /// spelling of it, a link to it): writing would empty the journal before it is read.
    static func refuseToOverwrite(_ input: String, with output: String) throws {
        if FileKind.areSameFile(input, output) {
            throw CommandFailure("\(VisibleText.escaped(output)) is the journal being read; write to another file")
        }
    }

    /// How much damage has been reported per open journal. The command line is single-threaded.
    nonisolated(unsafe) private static var reported: [ObjectIdentifier: Int] = [:]

    /// The source a `--source` option names: a label, `Type#id`, a type name or an instance number.
    static func source(_ text: String, in reader: JournalReader) throws -> RecordedSource {
        let sources = reader.sources.map(\.source)
        let matches = sources.filter { $0.matches(text) }
        let names = sources.map { VisibleText.escaped($0.description) }.joined(separator: ", ")
        guard !matches.isEmpty else {
            throw CommandFailure("unknown source '\(VisibleText.escaped(text))'; the journal has: \(names)")
        }
        guard matches.count == 1 else {
            throw CommandFailure("'\(VisibleText.escaped(text))' matches several sources (\(matches.map(\.description).joined(separator: ", "))); name one as Type#id")
        }
        return matches[0]
    }

    /// A step number that must be in the journal.
    static func step(_ step: UInt64, in reader: JournalReader) throws -> RecordedEvent {
        guard let range = reader.sequenceRange else { throw CommandFailure("the journal has no events") }
        do {
            if let event = try reader.event(sequence: step) { return event }
        } catch {
            throw CommandFailure(error)
        }
        guard range.contains(step) else {
            throw CommandFailure("step \(step) is out of range: the journal has steps \(range.lowerBound)–\(range.upperBound)")
        }
        throw CommandFailure("step \(step) is not in the journal (it was lost to damage); run 'rewind verify' for details")
    }
}
