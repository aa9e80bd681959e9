/// One Flask: a flux, the reactors attached to owners and the substances that answer mixers. The
/// process has one (the original library's singletons); ``Flask/isolated(_:)`` runs code in a Flask
/// of its own, so that tests running at once never reach each other's substances: a mixer asked
/// for by name reaches the substances made in the same scope, a reaction the reactors attached in
/// it, and a lock pauses only its mixes.
///
/// A substance belongs to the scope it was made in, for its whole life, and its mixes run on its
/// scope's flux. Work asked for on a flux runs in the scope of the code that asked for it,
/// whichever thread drains the flux. Code that leaves the task some other way (a dispatch queue of
/// the app's own) runs in the process's Flask.
final class FlaskScope: Sendable {
    let bus: Flux
    let reactors: Reactors
    let mixers: MixerRegistry

    private init(bus: Flux, reactors: Reactors, mixers: MixerRegistry) {
        self.bus = bus
        self.reactors = reactors
        self.mixers = mixers
    }

    /// A Flask of its own.
    convenience init() {
        self.init(bus: Flux(), reactors: Reactors(), mixers: MixerRegistry())
    }

    /// The process's Flask: what code outside any ``Flask/isolated(_:)`` uses.
    static let process = FlaskScope(bus: Flux.bus, reactors: Reactors.shared, mixers: MixerRegistry.shared)

    /// The scope of the running task, set by ``Flask/isolated(_:)``.
    @TaskLocal static var task: FlaskScope?

    /// The scope code running now uses.
    static var current: FlaskScope { task ?? .process }
}

extension Flask {
    /// Runs `body` in a Flask of its own: the substances, reactors and locks made inside belong to
    /// it, mixers asked for inside reach only its substances, and its flux is its own. Tests that
    /// make Flask substances run under the default parallel `swift test` when each runs in one:
    ///
    /// ```swift
    /// @Test func boardReplays() throws {
    ///     try Flask.isolated {
    ///         let board = BoardSubstance(name: "board")
    ///         expectReplay(of: "Fixtures/board.rewind", driving: ["board": board.replayTarget])
    ///     }
    /// }
    /// ```
    ///
    /// Work scheduled on a `VirtualTimeScheduler` the test advances stays inside; work the app
    /// sends to a dispatch queue of its own runs in the process's Flask.
    public static func isolated<T>(_ body: () throws -> T) rethrows -> T {
        try FlaskScope.$task.withValue(FlaskScope(), operation: body)
    }

    /// ``isolated(_:)`` for asynchronous code.
    public static func isolated<T>(_ body: () async throws -> T) async rethrows -> T {
        try await FlaskScope.$task.withValue(FlaskScope(), operation: body)
    }
}
