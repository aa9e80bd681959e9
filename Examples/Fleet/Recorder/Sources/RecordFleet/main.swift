import Foundation
import Rewind

// Usage: RecordFleet DIRECTORY [COUNT]
//
// Records COUNT checkout sessions (default 100) into DIRECTORY/session-NNN.rewind, spread over four
// app versions, each session a different seeded sequence of taps: what a fleet of installs sends
// home. The same COUNT gives the same sessions (not the same bytes: times are real).
let arguments = CommandLine.arguments
guard arguments.count >= 2, let count = Int(arguments.count > 2 ? arguments[2] : "100"), count > 0 else {
    FileHandle.standardError.write(Data("usage: RecordFleet DIRECTORY [COUNT]\n".utf8))
    exit(2)
}
let directory = arguments[1]
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
let versions = ["1.0.0", "1.1.0", "1.2.0", "1.3.0"]
let catalog = [("tea", 450), ("mug", 1_200), ("beans", 1_850), ("filter", 300), ("grinder", 4_900), ("spoon", 250)]

for index in 0..<count {
    var random = SplitMix64(seed: UInt64(index))
    var configuration = JournalConfiguration()
    configuration.appVersion = versions[index % versions.count]
    configuration.replaceExisting = true
    let path = directory + "/" + String(format: "session-%03d.rewind", index)
    let journal = try JournalLogger(path: path, configuration: configuration)
    let checkout = Checkout(appVersion: versions[index % versions.count])
    checkout.set(logger: journal)
    for _ in 0..<(10 + random.below(30)) {
        let (sku, price) = catalog[random.below(catalog.count)]
        switch random.below(10) {
        case 0...4: checkout.send(.add(sku: sku, price: price))
        case 5: checkout.send(.setQuantity(sku: sku, quantity: random.below(4)))
        case 6: checkout.send(.remove(sku: sku))
        default: checkout.send(.applyCoupon(random.below(3) == 0 ? "SAVE5" : "TENOFF"))
        }
    }
    checkout.send(.checkout)
    journal.close()
}
print("recorded \(count) sessions into \(directory)")

/// A small seeded generator (SplitMix64), so that each session's taps are the same on every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
