import Flask
@_spi(Tooling) import Rewind
import ReadmeChecking
import RewindSamples
import RewindTesting
import Testing

extension FlaskTests {
    @Suite("Replaying Flask sessions")
    struct ReplayTests {
        @Test("Flask: mixers replay with their payloads; chained mixes are put back as recorded")
        func flask() throws {
            let app = FlaskSample.AppReactiveSubstance(name: "app")
            let feed = Flask.newSubstance(definedBy: FlaskSample.FeedState.self, named: "feed")
            let profile = Flask.newSubstance(definedBy: FlaskSample.ProfileState.self, named: "profile")
            let report = try #require(expectReplay(of: "Fixtures/flask.rewind", driving: [
                "app": app.replayTarget, "feed": feed.replayTarget, "profile": profile.replayTarget,
            ], allowRestoring: true))
            #expect(report.inputsReplayed == 4, "four mixer applications (one aborted)")
            // The chained mix (of feed and of profile) and the rollback ran closures.
            #expect(report.restoredSteps.map { "\($0.source) \($0.event)" } == ["feed didMutate mix", "profile didMutate mix", "feed didMutate rollback"])
            #expect(report.restoredSteps.allSatisfy { $0.reason == .notReproduced && !$0.paths.isEmpty })
            let article = try DocumentedCode.article("ReplayingASession")
            #expect(article.contains("Fixtures/flask.rewind: \(report)"), "ReplayingASession.md should show:\n\(report)")
            #expect(app.state.title == "signed in as grace" && app.state.counter == 2)
        }

        @Test("a substance restored at any recorded step has the recorded state")
        func restoreAtEveryStep() throws {
            let replay = try Replay(journal: "Fixtures/flask.rewind")
            let feed = Flask.newSubstance(definedBy: FlaskSample.FeedState.self, named: "feed")
            let summary = try #require(replay.reader.sources.first { $0.source.label == "feed" })
            for step in summary.sequences {
                guard let recorded = try replay.reader.state(of: summary.source.instanceID, at: step) else { continue }
                try replay.restore(feed.replayTarget, to: step, of: "feed")
                #expect(feed.replayTarget.currentState() == recorded, "step \(step)")
            }
        }
    }
}
