import ArgumentParser
import Foundation
import Rewind
import RewindSamples

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Record the sample view models through a scripted session and open the viewer on it.",
        discussion: "Example:  rewind demo -o demo.rewind && rewind log demo.rewind --kind activity"
    )

    @Option(name: .shortAndLong, help: "Where to write the journal (default: a file in the temporary directory).", completion: .file(extensions: ["rewind"])) var output: String?
    @Option(help: "Only these samples, comma-separated: \(DemoSession.Sample.allCases.map(\.rawValue).joined(separator: ", ")).") var sample: String?
    @Flag(help: "Fixed times, steps and instance numbers, so the file is byte-identical every time (for fixtures).") var deterministic = false
    @OptionGroup var colors: ColorOptions

    func run() throws {
        var samples = DemoSession.Sample.allCases
        if let sample {
            samples = try sample.split(separator: ",").map { name in
                guard let chosen = DemoSession.Sample(rawValue: String(name)) else {
                    throw CommandFailure("unknown sample '\(VisibleText.escaped(String(name)))'; samples are: \(DemoSession.Sample.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return chosen
            }
        }
        let path = output ?? (NSTemporaryDirectory() + "rewind-demo-\(getpid()).rewind")
        do { try DemoSession.record(samples, to: path, deterministic: deterministic) } catch { throw CommandFailure(error.description) }
        let out = Output()
        if isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 {
            try ViewCommand.open(path, colors: colors)
            // The recording outlives the viewer: say where it is, so it can be opened again.
            out.line("the recording is \(path)  (open it again with: rewind \(path))")
            return
        }
        out.line("recorded \(samples.map(\.rawValue).joined(separator: " and ")) into \(path)")
        out.line("open it in a terminal with:  rewind \(path)   (or: rewind log \(path), rewind show \(path) --at 20)")
    }
}
