// swift-tools-version: 6.1
import PackageDescription

// The recording benchmark: `swift run -c release --package-path Benchmarks rewind-benchmarks`.
// A separate package so that the main package's users never build it.
let package = Package(
    name: "RewindBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "rewind-benchmarks",
            dependencies: [
                .product(name: "Rewind", package: "main"),
                .product(name: "Cycler", package: "main"),
                .product(name: "RewindViewer", package: "main"),
            ],
            path: "Sources/RewindBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)
