// swift-tools-version: 6.1
import PackageDescription

// The reader's fuzzer (libFuzzer). A separate package so that the main package's users never build
// it; `Fuzz/run` builds it with the fuzzer sanitizer and runs it over the seed corpus.
let package = Package(
    name: "RewindFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        // Declares libFuzzer's driver entry point, with a weak stand-in so a plain build still links.
        .target(name: "FuzzerDriver"),
        .executableTarget(
            name: "rewind-fuzz",
            dependencies: [
                "FuzzerDriver",
                .product(name: "Rewind", package: "main"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
