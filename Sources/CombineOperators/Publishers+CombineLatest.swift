@preconcurrency import OpenCombine

extension Publishers {
    /// A publisher that sends a tuple of the latest values of two upstream publishers whenever
    /// either sends, once both have sent at least once.
    ///
    /// As Combine's `CombineLatest`: demand passes through to both upstreams, at most the requested
    /// number of tuples is sent (with a buffer of one — the most recent value — per upstream), the
    /// first failure fails it, and it finishes once both upstreams have finished. OpenCombine 0.14 has
    /// no combineLatest; this fills the gap with the same name and shape.
    ///
    /// ```swift
    /// input.$isOn
    ///     .combineLatest(store.$count)
    ///     .map { $0 && $1 > 0 }
    ///     .assign(to: \.isDecrementEnabled, on: store)
    /// ```
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A
        /// The second upstream.
        public let b: B

        /// Combines two publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let combination = CombineLatestSubscription(downstream: subscriber, upstreamCount: 2) { values in
                (values[0] as! A.Output, values[1] as! B.Output)
            }
            subscriber.receive(subscription: combination)
            a.subscribe(combination.side(0, of: A.Output.self))
            b.subscribe(combination.side(1, of: B.Output.self))
        }
    }

    /// A publisher that sends a tuple of the latest values of three upstream publishers whenever
    /// any sends, once all have sent at least once; otherwise as ``CombineLatest``.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

        /// The first upstream.
        public let a: A
        /// The second upstream.
        public let b: B
        /// The third upstream.
        public let c: C

        /// Combines three publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let combination = CombineLatestSubscription(downstream: subscriber, upstreamCount: 3) { values in
                (values[0] as! A.Output, values[1] as! B.Output, values[2] as! C.Output)
            }
            subscriber.receive(subscription: combination)
            a.subscribe(combination.side(0, of: A.Output.self))
            b.subscribe(combination.side(1, of: B.Output.self))
            c.subscribe(combination.side(2, of: C.Output.self))
        }
    }
}

extension Publisher {
    /// Sends a tuple of the latest values of this publisher and `other` whenever either sends, once
    /// both have sent (Combine's `combineLatest(_:)`).
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P> where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Sends `transform` of the latest values of this publisher and `other` whenever either sends,
    /// once both have sent.
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }

    /// Sends a tuple of the latest values of this publisher, `publisher1` and `publisher2` whenever
    /// any sends, once all have sent.
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }
}
