import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind
import RewindSamples

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Record the sample view models through a scripted session and open the viewer on it.",
        discussion: "Example:  rewind demo -o demo.rewind && rewind log demo.rewind --kind activity"
    )

    @Option(name: .shortAndLong, help: "Where to keep the journal (default: not kept — recorded in the temporary directory and removed when the demo ends).", completion: .file(extensions: ["rewind"])) var output: String?
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
        // Without -o the recording is not kept: a demo run every day would fill the temporary
        // directory. It is made in a directory of its own, which goes with it (and the viewer's
        // search filters beside it).
        let directory = output == nil ? try PrivateDirectory.make("rewind-demo") : nil
        let path = output ?? directory! + "/demo.rewind"
        defer {
            if let directory { try? FileManager.default.removeItem(atPath: directory) }
        }
        do { try DemoSession.record(samples, to: path, deterministic: deterministic) } catch { throw CommandFailure(error.description) }
        let out = Output()
        let rewind = Invocation.command
        let names = samples.map(\.rawValue).joined(separator: " and ")
        if isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 {
            try ViewCommand.open(path, colors: colors)
            if output != nil {
                out.line("the recording is \(path)  (open it again with: \(rewind) \(path))")
            } else {
                out.line("the recording was not kept; keep it with: \(rewind) demo -o demo.rewind")
            }
            return
        }
        if output != nil {
            out.line("recorded \(names) into \(path)")
            out.line("open it in a terminal with:  \(rewind) \(path)   (or: \(rewind) log \(path), \(rewind) show \(path) --at 20)")
        } else {
            out.line("recorded \(names), and did not keep it: add -o demo.rewind to keep it")
            out.line("then open it in a terminal with:  \(rewind) demo.rewind   (or: \(rewind) log demo.rewind)")
        }
    }
}
