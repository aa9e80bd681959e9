import Foundation
@_spi(Tooling) import Rewind
import Testing
import TestSupport

/// `blame --why` on a recording whose writes each answer the one before: a chain of reactions as
/// long as the session (issue 63: 8,000 chained writes took more than 10 s in a debug build).
@Suite("blame --why on long chains")
struct BlameChainTests {
    struct Counter: Codable { var count: Int }

    /// `writes` dispatches, each sent from inside the one before it (a reaction to its write), each
    /// writing `count`.
    static func record(writes: Int, to path: String) throws {
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .flask, typeName: "Counter", label: nil))
        channel.emit(.created(state: LoggedValue(Counter(count: 0))), callSite: CallSite(), to: journal)
        var cause: UInt64?
        for step in 1...writes {
            let dispatch = channel.emit(.willDispatch(input: LoggedValue(step)), name: "react", callSite: CallSite(), parent: cause, to: journal)
            channel.emit(.willMutate, name: "count", callSite: CallSite(), parent: dispatch, to: journal)
            channel.emit(.change(path: ChangedPath(name: "count"), value: LoggedValue(step), state: nil), callSite: CallSite(), parent: dispatch, to: journal)
            let state = LoggedValue(Counter(count: step))
            channel.emit(.didMutate(duration: .zero, state: state), name: "count", callSite: CallSite(), parent: dispatch, to: journal)
            cause = dispatch
            channel.emit(.didDispatch(duration: .zero), name: "react", callSite: CallSite(), parent: dispatch, to: journal)
        }
        journal.close()
    }

    @Test("each write's chain is its commit and the reactions before it, nearest first, up to 64 links before it")
    func chains() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("chain.rewind")
        try Self.record(writes: 8_000, to: path)
        let blame = try CommandRunner.run(["blame", path, "count", "--why", "--json"])
        #expect(blame.status == 0, "\(blame.standardError)")
        let writes = blame.standardOutput.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(writes.count == 8_001, "the created state, then each write")
        let last = try #require(writes.last?["why"] as? [[String: Any]])
        #expect(last.count == 65 && last.first?["relation"] as? String == "commit", "\(last.prefix(3))")
        let steps = last.compactMap { $0["seq"] as? Int }
        #expect(steps == steps.sorted(by: >), "nearest first: \(steps.prefix(8))")
        let first = try #require(writes.dropFirst().first?["why"] as? [[String: Any]])
        #expect(first.map { $0["name"] as? String } == ["count", "react"], "\(first)")
    }
}
