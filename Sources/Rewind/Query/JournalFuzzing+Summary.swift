/// The fuzzer's questions that a condition asks: here, beside the conditions, so that the journal's
/// own folders never reach up to the query language.
extension JournalFuzzing {
    /// Decodes a summary block's payload and judges a condition over it, as a query does;
    /// whether it decoded.
    @discardableResult
    public static func readSummary(payload: [UInt8]) -> Bool {
        guard let summary = try? BlockSummary.decode(payload) else { return false }
        for (id, steps) in summary.sources { _ = summaryCondition.mayHold(in: steps, source: "#\(id)", sequences: 0...id) }
        return true
    }

    /// A condition with every kind of node a summary judges.
    static let summaryCondition = try! Condition(parsing: "count > 3 || (kind == change && changed(items)) || name == \"add\" || !(title < \"m\")")

    /// Asks every block of `reader` whether `condition` may hold in it, from its summary: the
    /// path a query takes past the blocks it rules out.
    public static func judgeEveryBlock(of reader: JournalReader, _ condition: Condition) {
        for index in reader.blocks.indices { _ = reader.mayHold(condition, inBlock: index) }
    }
}
