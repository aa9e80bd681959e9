/// The version of Rewind, written into journals by their writer and printed by `rewind --version`.
public enum RewindVersion {
    /// The version as text.
    public static let current = "0.1.0"
}
