import Flask
@_spi(Tooling) import Rewind
import Ricemill
import Unio

/// The scripted session behind `rewind demo` and the fixtures: the sample view models driven
/// through a fixed sequence of actions.
public enum DemoSession {
    /// Which samples to run.
    public enum Sample: String, CaseIterable, Sendable {
        case counter, todo, ricemill, unio, flask, checkout
    }

    /// Runs the session for `samples`, logging to `logger`; the models are released at the end, so their `released` events are recorded.
    public static func run(_ samples: [Sample] = Sample.allCases, logger: any CycleLogging) {
        for sample in samples {
            switch sample {
            case .counter: runCounter(logger: logger)
            case .todo: runTodo(logger: logger)
            case .ricemill: runRicemillCounter(logger: logger)
            case .unio: runGitHubSearch(logger: logger)
            case .flask: runFlask(logger: logger)
            case .checkout: runCheckout(logger: logger)
            }
        }
    }

    /// Records the session into a journal at `path` (replacing a file there: the caller named it);
    /// deterministic journals are byte-identical from one run to the next.
    public static func record(_ samples: [Sample] = Sample.allCases, to path: String, deterministic: Bool = false) throws(JournalWriteError) {
        var configuration = JournalConfiguration()
        configuration.deterministic = deterministic
        configuration.replaceExisting = true
        configuration.blockSize = 512  // several blocks even in this short session: damage loses only part
        let journal = try JournalLogger(path: path, configuration: configuration)
        run(samples, logger: journal)
        journal.close()
    }

    /// The counter part of the session; `step` is the step size the script sets halfway (tests change
    /// it to record a deliberately different session).
    public static func runCounter(logger: any CycleLogging, step: Int = 3) {
        let counter = CounterSample()
        counter.set(logger: logger)
        for _ in 0..<4 { counter.increment() }
        counter.decrement()
        counter.setStep(step)
        for _ in 0..<3 { counter.increment() }
        counter.setEnabled(false)
        counter.decrement()
        counter.setEnabled(true)
        counter.reset()
        counter.increment()
    }

    package static func runTodo(logger: any CycleLogging, syncing: Bool = true) {
        let todo = TodoSample(recordingLogsTo: logger)
        todo.set(logger: logger)
        todo.add("Milk", tags: ["dairy"])
        todo.add("Eggs")
        todo.add("Bread", tags: ["bakery", "fresh"])
        todo.toggle(id: 2)
        todo.addFirst("Coffee")
        todo.rename(id: 3, to: "Sourdough")
        todo.setFilter(.active)
        todo.toggle(id: 1)
        todo.remove(id: 2)
        todo.add("Jam \u{1B}[31m(red)")
        todo.setFilter(.all)
        todo.toggle(id: 4)
        if syncing { todo.sync(token: "tok_live_4242") }  // it fails, logging an info, a warning and an error; without it, format 1's session
    }

    /// The Ricemill counter: the toggle on, up three, down one, the toggle off and on, then down past zero (it stops at zero).
    public static func runRicemillCounter(logger: any CycleLogging) {
        let counter = RicemillCounterSample()
        counter.set(logger: logger)
        counter.input.isOn.wrappedValue = true
        for _ in 0..<3 { counter.input.increment.send() }
        counter.input.decrement.send()
        counter.input.isOn.wrappedValue = false
        counter.input.isOn.wrappedValue = true
        for _ in 0..<3 { counter.input.decrement.send() }
    }

    /// The Unio search: typing "s", "sw", "swift" quickly (one search after the debounce), a pause,
    /// an empty text (ignored), a failing search, then "rx". The clock is virtual: the script moves
    /// it, so the session takes no real time and is the same every run.
    public static func runGitHubSearch(logger: any CycleLogging) {
        let scheduler = VirtualTimeScheduler()
        let apiStream = GitHubSearchAPIStream(scheduler: .virtual(scheduler))
        apiStream.set(logger: logger)
        let search = GitHubSearchViewStream(input: .init(), state: .init(), extra: .init(apiStream: apiStream, scheduler: .virtual(scheduler)))
        search.set(logger: logger)
        let errors = search.output.error.subscribe(onNext: { _ in })
        for text in ["s", "sw", "swift"] {
            search.input.searchText(text)
            scheduler.advance(by: .milliseconds(120))
        }
        scheduler.advance(by: .milliseconds(600))
        search.input.searchText("")
        scheduler.advance(by: .milliseconds(600))
        search.input.searchText("fail")
        scheduler.advance(by: .milliseconds(600))
        search.input.searchText("rx")
        scheduler.advance(by: .milliseconds(600))
        errors.cancel()
    }

    /// Flask in both styles: sign-ins through the process's mixers (one aborted for lack of a
    /// user name, two held by a lock and run in order when it is released), then chained mixes of a
    /// feed and a profile (one reacted, one aborted), then a rollback.
    public static func runFlask(logger: any CycleLogging) {
        Flux.bus.set(logger: logger)
        defer { Flux.bus.set(logger: nil) }
        let app = FlaskSample.AppReactiveSubstance(name: "app")
        let feed = Flask.newSubstance(definedBy: FlaskSample.FeedState.self, named: "feed")
        let profile = Flask.newSubstance(definedBy: FlaskSample.ProfileState.self, named: "profile")
        for substance in [app, feed, profile] as [SubstanceConcrete] { substance.set(logger: logger) }
        let screen = FlaskSample.Screen()
        Flask.attachReactor(to: screen, mixing: [app, feed, profile])

        Flask.substances(reactTo: FlaskSample.EnvMixers.login, payload: ["username": "ada"])
        Flask.substances(reactTo: FlaskSample.EnvMixers.login, payload: [:])
        let lock = Flask.lock()
        Flask.substances(reactTo: FlaskSample.EnvMixers.logout)
        Flask.substances(reactTo: FlaskSample.EnvMixers.login, payload: ["username": "grace"])
        lock.release()

        feed.captureState()
        Flask.getReactor(attachedTo: screen)
            .mixing(feed) { substance in
                substance.prop.items.append("hello")
                substance.prop.info.nest.foo = "mutated"
            }.with(profile) { substance in
                substance.prop.posts += 1
            }.andReact()
        Flask.getReactor(attachedTo: screen)
            .mixing(profile) { substance in substance.prop.name = "discarded" }
            .andAbort()
        feed.rollbackState()
        Flask.detachReactor(from: screen)
    }

    /// The checkout that logs: two items, a payment the card service declines from its own thread
    /// (an info inside the dispatch, a warning and an error in its effect), and the price cache
    /// refreshed by two background threads outside any dispatch — recorded by
    /// ``RecordingLogHandler`` beside the checkout's states.
    public static func runCheckout(logger journal: any CycleLogging) {
        let checkout = CheckoutSample(recordingLogsTo: journal)
        checkout.set(logger: journal)
        checkout.add("Coffee beans", price: 18)
        checkout.add("Grinder", price: 95)
        checkout.pay(token: "tok_live_visa_4242")
        CheckoutSample.refreshPriceCache(threads: 2, recordingLogsTo: journal)
    }
}
