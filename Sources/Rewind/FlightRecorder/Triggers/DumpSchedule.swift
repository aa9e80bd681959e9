/// When a flight recorder's triggers dump: which ones the rate limit lets through, and the
/// requests waiting out their tail. A value, judged at instants given to it, so that its rules are
/// tested without a clock; ``DumpQueue`` keeps one and runs what falls due.
struct DumpSchedule {
    /// A dump a trigger asked for.
    struct Request: Sendable, Equatable {
        var trigger: JournalHeader.Dump.Trigger
        var reason: String
        /// The step the trigger fired at; `nil` for the last one numbered when it is written.
        var step: UInt64?
        var signal: Int32?
        /// What the rate limit counts the request under: the trigger's kind, or a condition's text.
        var key: String
        /// When the tail is over and the dump is written.
        var due: Duration = .zero
    }

    let limit: FlightRecorder.RateLimit
    /// When each key's admitted dumps were asked for, oldest first, no older than the longest window.
    private var admitted: [String: [Duration]] = [:]
    /// Requests waiting for their tail to end, in the order they were admitted.
    private(set) var pending: [Request] = []

    init(limit: FlightRecorder.RateLimit) {
        self.limit = limit
    }

    /// Whether `key` may dump at `now`; when it may, the dump is counted.
    mutating func admit(_ key: String, at now: Duration) -> Bool {
        guard !limit.windows.isEmpty else { return true }
        let longest = limit.windows.map(\.period).max()!
        var times = admitted[key, default: []]
        times.removeAll { now - $0 >= longest }
        defer { admitted[key] = times }
        for window in limit.windows where times.count(where: { now - $0 < window.period }) >= window.dumps {
            return false
        }
        times.append(now)
        return true
    }

    /// Admits `request` at `now`, to be written once `tail` has passed; `false` when the rate limit
    /// holds it back.
    mutating func schedule(_ request: Request, at now: Duration, tail: Duration) -> Bool {
        guard admit(request.key, at: now) else { return false }
        var request = request
        request.due = now + max(tail, .zero)
        pending.append(request)
        return true
    }

    /// The requests due at `now`, taken out, in the order they were admitted.
    mutating func takeDue(at now: Duration) -> [Request] {
        let due = pending.filter { $0.due <= now }
        pending.removeAll { $0.due <= now }
        return due
    }

    /// Every request still waiting, taken out: what a recorder that closes writes at once.
    mutating func takeAll() -> [Request] {
        defer { pending.removeAll() }
        return pending
    }

    /// When the next request falls due; `nil` when none waits.
    var nextDue: Duration? { pending.map(\.due).min() }
}
