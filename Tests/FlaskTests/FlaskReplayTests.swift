import Flask
import Rewind
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
            ]))
            #expect(report.inputsReplayed == 4, "four mixer applications (one aborted)")
            #expect(report.stepsRestored == 3, "the chained mix (of feed and of profile) and the rollback ran closures")
            #expect(app.state.title == "signed in as grace" && app.state.counter == 2)
        }
    }
}
