import Foundation
@_spi(Tooling) @testable import Rewind
import RewindSamples
import Testing
import TestSupport

@Suite("rewind commands on the fixtures")
struct CommandLineTests {
    @Test("each command's output matches its golden file", arguments: [
        ("info-counter", ["info", "Fixtures/counter.rewind"]),
        ("info-todo-json", ["info", "Fixtures/todo.rewind", "--json"]),
        ("log-todo", ["log", "Fixtures/todo.rewind"]),
        ("log-todo-filtered", ["log", "Fixtures/todo.rewind", "--kind", "change,activity", "--grep", "items", "--from", "10", "--to", "80"]),
        ("log-todo-grep-description", ["log", "Fixtures/todo.rewind", "--grep", "Jam"]),
        ("log-todo-width", ["log", "Fixtures/todo.rewind", "--from", "44", "--to", "47", "--width", "100"]),
        ("log-demo-source", ["log", "Fixtures/demo.rewind", "--source", "CounterSample", "--kind", "activity"]),
        ("log-counter-json", ["log", "Fixtures/counter.rewind", "--json", "--to", "12"]),
        ("show-todo", ["show", "Fixtures/todo.rewind", "--at", "60"]),
        ("show-todo-json", ["show", "Fixtures/todo.rewind", "--at", "60", "--json"]),
        ("diff-steps", ["diff", "Fixtures/todo.rewind", "20", "60"]),
        ("diff-same-state", ["diff", "Fixtures/counter.rewind", "2", "3"]),
        ("diff-itself", ["diff", "Fixtures/todo.rewind", "Fixtures/todo.rewind"]),
        ("blame-done", ["blame", "Fixtures/todo.rewind", "items[1].done"]),
        ("blame-done-by-id", ["blame", "Fixtures/todo.rewind", "items[id: 2].done"]),
        ("blame-count", ["blame", "Fixtures/counter.rewind", "count", "--source", "CounterSample#1"]),
        ("verify-clean", ["verify", "Fixtures/todo.rewind"]),
        ("verify-deep", ["verify", "Fixtures/demo.rewind", "--deep"]),
        ("verify-flipped-byte", ["verify", "Fixtures/counter-flipped-byte.rewind"]),
        ("verify-torn-tail", ["verify", "Fixtures/todo-torn-tail.rewind"]),
        ("verify-truncated-index", ["verify", "Fixtures/demo-truncated-index.rewind"]),
        ("log-damaged", ["log", "Fixtures/counter-flipped-byte.rewind", "--kind", "activity"]),
        ("export-counter", ["export", "Fixtures/counter.rewind", "--format", "json"]),
        ("bad-missing-file", ["info", "Fixtures/missing.rewind"]),
        ("bad-directory", ["log", "Fixtures"]),
        ("bad-not-a-journal", ["info", "Fixtures/README.md"]),
        ("bad-unknown-source", ["log", "Fixtures/demo.rewind", "--source", "NoSuchModel"]),
        ("bad-step-out-of-range", ["show", "Fixtures/todo.rewind", "--at", "100000"]),
        ("bad-altered-state", ["show", "Fuzz/Regressions/object-diff-out-of-order", "--at", "2"]),
        ("bad-malformed-key-path", ["blame", "Fixtures/todo.rewind", "items[x"]),
        ("bad-unknown-kind", ["log", "Fixtures/todo.rewind", "--kind", "mutation"]),
        ("bad-usage", ["diff", "Fixtures/todo.rewind"]),
        // Conditions over the recorded state: every step, the first, the last, a count, JSON;
        // no step (exit 1); a malformed condition (exit 2, the column named).
        ("query-todo-all", ["query", "Fixtures/todo.rewind", "changed(items[id: 2].done)"]),
        ("query-todo-first", ["query", "Fixtures/todo.rewind", "items.count >= 3 && filter == \"active\"", "--first"]),
        ("query-todo-last", ["query", "Fixtures/todo.rewind", "kind == dispatch", "--last"]),
        ("query-demo-count", ["query", "Fixtures/demo.rewind", "count != old(count)", "--source", "CounterSample", "--count"]),
        ("query-demo-count-json", ["query", "Fixtures/demo.rewind", "kind == activity", "--count", "--json"]),
        ("query-demo-json", ["query", "Fixtures/demo.rewind", "kind == dispatch && name == \"setStep\"", "--json"]),
        ("query-none", ["query", "Fixtures/todo.rewind", "nextID > 1000"]),
        ("bad-condition", ["query", "Fixtures/todo.rewind", "count > && x"]),
        // What led to each write: its commit and the dispatches above it, with their inputs.
        ("blame-why", ["blame", "Fixtures/demo.rewind", "step", "--why"]),
        ("blame-why-json", ["blame", "Fixtures/todo.rewind", "items[id: 2].done", "--why", "--json"]),
    ])
    func golden(name: String, arguments: [String]) throws {
        try CommandRunner.expectGolden(name, arguments)
    }

