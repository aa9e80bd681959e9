/// How a replay failed, as a shrink holds on to it: a reduced recording must fail the same way —
/// the same invariant broken in the same unit, or a divergence of the same unit at the same state
/// path — or the reduction is not kept. A shrink holds a divergence to more than this: the same
/// recorded input and the same difference.
///
/// A unit is named by its label or type, not its instance number: a recording written again (a
/// shrunk one) numbers its units afresh.
///
/// ```swift
/// let failure = ReplayFailure(replay.run())   // .divergence(path: "count", source: "Counter")
/// ```
public enum ReplayFailure: Sendable, Equatable, Codable, CustomStringConvertible {
    /// An invariant, by its description, broken by a unit's live state.
    case brokenInvariant(String, source: String)
    /// A unit's live state differed from the recorded one at this path (the first that differed).
    case divergence(path: String, source: String)

    /// The failure `report` ends with; `nil` when the replay passed.
    package init?(_ report: ReplayReport) {
        if let violation = report.invariantViolation {
            self = .brokenInvariant(violation.invariant, source: Self.unit(violation.source))
        } else if let divergence = report.divergence {
            let path = divergence.difference.leadingPath?.description ?? ""
            self = .divergence(path: path, source: Self.unit(divergence.source))
        } else {
            return nil
        }
    }

    /// `Cart` for `Cart#12`; a label as it is.
    static func unit(_ source: String) -> String {
        guard let mark = source.lastIndex(of: "#"), source.index(after: mark) < source.endIndex,
              source[source.index(after: mark)...].allSatisfy(\.isASCII), source[source.index(after: mark)...].allSatisfy(\.isNumber)
        else { return source }
        return String(source[..<mark])
    }

    /// Whether `report` ends with this failure: the same invariant broken in the same unit, or a
    /// divergence of the same unit whose differences include this path.
    package func isReproduced(by report: ReplayReport) -> Bool {
        isReproduced(byFailure: ReplayFailure(report), divergentPaths: report.divergence?.difference.changedPaths.map(\.description) ?? [])
    }

    /// Whether a replay that ended with `other` — differing at `divergentPaths` when it diverged —
    /// ended with this failure: the one rule for a report here and an outcome a test run sent back.
    func isReproduced(byFailure other: ReplayFailure?, divergentPaths: [String]) -> Bool {
        switch (self, other) {
        case (.brokenInvariant, .brokenInvariant?): self == other
        case (.divergence(let path, let source), .divergence(_, let divergedSource)?): source == divergedSource && divergentPaths.contains(path)
        default: false
        }
    }

    /// `invariant 'quantity is never negative' broken in Cart#1`, `divergence at count in Counter#1`.
    public var description: String {
        switch self {
        case .brokenInvariant(let invariant, let source):
            "invariant \(invariant.isEmpty ? "" : "'\(invariant)' ")broken in \(source)"
        case .divergence(let path, let source):
            "divergence at \(path.isEmpty ? "the state's root" : path) in \(source)"
        }
    }
}
