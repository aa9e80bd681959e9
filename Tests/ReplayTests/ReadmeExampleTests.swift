import ReadmeChecking
import RewindSamples
import RewindTesting
import Testing

// The README's replay example, compiled and run here; a test below checks that the README's code
// blocks appear in this file line for line (in order).

@Test func ricemillSessionStillReplays() {
    expectReplay(of: "Fixtures/ricemill.rewind", driving: ["RicemillCounterSample": RicemillCounterSample().replayTarget])
}

@Test("every Swift block of the README's replay section is in this file, line for line, in order")
func replayReadmeMatchesThisFile() throws {
    try ReadmeSection.expectBlocks(under: "## Replay a session", appearIn: #filePath)
}
