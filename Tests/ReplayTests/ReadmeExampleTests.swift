import Foundation
import ReadmeChecking
import Rewind
import RewindSamples
import RewindTesting
import Testing

// The README's replay example, compiled and run here; a test below checks that the README's code
// blocks appear in this file line for line (in order).

@Test func ricemillSessionStillReplays() {
    expectReplay(of: "Fixtures/ricemill.rewind", driving: ["RicemillCounterSample": RicemillCounterSample().replayTarget])
}

struct CounterStore: Decodable { let count: Int }

@Test func ricemillSessionKeepsItsInvariant() {
    expectReplay(
        of: "Fixtures/ricemill.rewind", driving: ["RicemillCounterSample": RicemillCounterSample().replayTarget],
        invariants: [ReplayInvariant("the count is never negative") { (store: CounterStore) in store.count >= 0 }],
        printReport: true
    )
}

@Test("every Swift block of the README's replay section is in this file, line for line, in order")
func replayReadmeMatchesThisFile() throws {
    try DocumentedCode.expectBlocks(ofArticle: "ReplayingASession", appearIn: #filePath)
}

@Test("every Swift block of the README's OpenTelemetry section is in the OpenTelemetry package's test, which CI builds and runs")
func openTelemetryReadmeMatchesItsTest() throws {
    let test = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("OpenTelemetry/Tests/RewindOpenTelemetryTests/OpenTelemetryLoggerTests.swift").path
    try DocumentedCode.expectBlocks(ofArticle: "OpenTelemetry", appearIn: test)
}
