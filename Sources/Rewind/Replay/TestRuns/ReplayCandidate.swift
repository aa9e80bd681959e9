import Foundation

/// A reduced recording `rewind shrink` asks a test run to replay in place of the one the test
/// names: the test helpers replay `candidate` whenever a test replays `recording`, as the shrink
/// judges it, and report the outcome (``ReplayOutcome``).
///
/// It travels in the environment variable `REWIND_REPLAY_CANDIDATE`, as JSON.
package struct ReplayCandidate: Codable, Sendable, Equatable {
    /// The recording being shrunk.
    package var recording: String
    /// The reduced recording to replay instead.
    package var candidate: String
    /// Whether live states are held to the recorded ones (a divergence's shrink) or only the
    /// invariants judge (a broken invariant's).
    package var comparingStates: Bool
    /// Where to re-record the candidate from the live units, instead of checking it: how the
    /// shrunk recording of a broken invariant is written.
    package var recordingTo: String?

    /// The environment variable that carries it.
    package static let environmentVariable = "REWIND_REPLAY_CANDIDATE"

    /// Relative paths are taken from the working directory: the test run may have another.
    package init(recording: String, candidate: String, comparingStates: Bool, recordingTo: String? = nil) {
        func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardized.path }
        self.recording = absolute(recording)
        self.candidate = absolute(candidate)
        self.comparingStates = comparingStates
        self.recordingTo = recordingTo.map(absolute)
    }

    /// The candidate the environment names for `journal`, if it names one for it.
    package static func forJournal(_ journal: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> ReplayCandidate? {
        guard let text = environment[environmentVariable],
              let candidate = try? JSONDecoder().decode(ReplayCandidate.self, from: Data(text.utf8)),
              FileKind.areSameFile(candidate.recording, journal) else { return nil }
        return candidate
    }

    /// The environment entry that carries it.
    package var environmentValue: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
