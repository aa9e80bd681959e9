// swift-tools-version: 6.1
import PackageDescription

// A shop's cart, its recorded session, and the test that replays it: the throwaway project
// Examples/ReplayBisect/run builds a git history of, to bisect and shrink.
let package = Package(
    name: "CartShop",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../Rewind")],
    targets: [
        .target(name: "Cart", dependencies: [.product(name: "Cycler", package: "Rewind")]),
        .executableTarget(name: "RecordCart", dependencies: ["Cart", .product(name: "Rewind", package: "Rewind")]),
        .testTarget(name: "CartTests", dependencies: ["Cart", .product(name: "RewindTesting", package: "Rewind")]),
    ]
)
