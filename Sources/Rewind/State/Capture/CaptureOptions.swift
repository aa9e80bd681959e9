/// How ``StateCapture`` turns values into ``StateValue`` trees.
public struct CaptureOptions: Sendable {
    /// Which fields are replaced before any logger sees them.
    public var redaction: Redaction
    /// How deep a tree may grow; anything deeper becomes an opaque leaf. This bounds the work done
    /// for pathological values (very deep linked lists) without hiding ordinary nesting.
    public var maximumDepth: Int
    /// Numbers the values secrets take, when set (a journal sets its own): see ``SecretVersions``.
    var secretVersions: SecretVersions?
    /// Whether ``Secret`` values are captured as what they wrap: only for telling a secret's
    /// versions apart, never for a tree anyone sees.
    private(set) var revealsSecrets = false

    /// Creates capture options.
    public init(redaction: Redaction = .current, maximumDepth: Int = 64) {
        self.redaction = redaction
        self.maximumDepth = maximumDepth
    }

    /// Options that capture even ``Secret`` values, for ``SecretVersions``' digests.
    init(redaction: Redaction, maximumDepth: Int, revealingSecrets: Bool) {
        self.init(redaction: redaction, maximumDepth: maximumDepth)
        self.revealsSecrets = revealingSecrets
    }

    /// The options in force for the process: the current redaction rules and the default depth.
    public static var current: CaptureOptions { CaptureOptions() }
}
