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
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "rewind-benchmarks",
            dependencies: [
                .product(name: "Rewind", package: "RewindPackage"),
                .product(name: "Cycler", package: "RewindPackage"),
                .product(name: "RewindViewer", package: "RewindPackage"),
                .product(name: "Ricemill", package: "RewindPackage"),
                .product(name: "Flask", package: "RewindPackage"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Sources/RewindBenchmarks"
        ),
    ],
    swiftLanguageModes: [.v6]
)
