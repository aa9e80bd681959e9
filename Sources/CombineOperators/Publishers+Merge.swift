@preconcurrency import OpenCombine

extension Publishers {
    /// A publisher that republishes the values of two upstream publishers as they arrive.
    ///
    /// As Combine's `Merge`: it fails as soon as either upstream fails (cancelling the other), and
    /// finishes once both have finished. OpenCombine 0.14 has no merge; this fills the gap with the
    /// same name and shape.
    ///
    /// ```swift
    /// increments.merge(with: decrements)
    ///     .assign(to: \.count, on: store)
    ///     .store(in: &cancellables)
    /// ```
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A
        /// The second upstream.
        public let b: B

        /// Merges two publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merge = MergeSubscription(downstream: subscriber, upstreamCount: 2)
            subscriber.receive(subscription: merge)
            a.subscribe(merge.side(0))
            b.subscribe(merge.side(1))
            merge.drain()
        }

        /// Merges this merge with one more publisher.
        public func merge<P: Publisher>(with other: P) -> MergeMany<AnyPublisher<Output, Failure>>
        where P.Output == Output, P.Failure == Failure {
            MergeMany([a.eraseToAnyPublisher(), b.eraseToAnyPublisher(), other.eraseToAnyPublisher()])
        }
    }

    /// A publisher that republishes the values of any number of upstream publishers of one type as
    /// they arrive.
    ///
    /// As Combine's `MergeMany`: it fails as soon as any upstream fails, and finishes once all have
    /// finished (at once, when there are none).
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publishers being merged.
        public let publishers: [Upstream]

        /// Merges the given publishers.
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Merges a sequence of publishers.
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merge = MergeSubscription(downstream: subscriber, upstreamCount: publishers.count)
            subscriber.receive(subscription: merge)
            for (index, publisher) in publishers.enumerated() {
                publisher.subscribe(merge.side(index))
            }
            merge.drain()
        }

        /// Adds one more publisher to the merge.
        public func merge(with other: Upstream) -> MergeMany {
            MergeMany(publishers + [other])
        }
    }
}

extension Publisher {
    /// Republishes the values of this publisher and `other` as they arrive (Combine's
    /// `merge(with:)`); fails when either fails, finishes when both have finished.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge(self, other)
    }
}
