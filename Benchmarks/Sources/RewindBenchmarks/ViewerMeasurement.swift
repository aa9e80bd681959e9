import Foundation
@_spi(Tooling) import Rewind
import RewindViewer

/// The viewer on a large journal, as a user drives it: open and draw the first frame, step, jump,
/// search, and step with every dispatch folded. Each redraw is the update, the reads its commands
/// ask for, and rendering the whole frame.
enum ViewerMeasurement {
    struct Result: Codable {
        var journalEvents: Int
        var firstFrameMilliseconds: Double
        var stepP50Milliseconds: Double
        var stepMaxMilliseconds: Double
        var jumpP50Milliseconds: Double
        var jumpMaxMilliseconds: Double
        var searchMilliseconds: Double
        var searchCountMilliseconds: Double
        var foldedStepP50Milliseconds: Double
        var peakResidentMegabytes: Double
    }

    static func run(path: String) throws -> Result {
        func milliseconds(since start: UInt64) -> Double { Double(EventTime.monotonicNow() - start) / 1e6 }
        func timed(_ keys: [Key], _ program: ViewerProgram) -> Double {
            let start = EventTime.monotonicNow()
            for key in keys { program.press(key, background: false) }
            _ = program.frame()
            return milliseconds(since: start)
        }
        let opened = EventTime.monotonicNow()
        let timeline = Timeline(reader: try JournalReader(path: path))
        let program = ViewerProgram(timeline: timeline, model: ViewerModel(width: 200, height: 60, colors: true, title: path))
        _ = program.frame()
        let firstFrame = milliseconds(since: opened)

        let steps = (0..<300).map { _ in timed([.right], program) }.sorted()
        var generator = SystemRandomNumberGenerator()
        let range = timeline.reader.sequenceRange!
        let jumps = (0..<50).map { _ in
            let target = UInt64.random(in: range, using: &generator)
            return timed([Key.character(":")] + String(target).map { Key.character($0) } + [.enter], program)
        }.sorted()
        // A search that has to read forward through the whole journal (the word occurs nowhere;
        // blocks whose string tables lack it are skipped): the time to the frame that answers. The
        // match count it starts runs between keys afterwards and is timed on its own.
        program.press(.character("g"))
        let search = timed([Key.character("/")] + "released".map { Key.character($0) } + [.enter], program)
        let countStart = EventTime.monotonicNow()
        program.finishBackgroundWork()
        let count = milliseconds(since: countStart)
        // Folded: every step crosses a group (the counter's commits are not dispatches, so this
        // measures what asking about groups costs where there are none to fold).
        program.press(.character("g"))
        program.press(.character("z"))
        let folded = (0..<300).map { _ in timed([.right], program) }.sorted()

        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Result(
            journalEvents: timeline.count, firstFrameMilliseconds: firstFrame,
            stepP50Milliseconds: steps[steps.count / 2], stepMaxMilliseconds: steps.last!,
            jumpP50Milliseconds: jumps[jumps.count / 2], jumpMaxMilliseconds: jumps.last!,
            searchMilliseconds: search, searchCountMilliseconds: count, foldedStepP50Milliseconds: folded[folded.count / 2],
            peakResidentMegabytes: Double(usage.ru_maxrss) / 1024
        )
    }
}
