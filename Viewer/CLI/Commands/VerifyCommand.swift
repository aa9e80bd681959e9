import ArgumentParser
@_spi(Tooling) import Rewind

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every block and the index; exit 1 with the damaged byte and step ranges.",
        discussion: "Example:  rewind verify Fixtures/todo-flipped-byte.rewind; echo $?"
    )

    @OptionGroup var journal: JournalArgument
    var file: String { journal.file }
    @Flag(help: "Write the report as one JSON object (the exit code is the same).") var json = false
    @Flag(help: "Also fold every step's state and hold each block's summary against it (several times slower).") var deep = false

    func run() throws {
        let reader = try JournalOpening.open(file, warnAboutDamage: false)
        let report: JournalVerification
        do { report = try reader.verify(holdingSummaries: deep) } catch { throw CommandFailure(error) }
        let output = Output()
        if json {
            output.line(Self.json(report, file: file))
            output.flush()
            if !report.isClean { throw ExitCode(ExitStatus.no) }
            return
        }
        let name = VisibleText.escaped(file)
        if report.isClean {
            let summaries = report.summariesChecked ? ", every block summary true to its steps" : ""
            output.line("\(name): clean — \(report.goodBlocks) blocks, \(report.goodEvents) events, index present\(summaries)")
            return
        }
        output.line("\(name): damaged")
        for damage in report.damage { output.line("  \(damage)") }
        if let problem = report.indexProblem { output.line("  index: \(problem)") }
        for problem in report.unbuildableStates.prefix(20) { output.line("  state: \(VisibleText.escaped(problem.description))") }
        if report.unbuildableStates.count > 20 { output.line("  state: \(report.unbuildableStates.count - 20) more steps whose state cannot be rebuilt") }
        for untrue in report.untrueSummaries.prefix(20) { output.line("  summary: \(VisibleText.escaped(untrue.description))") }
        if report.untrueSummaries.count > 20 { output.line("  summary: \(report.untrueSummaries.count - 20) more untrue block summaries") }
        output.line("  readable: \(report.goodBlocks) blocks, \(report.goodEvents) events; 'rewind recover \(name) -o OUT' writes a clean copy")
        output.flush()
        throw ExitCode(ExitStatus.no)
    }

    /// `{"schema_version", "file", "clean", "blocks", "events", "lost_events", "damage": […],
    /// "index_problem", "unbuildable_states": [{"seq", "source", "reason"}], "summaries_checked",
    /// "untrue_summaries": [{"block_offset", "seq", "source", "reason"}]}`.
    static func json(_ report: JournalVerification, file: String) -> JSONText.Object {
        CommandJSON.object { object in
            object.field("file", file)
            object.field("clean", report.isClean)
            object.field("blocks", report.goodBlocks)
            object.field("events", report.goodEvents)
            object.field("lost_events", report.lostEventCount)
            object.raw("damage", CommandJSON.array(report.damage.map(CommandJSON.damage)))
            object.field("index_problem", report.indexProblem)
            object.raw("unbuildable_states", CommandJSON.array(report.unbuildableStates.map { problem in
                JSONText.object {
                    $0.field("seq", problem.sequence)
                    $0.field("source", problem.source)
                    $0.field("reason", problem.reason)
                }
            }))
            object.field("summaries_checked", report.summariesChecked)
            object.raw("untrue_summaries", CommandJSON.array(report.untrueSummaries.map { untrue in
                JSONText.object {
                    $0.field("block_offset", untrue.blockOffset)
                    $0.field("seq", untrue.sequence)
                    $0.field("source", untrue.source)
                    $0.field("reason", untrue.reason)
                }
            }))
        }
    }
}
