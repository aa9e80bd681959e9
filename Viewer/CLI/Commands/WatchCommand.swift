import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each step where a condition holds as a journal being written gets it, until the writer closes it.",
        discussion: """
            For a terminal beside a running app: the steps recorded so far come first, then each new \
            one as the writer flushes it (every 100 ms by default). It ends when the writer closes \
            the journal (exit 0, or 1 when no step matched), when the writer is gone without \
            closing it (it crashed or was killed: no process holds the journal any more), or at \
            Ctrl-C. A journal of format 4 or older says nothing about its writer: watch ends once it \
            has not grown for --idle seconds (60 by default). The condition is the one \
            'rewind query' reads:
              rewind watch session.rewind 'cart.total < 0'
              rewind watch session.rewind 'changed(items) && kind == change' --json
            """
    )

    @Argument(help: "The journal (.rewind file), being written or not.", completion: .file(extensions: ["rewind"])) var file: String
    @Argument(help: "The condition, e.g. 'cart.total < 0'.") var condition: String
    @Option(help: "Only this source's steps: a label, Type#id, a type name or an id.") var source: String?
    @Flag(help: "Write JSON Lines: one object per step.") var json = false
    @Option(help: "For a journal of format 4 or older, end after this many seconds without growth (its writer holds no lock to say it is alive).") var idle: Double = 60
    @OptionGroup var colors: ColorOptions

    func run() throws {
        let parsed: Condition
        do { parsed = try Condition(parsing: condition) } catch { throw CommandFailure(error.description) }
        let reader = try JournalOpening.open(file)
        // A ring is read as the window it holds when opened; following it as it is written (its
        // laps overwrite what was read) is not something watch does.
        if reader.ring != nil {
            throw CommandFailure(
                "\(VisibleText.escaped(file)) is a flight recorder's ring: watch follows a journal as it is written; "
                    + "use 'rewind query' on the ring (its window now) or 'rewind dump'")
        }
        // A source named before it has written anything is looked for again as blocks arrive.
        var sourceID = reader.isClosedByWriter
            ? try source.map { try JournalOpening.source($0, in: reader).instanceID }
            : source.flatMap { try? JournalOpening.source($0, in: reader).instanceID }
        let output = Output(style: colors.style())
        var scan = ConditionScan(parsed)
        guard idle > 0, idle <= 86_400 else { throw CommandFailure("--idle takes a number of seconds, more than 0 and at most 86400") }
        var nextBlock = 0
        var matched = 0
        // Writers of format 5 on hold a lock on their journal while they write.
        let writerLocks = reader.header.formatVersion >= 5
        var quietSince = ContinuousClock.now
        var writerGone = false
        var lockSaidSo = false
        while true {
            while nextBlock < reader.blocks.count {
                defer { nextBlock += 1 }
                // A block whose summary rules the condition out is passed over (a block just
                // written may not have its summary yet: it is read).
                guard reader.mayHold(parsed, inBlock: nextBlock, source: sourceID) else {
                    scan.skip(block: nextBlock, of: reader)
                    continue
                }
                scan.enter(block: nextBlock, of: reader)
                let events: [RecordedEvent]
                do {
                    events = try reader.events(inBlock: nextBlock)
                } catch {
                    reader.recordDamage(blockAt: nextBlock, reason: "the block does not read back")
                    JournalOpening.warnAboutDamage(in: reader)
                    continue
                }
                // The line's columns are made for the sources known now; a source that appears
                // later gets its own name in its line.
                var text = EventText(reader: reader, style: output.style)
                for event in events {
                    guard let step = scan.step(event), source == nil || sourceID == event.source.instanceID else { continue }
                    matched += 1
                    QueryCommand.write(step, json: json, to: output, text: &text)
                }
            }
            output.flush()
            if reader.isClosedByWriter || writerGone { break }
            usleep(100_000)
            let sizeBefore = reader.fileSize
            // Whether a writer is there is asked before the last look at the file, so that what
            // it wrote before it went is read.
            // Where the lock cannot be asked about (a file system without flock), the idle time decides.
            let held = writerLocks ? reader.isHeldByWriter : nil
            reader.refresh()
            if reader.fileSize != sizeBefore { quietSince = .now }
            if !reader.isClosedByWriter, held.map({ !$0 }) ?? (ContinuousClock.now - quietSince > .milliseconds(Int64(idle * 1000))) {
                writerGone = true
                lockSaidSo = held != nil
            }
            if sourceID == nil, let source { sourceID = try? JournalOpening.source(source, in: reader).instanceID }
        }
        let steps = "\(matched) step\(matched == 1 ? "" : "s") matched"
        if reader.isClosedByWriter {
            Output.error("the writer closed \(VisibleText.escaped(file)): \(steps)")
        } else if lockSaidSo {
            Output.error("the writer of \(VisibleText.escaped(file)) is gone without closing it (it crashed or was killed): \(steps)")
        } else {
            Output.error("\(VisibleText.escaped(file)) has not grown for \(idle.formatted()) s and nothing says its writer is there: \(steps)")
        }
        if matched == 0 { throw ExitCode(ExitStatus.no) }
    }
}
