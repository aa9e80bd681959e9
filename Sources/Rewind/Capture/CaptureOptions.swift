/// How ``StateCapture`` turns values into ``StateValue`` trees.
public struct CaptureOptions: Sendable {
    /// Which fields are replaced before any logger sees them.
    public var redaction: Redaction
    /// How deep a tree may grow; anything deeper becomes an opaque leaf. This bounds the work done
    /// for pathological values (very deep linked lists) without hiding ordinary nesting.
    public var maximumDepth: Int

    /// Creates capture options.
    public init(redaction: Redaction = .current, maximumDepth: Int = 64) {
        self.redaction = redaction
        self.maximumDepth = maximumDepth
    }

    /// The options in force for the process: the current redaction rules and the default depth.
    public static var current: CaptureOptions { CaptureOptions() }
}
