import ArgumentParser
import Rewind

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "What changed between two steps of a journal, or where two recordings diverge.",
        discussion: """
            rewind diff FILE A B [--source S]   the state of a source at step B against step A
            rewind diff FILE1 FILE2             the first event where two recordings of the same \
            scenario differ (in the event or in the state it left), with the diff there
            Exits 1 when there are differences, 0 when there are none.
            Example:  rewind diff Fixtures/todo.rewind 10 40
            """
    )

    @Argument(help: "FILE A B, or FILE1 FILE2.", completion: .file(extensions: ["rewind"])) var arguments: [String]
    @Option(help: "With FILE A B: the source to compare (default: the source of the event at B).") var source: String?
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
                object.raw("changes", CommandJSON.changes(from: before ?? .null, to: after ?? .null))
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
        var leftEvents = left.events().makeIterator(), rightEvents = right.events().makeIterator()
        var leftTimeline = StateWalker(), rightTimeline = StateWalker()
        // Sources are paired in the order they first appear, since instance numbers differ between runs.
        var pairing: [UInt64: UInt64] = [:]
        var position = 0
        let output = Output(style: colors.style())
        while true {
            let a = leftEvents.next(), b = rightEvents.next()
            position += 1
            switch (a, b) {
            case (nil, nil):
                if json {
                    output.line(recordingsJSON(match: true, compared: position - 1) { _ in })
                } else {
                    output.line("the recordings match: \(position - 1) events")
                }
                output.flush()
                JournalOpening.warnAboutDamage(in: left)
                JournalOpening.warnAboutDamage(in: right)
                return
            case (let a?, nil):
                if json {
                    output.line(recordingsJSON(match: false, compared: position - 1) { $0.field("shorter", arguments[1]) })
                    output.flush()
                    throw ExitCode(ExitStatus.no)
                }
                output.line("\(arguments[1]) ends after \(position - 1) events; \(arguments[0]) goes on with step \(a.sequence) (\(a.kind.rawValue) \(VisibleText.escaped(a.name)))")
                output.flush()
                throw ExitCode(ExitStatus.no)
            case (nil, let b?):
                if json {
                    output.line(recordingsJSON(match: false, compared: position - 1) { $0.field("shorter", arguments[0]) })
                    output.flush()
                    throw ExitCode(ExitStatus.no)
                }
                output.line("\(arguments[0]) ends after \(position - 1) events; \(arguments[1]) goes on with step \(b.sequence) (\(b.kind.rawValue) \(VisibleText.escaped(b.name)))")
                output.flush()
                throw ExitCode(ExitStatus.no)
            case (let a?, let b?):
                let paired = pairing[a.source.instanceID]
                if paired == nil { pairing[a.source.instanceID] = b.source.instanceID }
                _ = leftTimeline.advance(a)
                _ = rightTimeline.advance(b)
                var differences: [String] = []
                if paired != nil && paired != b.source.instanceID || a.source.typeName != b.source.typeName { differences.append("source \(a.source) vs \(b.source)") }
                if a.kind != b.kind { differences.append("kind \(a.kind.rawValue) vs \(b.kind.rawValue)") }
                if a.name != b.name { differences.append("name \(VisibleText.quoted(a.name)) vs \(VisibleText.quoted(b.name))") }
                if a.path != b.path { differences.append("path \(a.path ?? "none") vs \(b.path ?? "none")") }
                if a.value != b.value { differences.append("value \((a.value ?? .null).compactDescription(limit: 60)) vs \((b.value ?? .null).compactDescription(limit: 60))") }
                let leftState = leftTimeline.state(of: a.source.instanceID), rightState = rightTimeline.state(of: b.source.instanceID)
                if differences.isEmpty && leftState == rightState { continue }
                if json {
                    output.line(recordingsJSON(match: false, compared: position) { object in
                        object.raw("divergence", JSONText.object { divergence in
                            divergence.field("position", position)
                            divergence.field("left_seq", a.sequence)
                            divergence.field("right_seq", b.sequence)
                            divergence.field("source", a.source.description)
                            divergence.field("kind", a.kind.rawValue)
                            divergence.field("name", a.name)
                            divergence.raw("event_differences", CommandJSON.array(differences.map(JSONText.string)))
                            divergence.raw("state_changes", CommandJSON.changes(from: leftState ?? .null, to: rightState ?? .null))
                        })
                    })
                    output.flush()
                    throw ExitCode(ExitStatus.no)
                }
                output.line("the recordings diverge at event \(position): \(arguments[0]) step \(a.sequence) vs \(arguments[1]) step \(b.sequence)")
                output.line("  \(VisibleText.escaped(a.source.description)) \(a.kind.rawValue) \(VisibleText.escaped(a.name)) at \(VisibleText.escaped(a.callSite))")
                for difference in differences { output.line("  event: \(VisibleText.escaped(difference))") }
                let lines = DiffRenderer().lines(from: leftState ?? .null, to: rightState ?? .null)
                if !lines.isEmpty {
                    output.line("  state (- \(arguments[0]), + \(arguments[1])):")
                    for line in lines { output.line("  " + output.style.paint(line)) }
                }
                output.flush()
                throw ExitCode(ExitStatus.no)
            }
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
