/// A value handed to the loggers as it was, not yet converted into a tree.
///
/// Swift values are copy-on-write, so keeping one costs a reference count, not a copy: the caller's
/// thread only wraps the value, and a logger converts it (``tree(options:)``) where conversion is
/// cheap to afford — on the journal's background writer, for instance.
public struct CapturedValue: @unchecked Sendable {
    // Unchecked: the wrapped value is only ever read after it is captured. Value types are safe to
    // read from another thread because the captured copy is immutable; a state that holds class
    // instances is read while its owner may mutate it, the same caveat as with any logger that runs
    // off the caller's thread, and it is documented on `JournalLogger`.

    /// The value itself.
    public let value: Any

    /// Wraps a value.
    @inline(__always)
    public init(_ value: Any) {
        self.value = value
    }

    /// The value as a ``StateValue`` tree, with secrets redacted.
    public func tree(options: CaptureOptions = .current) -> StateValue {
        StateCapture.capture(value, options: options)
    }
}
