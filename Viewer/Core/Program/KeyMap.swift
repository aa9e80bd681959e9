/// The viewer's keys as data, as bubbles' `key.Binding` keeps them: each action with the keys that
/// do it, each line of the `?` overlay with the actions it tells of, and the hint line. The one
/// place a key is bound: ``ViewerModel``'s handler looks keys up here, the overlay and the hint
/// line are drawn from here, and a test holds every action to a key, a help line and a use.
enum KeyMap {
    /// What a key asks the viewer to do.
    enum Action: CaseIterable, Sendable {
        case quit, help
        case stepBack, stepForward, moveUp, moveDown, pageUp, pageDown, first, last
        case previousSlice, nextSlice, switchPane, fold, lowerPane, panLeft, panRight, expandAll, collapseAll, foldAll
        case jump, search, nextMatch, previousMatch, filter, logLevel, blameBack, blameForward, watch
        case pin, follow, bookmark, nextBookmark, previousBookmark, copyValue, copyPath
    }

    /// An action and the keys that do it.
    struct Binding: Sendable {
        let action: Action
        let keys: [Key]

        init(_ action: Action, _ keys: Key...) {
            self.action = action
            self.keys = keys
        }
    }

    /// One line of the `?` overlay (it fits 80×24) and the bindings it tells of.
    struct HelpLine: Sendable {
        let text: String
        let bindings: [Binding]

        init(_ text: String, _ bindings: Binding...) {
            self.text = text
            self.bindings = bindings
        }
    }

    static let help: [HelpLine] = [
        HelpLine("Keys"),
        HelpLine("←/→ h/l      step backward / forward (by shown rows)",
                 Binding(.stepBack, .left, .character("h")), Binding(.stepForward, .right, .character("l"))),
        HelpLine("↑/↓ j/k PgUp/PgDn  move; wheel, click: under pointer",
                 Binding(.moveUp, .up, .character("k")), Binding(.moveDown, .down, .character("j")),
                 Binding(.pageUp, .pageUp), Binding(.pageDown, .pageDown)),
        HelpLine("g/G Home/End first / last step;  :N Enter  jump",
                 Binding(.first, .character("g"), .home), Binding(.last, .character("G"), .end), Binding(.jump, .character(":"))),
        HelpLine("{ } click    previous / next slice of the top strip",
                 Binding(.previousSlice, .character("{")), Binding(.nextSlice, .character("}"))),
        HelpLine("  ▁▃█ events ◆ step • match ● mark ! error ✗ lost"),
        HelpLine("Tab          switch pane: timeline, state, lower", Binding(.switchPane, .tab)),
        HelpLine("Enter Space  fold / unfold a dispatch or node; z all",
                 Binding(.fold, .enter, .character(" ")), Binding(.foldAll, .character("z"))),
        HelpLine("d  < > + -   diff/detail; pan; expand / collapse all",
                 Binding(.lowerPane, .character("d")), Binding(.panLeft, .character("<")), Binding(.panRight, .character(">")),
                 Binding(.expandAll, .character("+")), Binding(.collapseAll, .character("-"))),
        HelpLine("/text Enter  search (names, values); /~regex", Binding(.search, .character("/"))),
        HelpLine("n/N          next / previous match or watched step",
                 Binding(.nextMatch, .character("n")), Binding(.previousMatch, .character("N"))),
        HelpLine("f            filter: dispatch,change  !activity", Binding(.filter, .character("f"))),
        HelpLine("             TodoSample !Flux path:items level>=error"),
        HelpLine("L            app's logs: all, ≥warning, ≥error, none", Binding(.logLevel, .character("L"))),
        HelpLine("b/B          last / next change of the selected path",
                 Binding(.blameBack, .character("b")), Binding(.blameForward, .character("B"))),
        HelpLine("w cond Enter watch: steps where count > 10 … (n/N)", Binding(.watch, .character("w"))),
        HelpLine("p  F         pin the diff base; follow a live journal",
                 Binding(.pin, .character("p")), Binding(.follow, .character("F"))),
        HelpLine("m  ' `       bookmark the step; next / previous mark",
                 Binding(.bookmark, .character("m")), Binding(.nextBookmark, .character("'")), Binding(.previousBookmark, .character("`"))),
        HelpLine("y/Y          copy the selected value / path (OSC 52)",
                 Binding(.copyValue, .character("y")), Binding(.copyPath, .character("Y"))),
        HelpLine("Esc cancel  Ctrl-W/U erase word/line  ? help  q quit",
                 Binding(.help, .character("?")), Binding(.quit, .character("q"), .interrupt)),
    ]

    /// The hint line's keys and what each does, help and quit first: at 80 columns the line is
    /// cut, and they are what a newcomer needs.
    static let hint: [(keys: String, does: String, actions: [Action])] = [
        ("?", "help", [.help]), ("q", "quit", [.quit]), ("←/→", "step", [.stepBack, .stepForward]),
        ("↑/↓", "move", [.moveUp, .moveDown]), ("Enter", "fold", [.fold]), ("z", "fold all", [.foldAll]),
        ("d", "detail", [.lowerPane]), ("/", "search", [.search]), (":", "jump", [.jump]),
        ("f", "filter", [.filter]), ("b/B", "blame", [.blameBack, .blameForward]),
    ]

    /// The hint line as drawn.
    static let hintLine = " " + hint.map { "\($0.keys) \($0.does)" }.joined(separator: "  ")

    /// The action a key does; `nil` for a key nothing is bound to.
    static func action(for key: Key) -> Action? {
        actions[key]
    }

    private static let actions: [Key: Action] = {
        var actions: [Key: Action] = [:]
        for line in help {
            for binding in line.bindings {
                for key in binding.keys {
                    precondition(actions[key] == nil, "\(key) is bound twice")
                    actions[key] = binding.action
                }
            }
        }
        return actions
    }()
}
