// swift-tools-version: 6.1
import PackageDescription

// The recording benchmark: `swift run -c release --package-path Benchmarks rewind-benchmarks`.
// A separate package so that the main package's users never build it.
let package = Package(
    name: "RewindBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `RewindPackage` is a link to the repository root: a package's identity is the last
        // component of its path, and `..` would take the checkout's folder name, whatever it is.
        .package(path: "RewindPackage"),
    ],
    targets: [
        .executableTarget(
            name: "rewind-benchmarks",
            dependencies: [
                .product(name: "Rewind", package: "RewindPackage"),
                .product(name: "Cycler", package: "RewindPackage"),
                .product(name: "RewindViewer", package: "RewindPackage"),
            ],
            path: "Sources/RewindBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)
