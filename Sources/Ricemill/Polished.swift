@preconcurrency import OpenCombine

/// What ``ResolverType/polish(input:store:extra:)`` returns: the output, and the subscriptions the
/// machine keeps alive for as long as it lives (and cancels when it is released).
public struct Polished<Output> {
    let output: Output?
    let cancellables: [AnyCancellable]
}

extension Polished where Output: StoreType {
    /// A result whose output is the store itself (a ``StoredOutputType``).
    public init(cancellables: [AnyCancellable]) {
        self.output = nil
        self.cancellables = cancellables
    }
}

extension Polished where Output: OutputType {
    /// A result with its own output.
    public init(output: Output, cancellables: [AnyCancellable]) {
        self.output = output
        self.cancellables = cancellables
    }
}
