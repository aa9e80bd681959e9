import ArgumentParser
@_spi(Tooling) import Rewind

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "What changed between two steps of a journal, or where two recordings diverge.",
        discussion: """
            rewind diff FILE A B [--source S]   the state of a source at step B against step A
            rewind diff FILE1 FILE2 [--source S] the first event where two recordings of the same \
            scenario differ (in the event or in the state it left), with the diff there; units are \
            paired by label, or by type in the order they appeared, and compared unit by unit
            Exits 1 when there are differences, 0 when there are none.
            Example:  rewind diff Fixtures/todo.rewind 10 40
            """
    )

    @Argument(help: "FILE A B, or FILE1 FILE2.", completion: .file(extensions: ["rewind"])) var arguments: [String]
    @Option(help: "The source to compare: with FILE A B, by default the source of the event at B; with FILE1 FILE2, by default every source (named as FILE1 names it).") var source: String?
    @Flag(help: "Write the answer as one JSON object (the exit code is the same).") var json = false

    func validate() throws {
        guard arguments.count == 2 || arguments.count == 3 else {
            throw ValidationError("give a journal and two steps (rewind diff FILE A B) or two journals (rewind diff FILE1 FILE2)")
        }
    }
    @OptionGroup var colors: ColorOptions

    func run() throws {
        if arguments.count == 3 {
            try compareSteps()
        } else {
            try compareRecordings()
        }
    }

    private func compareSteps() throws {
        guard let first = UInt64(arguments[1]), let second = UInt64(arguments[2]) else {
            throw CommandFailure("steps must be numbers: '\(VisibleText.escaped(arguments[1]))', '\(VisibleText.escaped(arguments[2]))'")
        }
        let reader = try JournalOpening.open(arguments[0])
        let later = try JournalOpening.step(second, in: reader)
        _ = try JournalOpening.step(first, in: reader)
        let chosen = try source.map { try JournalOpening.source($0, in: reader) } ?? later.source
        let before: StateValue?, after: StateValue?
        do {
            before = try reader.state(of: chosen.instanceID, at: first)
            after = try reader.state(of: chosen.instanceID, at: second)
        } catch {
            throw CommandFailure(error)
        }
        let output = Output(style: colors.style())
        if json {
            let equal = before == after
            output.line(CommandJSON.object { object in
                object.field("file", arguments[0])
                object.field("source", chosen.description)
                object.field("from", first)
                object.field("to", second)
                object.field("equal", equal)
                object.changes("changes", from: before ?? .null, to: after ?? .null)
            })
            output.flush()
            if !equal { throw ExitCode(ExitStatus.no) }
            return
        }
        output.line("\(VisibleText.escaped(chosen.description)): step \(first) → step \(second)")
        let lines = DiffRenderer().lines(from: before ?? .null, to: after ?? .null)
        guard !lines.isEmpty else {
            output.line("no differences")
            return
        }
        for line in lines { output.line(output.style.paint(line)) }
        output.flush()
        throw ExitCode(ExitStatus.no)
    }

    private func compareRecordings() throws {
        let left = try JournalOpening.open(arguments[0]), right = try JournalOpening.open(arguments[1])
        let only = try source.map { try JournalOpening.source($0, in: left).instanceID }
        let output = Output(style: colors.style())
        switch RecordingComparison(left: left, right: right, only: only).run() {
        case .match(let compared):
            if json {
                output.line(recordingsJSON(match: true, compared: compared) { _ in })
            } else {
                output.line("the recordings match: \(compared) events")
            }
            output.flush()
            JournalOpening.warnAboutDamage(in: left)
            JournalOpening.warnAboutDamage(in: right)
        case .divergence(let divergence):
            report(divergence, to: output)
            output.flush()
            throw ExitCode(ExitStatus.no)
        }
    }

    /// Where the recordings first differ, or which one ends first.
    private func report(_ divergence: RecordingComparison.Divergence, to output: Output) {
        guard let a = divergence.left, let b = divergence.right else {
            let (shorter, longer, next) = divergence.left == nil
                ? (arguments[0], arguments[1], divergence.right!) : (arguments[1], arguments[0], divergence.left!)
            if json {
                output.line(recordingsJSON(match: false, compared: divergence.compared) { object in
                    if divergence.differences.isEmpty {
                        object.field("shorter", shorter)
                    } else {
                        object.raw("divergence", JSONText.object { fields in
                            fields.field("position", divergence.position)
                            fields.field("left_seq", divergence.left?.sequence ?? 0)
                            fields.field("right_seq", divergence.right?.sequence ?? 0)
                            fields.field("source", next.source.description)
                            fields.field("kind", next.kind.rawValue)
                            fields.field("name", next.name)
                            fields.raw("event_differences", CommandJSON.array(divergence.differences.map(JSONText.string)))
                            fields.changes("state_changes", from: .null, to: .null)
                        })
                    }
                })
                return
            }
            if divergence.differences.isEmpty {
                output.line("\(shorter) ends after \(divergence.compared) events of \(VisibleText.escaped(next.source.description)); \(longer) goes on with step \(next.sequence) (\(next.kind.rawValue) \(VisibleText.escaped(next.name)))")
            } else {
                output.line("the recordings diverge at event \(divergence.position): \(VisibleText.escaped(divergence.differences.joined(separator: "; ")))")
            }
            return
        }
        if json {
            output.line(recordingsJSON(match: false, compared: divergence.compared + 1) { object in
                object.raw("divergence", JSONText.object { fields in
                    fields.field("position", divergence.position)
                    fields.field("left_seq", a.sequence)
                    fields.field("right_seq", b.sequence)
                    fields.field("source", a.source.description)
                    fields.field("kind", a.kind.rawValue)
                    fields.field("name", a.name)
                    fields.raw("event_differences", CommandJSON.array(divergence.differences.map(JSONText.string)))
                    fields.changes("state_changes", from: divergence.leftState ?? .null, to: divergence.rightState ?? .null)
                })
            })
            return
        }
        output.line("the recordings diverge at event \(divergence.position): \(arguments[0]) step \(a.sequence) vs \(arguments[1]) step \(b.sequence)")
        output.line("  \(VisibleText.escaped(a.source.description)) \(a.kind.rawValue) \(VisibleText.escaped(a.name)) at \(VisibleText.escaped(a.callSite))")
        for difference in divergence.differences { output.line("  event: \(VisibleText.escaped(difference))") }
        let lines = DiffRenderer().lines(from: divergence.leftState ?? .null, to: divergence.rightState ?? .null)
        if !lines.isEmpty {
            output.line("  state (- \(arguments[0]), + \(arguments[1])):")
            for line in lines { output.line("  " + output.style.paint(line)) }
        }
    }

    /// The answer for two recordings: `{"schema_version", "left", "right", "match", "events_compared", …}`
    /// with `divergence` (where they first differ) or `shorter` (the one that ends first).
    private func recordingsJSON(match: Bool, compared: Int, _ rest: (inout JSONText.Object) -> Void) -> JSONText.Object {
        CommandJSON.object { object in
            object.field("left", arguments[0])
            object.field("right", arguments[1])
            object.field("match", match)
            object.field("events_compared", compared)
            rest(&object)
        }
    }
}
