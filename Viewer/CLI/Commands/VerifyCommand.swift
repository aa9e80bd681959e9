import ArgumentParser
import Rewind

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every block and the index; exit 1 with the damaged byte and step ranges.",
        discussion: "Example:  rewind verify Fixtures/todo-flipped-byte.rewind; echo $?"
    )

    @Argument(help: "The journal (.rewind file).", completion: .file(extensions: ["rewind"])) var file: String

    func run() throws {
        let reader = try JournalOpening.open(file, warnAboutDamage: false)
        let report: JournalVerification
        do { report = try reader.verify() } catch { throw CommandFailure(error) }
        let output = Output()
        let name = VisibleText.escaped(file)
        if report.isClean {
            output.line("\(name): clean — \(report.goodBlocks) blocks, \(report.goodEvents) events, index present")
            return
        }
        output.line("\(name): damaged")
        for damage in report.damage { output.line("  \(damage)") }
        if let problem = report.indexProblem { output.line("  index: \(problem)") }
        for problem in report.unbuildableStates.prefix(20) { output.line("  state: \(VisibleText.escaped(problem.description))") }
        if report.unbuildableStates.count > 20 { output.line("  state: \(report.unbuildableStates.count - 20) more steps whose state cannot be rebuilt") }
        output.line("  readable: \(report.goodBlocks) blocks, \(report.goodEvents) events; 'rewind recover \(name) -o OUT' writes a clean copy")
        output.flush()
        throw ExitCode(ExitStatus.no)
    }
}
