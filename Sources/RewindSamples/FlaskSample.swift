import Flask

/// The Flask README's two styles, used by `rewind demo`, the fixtures and the tests.
///
/// Fluxor style: a reactive substance that answers the process's `login`/`logout` mixers. Redux
/// style: plain substances changed together by chained mixes from a reactor.
public enum FlaskSample {
    /// The process's mixers.
    public enum EnvMixers: SubstanceMixer {
        case login, logout
    }

    /// The app's session: how many sign-ins, the title, and an internal token reactions ignore.
    public struct AppState: State {
        public enum prop: StateProp { case counter, title }
        public var counter = 0
        public var title = ""
        public var _sessionToken = ""
        public init() {}
    }

    /// Answers `login` (with a `username` in the payload; aborts without one) and `logout`.
    public final class AppReactiveSubstance: ReactiveSubstance<AppState, EnvMixers>, @unchecked Sendable {
        // Unchecked: as `ReactiveSubstance`.
        public override func defineMixers() {
            define(mix: .login) { [unowned self] payload, react, abort in
                guard let user = payload?["username"] as? String, !user.isEmpty else { return abort() }
                self.prop.counter += 1
                self.prop.title = "signed in as \(user)"
                self.prop._sessionToken = "token-\(user)"
                react()
            }
            define(mix: .logout) { [unowned self] _, react, _ in
                self.prop.title = "signed out"
                self.prop._sessionToken = ""
                react()
            }
        }
    }

    /// A feed with nested information.
    public struct FeedState: State {
        public struct Info: Codable, Sendable {
            public struct Nest: Codable, Sendable {
                public var foo = "bar"
            }
            public var count = 0
            public var nest = Nest()
        }
        public enum prop: StateProp { case items, info }
        public var items: [String] = []
        public var info = Info()
        public init() {}
    }

    /// A profile.
    public struct ProfileState: State {
        public enum prop: StateProp { case name, posts }
        public var name = ""
        public var posts = 0
        public init() {}
    }

    /// An owner that reacts: it remembers every reaction it received, as `substance: keys`.
    public final class Screen: FlaskReactor, @unchecked Sendable {
        // Unchecked: reactions arrive on the flux, one at a time.
        public private(set) var received: [String] = []

        public init() {}

        public func flaskReactions(reaction: FlaskReaction) {
            received.append("\(reaction.substance.name()): \(reaction.changedKeys.joined(separator: ", "))")
        }
    }
}
