import Foundation
import Rewind
import RewindViewer

/// The viewer on a large journal, as a user drives it: open and draw the first frame, step, jump,
/// search. Each redraw is the update plus rendering the whole frame.
enum ViewerMeasurement {
    struct Result: Codable {
        var journalEvents: Int
        var firstFrameMilliseconds: Double
        var stepP50Milliseconds: Double
        var stepMaxMilliseconds: Double
        var jumpP50Milliseconds: Double
        var jumpMaxMilliseconds: Double
        var searchMilliseconds: Double
        var peakResidentMegabytes: Double
    }

    static func run(path: String) throws -> Result {
        func milliseconds(since start: UInt64) -> Double { Double(EventTime.monotonicNow() - start) / 1e6 }
        let opened = EventTime.monotonicNow()
        let timeline = Timeline(reader: try JournalReader(path: path))
        var model = ViewerModel(width: 200, height: 60, colors: true, title: path)
        _ = ViewerView.render(model, timeline: timeline)
        let firstFrame = milliseconds(since: opened)

        var steps: [Double] = []
        for _ in 0..<300 {
            let start = EventTime.monotonicNow()
            model.handle(.right, timeline: timeline)
            _ = ViewerView.render(model, timeline: timeline)
            steps.append(milliseconds(since: start))
        }
        var jumps: [Double] = []
        var generator = SystemRandomNumberGenerator()
        let range = timeline.reader.sequenceRange!
        for _ in 0..<50 {
            let target = UInt64.random(in: range, using: &generator)
            let start = EventTime.monotonicNow()
            for key in [Key.character(":")] + String(target).map({ Key.character($0) }) + [Key.enter] {
                model.handle(key, timeline: timeline)
            }
            _ = ViewerView.render(model, timeline: timeline)
            jumps.append(milliseconds(since: start))
        }
        // A search that has to read forward through much of the journal: the reset at its end.
        model.handle(.character("g"), timeline: timeline)
        let searchStart = EventTime.monotonicNow()
        for key in [Key.character("/")] + "released".map({ Key.character($0) }) + [Key.enter] {
            model.handle(key, timeline: timeline)
        }
        _ = ViewerView.render(model, timeline: timeline)
        let search = milliseconds(since: searchStart)

        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        steps.sort()
        jumps.sort()
        return Result(
            journalEvents: timeline.count, firstFrameMilliseconds: firstFrame,
            stepP50Milliseconds: steps[steps.count / 2], stepMaxMilliseconds: steps.last!,
            jumpP50Milliseconds: jumps[jumps.count / 2], jumpMaxMilliseconds: jumps.last!,
            searchMilliseconds: search, peakResidentMegabytes: Double(usage.ru_maxrss) / 1024
        )
    }
}