    @Test("bad input exits 2 with one line on standard error and no crash trace")
    func badInputIsOneLine() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        #expect(FileManager.default.createFile(atPath: directory + "/empty.rewind", contents: Data()))
        var future = JournalHeader(formatVersion: 7, createdWallNanoseconds: 0, createdMonotonicNanoseconds: 0, writerVersion: "9.9").encoded()
        future += [UInt8](repeating: 0, count: 64)
        #expect(FileManager.default.createFile(atPath: directory + "/future.rewind", contents: Data(future)))
        let cases: [[String]] = [
            ["info", directory + "/empty.rewind"], ["info", directory + "/future.rewind"],
            ["info", "Fixtures/missing.rewind"], ["show", "Fixtures/todo.rewind", "--at", "0"],
            ["blame", "Fixtures/todo.rewind", "a..b"], ["log", "Fixtures/todo.rewind", "--from", "9", "--to", "3"],
            ["show", "Fixtures/todo.rewind"], ["diff", "Fixtures/todo.rewind", "x", "y"],
        ]
        for arguments in cases {
            let result = try CommandRunner.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardOutput.isEmpty, "\(arguments)")
            #expect(!result.standardError.isEmpty && !result.standardError.contains("Backtrac"), "\(arguments): \(result.standardError)")
        }
        #expect(try CommandRunner.run(["info", directory + "/future.rewind"]).standardError.contains("newer"))
        #expect(try CommandRunner.run(["info", directory + "/empty.rewind"]).standardError.contains("empty"))
    }

    @Test("export --otlp runs rewind-otlp, and without it says how to get it; its options go with --otlp only")
    func exportToOpenTelemetry() throws {
        // The test's PATH holds no rewind-otlp, nor does the folder rewind is built in (it is built
        // by the OpenTelemetry package; OpenTelemetry/Tests and .ci/otlp-check run it for real).
        let missing = try CommandRunner.run(["export", "Fixtures/todo.rewind", "--otlp", "http://127.0.0.1:4318"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("rewind: rewind-otlp is not installed: build it with 'swift build -c release --package-path OpenTelemetry'"))
        #expect(missing.standardError.split(separator: "\n").count == 1)
        // A stand-in rewind-otlp on PATH receives exactly the options and decides the exit status.
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        let script = "#!/bin/sh\nprintf '%s|' \"$@\"\nexit 3\n"
        #expect(FileManager.default.createFile(atPath: directory + "/rewind-otlp", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
        let forwarded = try CommandRunner.run(
            ["export", "Fixtures/todo.rewind", "--otlp", "http://collector:4318", "--service-name", "app", "--header", "x-key: 1", "--attribute-value-limit", "512"],
            environment: ["PATH": directory + ":/usr/bin:/bin"]
        )
        #expect(forwarded.standardOutput == "Fixtures/todo.rewind|--otlp|http://collector:4318|--service-name|app|--header|x-key: 1|--attribute-value-limit|512|")
        #expect(forwarded.status == 3)
        for arguments in [["--format", "jsonl", "--otlp", "http://x:4318"], ["--format", "jsonl", "--header", "a: b"], ["--otlp", "http://x:4318", "-o", "out.jsonl"], ["--format", "jsonl", "--attribute-value-limit", "100"], []] {
            let result = try CommandRunner.run(["export", "Fixtures/todo.rewind"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments)")
        }
    }

    @Test("log --json writes one JSON object per line with the stable keys")
    func jsonLines() throws {
        let result = try CommandRunner.run(["log", "Fixtures/demo.rewind", "--json"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == (try JournalReader(path: CommandRunner.repositoryRoot + "/Fixtures/demo.rewind").eventCount))
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for key in ["seq", "time", "source", "kind", "name", "description", "file", "line", "parent"] {
                #expect(object.keys.contains(key), "missing \(key) in \(line)")
            }
        }
        // The recorded escape sequence is escaped in JSON, never written raw.
        #expect(!result.standardOutput.contains("\u{1B}"))
        #expect(result.standardOutput.contains("\\u001b[31m"))
    }

    @Test("log streams into a pipe that closes early")
    func pipeClosesEarly() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "'\(CommandRunner.binary)' log Fixtures/demo.rewind | head -n 3"]
        process.currentDirectoryURL = URL(fileURLWithPath: CommandRunner.repositoryRoot)
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.split(separator: "\n").count == 3)
        #expect(error.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    @Test("diff of a recording with a deliberately changed one exits 1 at the right step")
    func diffFindsTheChangedStep() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        var configuration = JournalConfiguration()
        configuration.deterministic = true
        configuration.blockSize = 512
        let changed = directory + "/changed.rewind"
        let journal = try JournalLogger(path: changed, configuration: configuration)
        DemoSession.runCounter(logger: journal, step: 2)
        journal.close()

        let fixture = try JournalReader(path: CommandRunner.repositoryRoot + "/Fixtures/counter.rewind").allEvents()
        // The first event that differs is the dispatch that carries the other step.
        let expected = try #require(fixture.firstIndex { $0.kind == .willDispatch && $0.name == "setStep" }) + 1
        let result = try CommandRunner.run(["diff", "Fixtures/counter.rewind", changed])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("the recordings diverge at event \(expected):"))
        #expect(result.standardOutput.contains("willDispatch setStep at DemoSession.swift:"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("event: value {setStep: {_0: 3}} vs {setStep: {_0: 2}}"), "\(result.standardOutput)")
    }

    @Test("diff of two recordings compares unit by unit: units that interleave differently still match; a unit's difference is found; --source picks one")
    func diffPairsUnits() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        /// Two counters and a todo list; `firstThenSecond` says which counter is seen first,
        /// `todoFirst` whether the list's dispatch comes before the counters' in each round.
        func record(_ name: String, firstThenSecond: Bool, todoFirst: Bool = false, secondStep: Int = 2) throws -> String {
            var configuration = JournalConfiguration()
            configuration.deterministic = true
            let path = directory + "/\(name).rewind"
            let journal = try JournalLogger(path: path, configuration: configuration)
            let first = CounterSample(), second = CounterSample(), todo = TodoSample()
            for unit in firstThenSecond ? [first, second] : [second, first] { unit.set(logger: journal) }
            todo.set(logger: journal)
            for round in 0..<3 {
                if todoFirst { todo.add("item \(round)") }
                let pair = firstThenSecond ? [first, second] : [second, first]
                for unit in pair { unit === second ? unit.setStep(secondStep) : unit.increment() }
                if !todoFirst { todo.add("item \(round)") }
            }
            journal.close()
            return path
        }
        let left = try record("left", firstThenSecond: true)
        let right = try record("right", firstThenSecond: false)
        // Paired in the order each recording's counters appeared: the first counter seen with the
        // first counter seen, whichever of the two it was in the app.
        let swapped = try CommandRunner.run(["diff", left, right])
        #expect(swapped.status == 1, "the two counters did different things, in the order they appeared: \(swapped.standardOutput)")
        let same = try record("same", firstThenSecond: true)
        let matching = try CommandRunner.run(["diff", left, same])
        #expect(matching.status == 0 && matching.standardOutput.contains("the recordings match"), "\(matching.standardOutput)")
        // The same units doing the same things, interleaved differently: they match.
        let interleaved = try record("interleaved", firstThenSecond: true, todoFirst: true)
        let reordered = try CommandRunner.run(["diff", left, interleaved])
        #expect(reordered.status == 0 && reordered.standardOutput.contains("the recordings match"), "\(reordered.standardOutput)")
        // One unit alone: the todo list did the same in `right`, whatever the counters did.
        let todoOnly = try CommandRunner.run(["diff", left, right, "--source", "TodoSample"])
        #expect(todoOnly.status == 0, "\(todoOnly.standardOutput)\(todoOnly.standardError)")
        let other = try record("other", firstThenSecond: true, secondStep: 5)
        let changed = try CommandRunner.run(["diff", left, other])
        #expect(changed.status == 1)
        #expect(changed.standardOutput.contains("event: value {setStep: {_0: 2}} vs {setStep: {_0: 5}}"), "\(changed.standardOutput)")
        let todoUnchanged = try CommandRunner.run(["diff", left, other, "--source", "TodoSample", "--json"])
        #expect(todoUnchanged.status == 0 && todoUnchanged.standardOutput.contains("\"match\":true"), "\(todoUnchanged.standardOutput)")
    }

    @Test("recover writes a clean journal with everything that survived")
    func recover() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        for damaged in ["todo-torn-tail", "counter-flipped-byte", "demo-truncated-index"] {
            let output = directory + "/\(damaged).rewind"
            let result = try CommandRunner.run(["recover", "Fixtures/\(damaged).rewind", "-o", output])
            #expect(result.status == 0, "\(damaged): \(result.standardError)")
            #expect(result.standardOutput.hasPrefix("wrote "))
            let survivors = try JournalReader(path: CommandRunner.repositoryRoot + "/Fixtures/\(damaged).rewind").allEvents()
            #expect(try JournalReader(path: output).allEvents() == survivors)
            #expect(try CommandRunner.run(["verify", output]).status == 0)
        }
    }

    @Test("--color always colours a pipe, never and the default (in a pipe) do not")
    func colorOption() throws {
        let escape = "\u{1B}["
        let always = try CommandRunner.run(["log", "Fixtures/counter.rewind", "--to", "3", "--color", "always"])
        #expect(always.standardOutput.contains(escape))
        for arguments in [["--color", "never"], []] {
            let plain = try CommandRunner.run(["log", "Fixtures/counter.rewind", "--to", "3"] + arguments, environment: ["NO_COLOR": ""])
            #expect(plain.status == 0)
            #expect(!plain.standardOutput.contains(escape))
        }
        let diff = try CommandRunner.run(["diff", "Fixtures/todo.rewind", "20", "60", "--color", "always"])
        #expect(diff.standardOutput.contains(escape))
        let wrong = try CommandRunner.run(["log", "Fixtures/counter.rewind", "--color", "sometimes"])
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains("'auto', 'always' or 'never'"))
    }

    @Test("bash completion offers journals (and folders) for a command's file, and the commands")
    func bashCompletion() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: true)
        for name in ["session.rewind", "notes.txt"] { _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data()) }
        let script = try CommandRunner.run(["--generate-completion-script", "bash"]).standardOutput
        try script.write(toFile: directory + "/rewind.bash", atomically: true, encoding: .utf8)
        func complete(_ line: String) throws -> Set<String> {
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(separator: " ")
            let bash = Process()
            bash.executableURL = URL(fileURLWithPath: "/bin/bash")
            bash.currentDirectoryURL = URL(fileURLWithPath: directory)
            bash.arguments = ["-c", """
                shopt -s extglob; source rewind.bash
                COMP_WORDS=(\(words)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                _rewind; printf '%s\\n' "${COMPREPLY[@]}"
                """]
            let output = Pipe()
            bash.standardOutput = output
            try bash.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            bash.waitUntilExit()
            return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
        }
        #expect(try complete("rewind log ") == ["session.rewind", "folder"])
        #expect(try complete("rewind verify ") == ["session.rewind", "folder"])
        #expect(try complete("rewind ").isSuperset(of: ["log", "view", "verify", "demo"]))
    }

    @Test("a format 1 journal (every change value written whole) reads as the same session")
    func formatOneStillReads() throws {
        // The todo session as it was when the format 1 journal was written: before it synced.
        let directory = TemporaryDirectory()
        let current = directory.file("todo.rewind")
        var configuration = JournalConfiguration()
        configuration.deterministic = true
        let journal = try JournalLogger(path: current, configuration: configuration)
        DemoSession.runTodo(logger: journal, syncing: false)
        journal.close()
        for command in [["log"], ["export", "--format", "jsonl"], ["show", "--at", "40"], ["blame", "items"]] {
            let old = try CommandRunner.run([command[0], "Fixtures/todo-format-1.rewind"] + command.dropFirst())
            let new = try CommandRunner.run([command[0], current] + command.dropFirst())
            #expect(old.status == 0)
            // Journals written since carry each unit's state schema in its `created` description,
            // and (format 4) their own recording identifier.
            let withoutSchemas = new.standardOutput.replacingOccurrences(
                of: #""description":"rewind-schema 1[^"]*""#, with: #""description":"""#, options: .regularExpression
            ).replacingOccurrences(of: #""recording_id":"[^"]*""#, with: #""recording_id":"""#, options: .regularExpression)
            let oldOutput = old.standardOutput.replacingOccurrences(of: #""recording_id":"[^"]*""#, with: #""recording_id":"""#, options: .regularExpression)
            #expect(oldOutput == withoutSchemas.replacingOccurrences(of: current, with: "Fixtures/todo-format-1.rewind"))
        }
    }

    @Test("export gives each state-changing event its changes: path (by id, as blame names it), old and new")
    func exportChanges() throws {
        let result = try CommandRunner.run(["export", "Fixtures/todo.rewind", "--format", "jsonl"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        let toggle = try #require(lines.first { $0.contains("\"seq\":25,") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(toggle.utf8)) as? [String: Any])
        let changes = try #require(object["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes.first?["path"] as? String == "items[id: 2].done")
        #expect(changes.first?["old"] as? Bool == false && changes.first?["new"] as? Bool == true)
    }

    @Test("log says each change as its move from the old value, however it reads: all, by kind, from a step, or by text")
    func logGivesTheOldValue() throws {
        let rename = #"items[id: 3].title: "Bread" → "Sourdough""#
        for arguments in [[], ["--kind", "change"], ["--from", "37"], ["--grep", "Sourdough"], ["--source", "TodoSample#1", "--kind", "change", "--from", "30"]] {
            let result = try CommandRunner.run(["log", "Fixtures/todo.rewind"] + arguments)
            #expect(result.status == 0)
            let line = try #require(result.standardOutput.split(separator: "\n").first { $0.hasPrefix("#37 ") }, "\(arguments)")
            #expect(line.hasSuffix(rename), "\(arguments)")
        }
        // JSON Lines carry `old` beside `value`, the value the state held before: a missing optional is null.
        let json = try CommandRunner.run(["log", "Fixtures/todo.rewind", "--json", "--kind", "change"])
        let objects = try json.standardOutput.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let editing = try #require(objects.first { $0["seq"] as? Int == 34 })
        #expect(editing["path"] as? String == "editing" && editing["old"] is NSNull && editing["value"] as? Int == 3)
        let nextID = try #require(objects.first { $0["seq"] as? Int == 5 })
        #expect(nextID["old"] as? Int == 1 && nextID["value"] as? Int == 2)
    }

    @Test("a search every event of a unit matches lists that unit's lines exactly as log does")
    func searchAgreesWithTheWalk() throws {
        // `log` writes a unit's lines from its blocks' records on every core; a search for a text
        // every one of them holds (the unit's name) reads events and rebuilds old values one by
        // one. Both must write each line the same, byte for byte.
        // So must `--json`: its lines from records, and from events.
        for source in ["CounterSample#1", "TodoSample#2", "RicemillCounterSample#4", "GitHubSearchViewStream#6"] {
            for json in [[], ["--json"]] {
                let walked = try CommandRunner.run(["log", "Fixtures/demo.rewind", "--source", source] + json)
                let searched = try CommandRunner.run(["log", "Fixtures/demo.rewind", "--source", source, "--grep", source] + json)
                #expect(walked.status == 0 && searched.status == 0)
                #expect(walked.standardOutput.split(separator: "\n").count > 10, "\(source)")
                #expect(searched.standardOutput == walked.standardOutput, "\(source) \(json)")
            }
        }
    }

    @Test("--kind takes the words rows show and the JSON names alike; an unknown kind lists both")
    func kindWords() throws {
        let words = try CommandRunner.run(["log", "Fixtures/demo.rewind", "--kind", "dispatch,finished", "--json"])
        let names = try CommandRunner.run(["log", "Fixtures/demo.rewind", "--kind", "willDispatch,didDispatch", "--json"])
        #expect(words.status == 0 && !words.standardOutput.isEmpty)
        #expect(words.standardOutput == names.standardOutput)
        let unknown = try CommandRunner.run(["log", "Fixtures/demo.rewind", "--kind", "dispatched"])
        #expect(unknown.status != 0)
        #expect(unknown.standardError.contains("dispatch (willDispatch)"))
    }

    @Test("demo without -o keeps nothing in the temporary directory and says how to keep it; its hints run after swift run")
    func demoKeepsNothingUnlessAsked() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        let result = try CommandRunner.run(["demo", "--sample", "counter"], environment: ["TMPDIR": directory + "/"])
        #expect(result.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        #expect(result.standardOutput.contains("add -o demo.rewind to keep it"))
        // The binary under test is a build product (.build/…), where `rewind` alone is not on the PATH.
        #expect(result.standardOutput.contains("swift run rewind demo.rewind"))

        let kept = directory + "/kept.rewind"
        let keeping = try CommandRunner.run(["demo", "--sample", "counter", "-o", kept])
        #expect(keeping.status == 0)
        #expect(FileManager.default.fileExists(atPath: kept))
        #expect(keeping.standardOutput.contains("swift run rewind \(kept)"))
    }

    @Test("regenerating the fixtures gives byte-identical files")
    func fixturesAreDeterministic() throws {
        let temporary = TemporaryDirectory()
        let directory = temporary.path
        for name in ["counter", "todo", "ricemill", "unio", "flask", "checkout"] {
            let sample = name
            let path = directory + "/\(name).rewind"
            #expect(try CommandRunner.run(["demo", "--deterministic", "--sample", sample, "-o", path]).status == 0)
            let fresh = try Data(contentsOf: URL(fileURLWithPath: path))
            let committed = try Data(contentsOf: URL(fileURLWithPath: CommandRunner.repositoryRoot + "/Fixtures/\(name).rewind"))
            #expect(fresh == committed, "Fixtures/\(name).rewind is not what regenerate.sh makes")
        }
    }
}

extension JournalReader {
    func allEvents() -> [RecordedEvent] { Array(events()) }
}
