import RewindSamples
import RewindTesting
import XCTest

/// The XCTest form of the replay helper, as an XCTest user writes it.
final class XCTestReplayHelperTests: XCTestCase {
    func testCounterSessionStillReplays() {
        let report = XCTAssertReplay(of: "Fixtures/counter.rewind", driving: ["CounterSample": CounterSample().replayTarget])
        XCTAssertEqual(report?.inputsReplayed, 14)
        XCTAssertNil(report?.divergence)
    }
}
