// swift-tools-version: 6.1
import PackageDescription

// The reader's fuzzer (libFuzzer). A separate package so that the main package's users never build
// it; `Fuzz/run` builds it with the fuzzer sanitizer and runs it over the seed corpus.
let package = Package(
    name: "RewindFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `RewindPackage` is a link to the repository root: a package's identity is the last
        // component of its path, and `..` would take the checkout's folder name, whatever it is.
        .package(path: "RewindPackage"),
    ],
    targets: [
        // Declares libFuzzer's driver entry point, with a weak stand-in so a plain build still links.
        .target(name: "FuzzerDriver"),
        .executableTarget(
            name: "rewind-fuzz",
            dependencies: [
                "FuzzerDriver",
                .product(name: "Rewind", package: "RewindPackage"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
