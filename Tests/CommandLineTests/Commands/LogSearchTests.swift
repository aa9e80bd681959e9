import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import TestSupport
import Testing

/// `rewind log --grep` on a journal of many small blocks, where a search passes over the blocks
/// that cannot hold its text and rebuilds states after them.
@Suite("log --grep: blocks passed over")
struct LogSearchTests {
    struct Cart: Codable, Equatable {
        var total = 0
        var coupon: String?
        var milestone = 0
    }

    final class CartModel: CyclerType, Sendable {
        let state: Storage<Cart> = .init(.init())
    }

    /// Three carts in small blocks (1 KiB unless told): totals on every step, coupons now and
    /// then, a milestone in a few blocks only.
    static func record(to path: String, blockSize: Int = 1_024) throws {
        var configuration = JournalConfiguration()
        configuration.blockSize = blockSize
        configuration.keyframeInterval = 16
        let journal = try JournalLogger(path: path, configuration: configuration)
        let carts = [CartModel(), CartModel(), CartModel()]
        for cart in carts { cart.set(logger: journal) }
        for step in 1...3_000 {
            let cart = carts[step % 3]
            cart.dispatch("add") { context in
                context.commit("add") { $0.update(step, \.total) }
                if step % 7 == 0 { context.commit("coupon") { $0.update(step % 2 == 0 ? "TEN\(step)" : nil, \.coupon) } }
                if step % 500 == 0 { context.commit("milestone") { $0.update(step, \.milestone) } }
            }
        }
        journal.close()
    }

    /// A search's lines without what it adds where a match is in a description (the text it
    /// highlights is the query as typed, which differs between the two).
    static func rows(_ output: String) -> [Substring] {
        output.split(separator: "\n").map { line in line.range(of: "  (matched in ").map { line[..<$0.lowerBound] } ?? line }
    }

    @Test(
        "each line a search writes is log's own line for that step (a move from far back included), moves read from states rebuilt after the blocks passed over; it finds what a search reading every block finds, with filters made and read back"
    )
    func searchPassesBlocksOver() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("carts.rewind")
        try Self.record(to: path)
        let whole = try CommandRunner.run(["log", path, "--width", "300"])
        #expect(whole.status == 0)
        var lineOfStep: [Substring: Substring] = [:]
        for line in whole.standardOutput.split(separator: "\n") { lineOfStep[line.prefix { $0 != " " }] = line }
        // Each query beside a regular expression that finds the same rows but has no text every
        // match holds (a class), so that it reads and judges every block.
        let queries = [
            ("milestone: 500 → 2000", "~[m]ilestone: 500 → 2000"), ("milestone", "~[m]ilestone"), ("TEN2604", "~[T]EN2604"),
            ("coupon: \"TEN2590\" → nil", "~[c]oupon: \"TEN2590\" → nil"), ("Milestone = 2500", "~[M]ilestone = 2500")
        ]
        for (query, everyBlock) in queries {
            let expected = try CommandRunner.run(["log", path, "--width", "300", "--grep", everyBlock])
            #expect(expected.status == 0 && !expected.standardOutput.isEmpty, "\(everyBlock): \(expected.transcript)")
            for pass in ["filters made", "filters read back"] {
                let found = try CommandRunner.run(["log", path, "--width", "300", "--grep", query])
                #expect(found.status == 0)
                #expect(Self.rows(found.standardOutput) == Self.rows(expected.standardOutput), "\(pass): \(query)")
                // A match in a description adds where it matched.
                for line in found.standardOutput.split(separator: "\n") {
                    #expect(lineOfStep[line.prefix { $0 != " " }].map(line.hasPrefix) == true, "\(pass): \(query): \(line)")
                }
            }
        }
        // The milestone's blocks were read alone: most blocks were passed over.
        let reader = try JournalReader(path: path)
        let passedOver = reader.blocks.indices.filter { reader.searchFilter(ofBlock: $0, mayContain: "milestone") == false }
        #expect(reader.blocks.count > 50 && passedOver.count * 4 > reader.blocks.count * 3, "\(passedOver.count) of \(reader.blocks.count)")
    }
}
