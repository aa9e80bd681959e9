import ArgumentParser
@_spi(Tooling) import Rewind

struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Write a clean journal holding everything salvageable, and say what was lost.",
        discussion: "Example:  rewind recover Fixtures/counter-torn-tail.rewind -o recovered.rewind"
    )

    @Argument(help: "The damaged journal.", completion: .file(extensions: ["rewind"])) var file: String
    @Option(name: .shortAndLong, help: "Where to write the clean journal.", completion: .file(extensions: ["rewind"])) var output: String

    func run() throws {
        try JournalOpening.refuseToOverwrite(file, with: output)
        let reader = try JournalOpening.open(file, warnAboutDamage: false)
        let lost: JournalVerification
        do { lost = try reader.verify() } catch { throw CommandFailure(error) }
        do { _ = try reader.recover(to: output) } catch { throw CommandFailure("\(error)") }
        let out = Output()
        out.line("wrote \(VisibleText.escaped(output)): \(lost.goodEvents) events in \(lost.goodBlocks) blocks")
        if lost.damage.isEmpty {
            out.line("nothing was lost" + (lost.indexProblem == nil ? "" : " (the index was rebuilt)"))
        } else {
            for damage in lost.damage { out.line("lost: \(damage)") }
        }
    }
}
