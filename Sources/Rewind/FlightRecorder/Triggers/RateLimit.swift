extension FlightRecorder {
    /// How often one trigger may dump: at most so many dumps in any window of time, for each
    /// window given — so that a condition that holds again and again, a failing request that calls
    /// ``FlightRecorder/dump(reason:)`` in a loop, or an operator's repeated signal does not fill
    /// the disk with dumps of the same minutes.
    ///
    /// ```swift
    /// configuration.rateLimit = .dumps(1, per: .seconds(60)).and(10, per: .seconds(3600))   // the default
    /// configuration.rateLimit = .unlimited
    /// ```
    ///
    /// Each trigger counts on its own: calls, assertions, the dump signal, and each condition.
    /// A dump held back by the limit is not made later; a dump already made is never undone.
    public struct RateLimit: Sendable, Equatable {
        /// At most `dumps` dumps in any `period`.
        public struct Window: Sendable, Equatable {
            /// How many dumps the window allows.
            public var dumps: Int
            /// How long the window is.
            public var period: Duration

            /// At most `dumps` dumps in any `period`.
            public init(dumps: Int, per period: Duration) {
                self.dumps = dumps
                self.period = period
            }
        }

        /// The windows a trigger's dumps must fit, all of them.
        public var windows: [Window]

        /// A limit of the given windows; none is no limit.
        public init(_ windows: [Window]) {
            self.windows = windows
        }

        /// At most `dumps` dumps in any `period`.
        public static func dumps(_ dumps: Int, per period: Duration) -> RateLimit {
            RateLimit([Window(dumps: dumps, per: period)])
        }

        /// This limit, and also at most `dumps` dumps in any `period`.
        public func and(_ dumps: Int, per period: Duration) -> RateLimit {
            RateLimit(windows + [Window(dumps: dumps, per: period)])
        }

        /// One dump a minute and ten an hour, for each trigger.
        public static let standard = RateLimit.dumps(1, per: .seconds(60)).and(10, per: .seconds(3600))
        /// Every trigger dumps every time.
        public static let unlimited = RateLimit([])
    }
}
