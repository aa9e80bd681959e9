@testable import RewindViewer
import Testing

/// The viewer's keys as data, and its update alone: a key in, a model and commands out — no
/// journal, no terminal.
@Suite("Keys as data")
struct KeyMapTests {
    static func model() -> ViewerModel { ViewerModel(width: 80, height: 24, colors: false) }

    @Test("every action is bound to a key and told of in the ? overlay; every hint names bound actions; no key is bound twice")
    func everyActionHasAKeyAndAHelpLine() {
        let bound = KeyMap.help.flatMap(\.bindings)
        #expect(Set(bound.map(\.action)) == Set(KeyMap.Action.allCases))
        #expect(bound.allSatisfy { !$0.keys.isEmpty })
        let keys = bound.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
        #expect(KeyMap.hint.allSatisfy { hint in hint.actions.allSatisfy { action in bound.contains { $0.action == action } } })
        // The overlay fits 80×24: 54 columns less its margin, 22 rows.
        #expect(KeyMap.help.count <= 20 && KeyMap.help.allSatisfy { $0.text.count <= 53 })
    }

    @Test("each bound key does something on a fresh model; an unbound key says so and does nothing", arguments: KeyMap.help.flatMap(\.bindings))
    func boundKeysAct(binding: KeyMap.Binding) {
        for key in binding.keys {
            var model = Self.model()
            _ = model.update(.key(key))
            #expect(model.message?.contains("does nothing here") != true, "\(key) for \(binding.action)")
        }
        var model = Self.model()
        let commands = model.update(.key(.character("Q")))
        #expect(commands.isEmpty && model.message == "'Q' does nothing here: press ? for the keys")
    }

    @Test("each key does the action it always did (the switch the map replaced, written out)")
    func keysAndTheirActions() {
        let expected: [(Key, KeyMap.Action)] = [
            (.character("q"), .quit), (.interrupt, .quit), (.character("?"), .help),
            (.left, .stepBack), (.character("h"), .stepBack), (.right, .stepForward), (.character("l"), .stepForward),
            (.up, .moveUp), (.character("k"), .moveUp), (.down, .moveDown), (.character("j"), .moveDown),
            (.pageUp, .pageUp), (.pageDown, .pageDown), (.character("g"), .first), (.home, .first), (.character("G"), .last), (.end, .last),
            (.tab, .switchPane), (.character(":"), .jump), (.character("/"), .search), (.character("w"), .watch), (.character("f"), .filter),
            (.character("n"), .nextMatch), (.character("N"), .previousMatch), (.character("p"), .pin), (.character("m"), .bookmark),
            (.character("y"), .copyValue), (.character("Y"), .copyPath), (.character("'"), .nextBookmark), (.character("`"), .previousBookmark),
            (.character("{"), .previousSlice), (.character("}"), .nextSlice), (.character("b"), .blameBack), (.character("B"), .blameForward),
            (.character("d"), .lowerPane), (.character("z"), .foldAll), (.character("<"), .panLeft), (.character(">"), .panRight),
            (.character("+"), .expandAll), (.character("-"), .collapseAll), (.character("F"), .follow), (.character("L"), .logLevel),
            (.enter, .fold), (.character(" "), .fold),
        ]
        for (key, action) in expected { #expect(KeyMap.action(for: key) == action, "\(key)") }
        #expect(KeyMap.help.flatMap(\.bindings).flatMap(\.keys).count == expected.count)
    }

    @Test("q quits and cancels what runs; ? opens help and any key closes it, q through it quits; / and : and w and f open their prompts")
    func updateAlone() {
        var model = Self.model()
        #expect(model.update(.key(.character("q"))) == [.cancel] && model.quitting)
        model = Self.model()
        _ = model.update(.key(.character("?")))
        #expect(model.showingHelp)
        _ = model.update(.key(.character("j")))
        #expect(!model.showingHelp && !model.quitting)
        _ = model.update(.key(.character("?")))
        _ = model.update(.key(.interrupt))
        #expect(model.quitting)
        for (key, prompt) in [("/", ViewerModel.Prompt.search("")), (":", .jump("")), ("w", .watch("")), ("f", .filter(""))] {
            model = Self.model()
            _ = model.update(.key(.character(Character(key))))
            #expect(model.prompt == prompt, "\(key)")
        }
        #expect(KeyMap.hintLine.hasPrefix(" ? help  q quit  ←/→ step"))
    }
}

extension KeyMap.Binding: CustomTestStringConvertible {
    public var testDescription: String { "\(action)" }
}
