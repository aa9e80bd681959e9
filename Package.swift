// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Rewind",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Rewind", targets: ["Rewind"]),
        .library(name: "Cycler", targets: ["Cycler"]),
        .library(name: "Ricemill", targets: ["Ricemill"]),
        .library(name: "Unio", targets: ["Unio"]),
        .library(name: "Flask", targets: ["Flask"]),
        .library(name: "RewindTesting", targets: ["RewindTesting"]),
        .library(name: "CombineOperators", targets: ["CombineOperators"]),
        .library(name: "RxSwiftCompatibility", targets: ["RxSwiftCompatibility"]),
        // The sample view models behind `rewind demo` and the fixtures: a product so that the
        // README's examples that use them can be followed from another package.
        .library(name: "RewindSamples", targets: ["RewindSamples"]),
        .library(name: "RewindViewer", targets: ["RewindViewer"]),
        .executable(name: "rewind", targets: ["rewind"]),
    ],
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation`: the DocC catalog in Sources/Rewind/Rewind.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The system zlib (Debian package libz-dev), for the journal's compression and checksums.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["libz-dev"])]),
        // Core: the event model, the CycleLogging hooks, state capture, redaction, diff and loggers.
        .target(
            name: "Rewind",
            dependencies: [
                "CZlib",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The Cycler view-model layer (seed 003) on OpenCombine.
        .target(
            name: "Cycler",
            dependencies: [
                "Rewind",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        // Combine operators OpenCombine 0.14 lacks (merge, combineLatest), shared by Ricemill and Unio.
        .target(
            name: "CombineOperators",
            dependencies: ["Rewind", .product(name: "OpenCombine", package: "OpenCombine")]
        ),
        // RxSwift's names (Observable, relays, subjects, DisposeBag, schedulers, the common
        // operators) on OpenCombine, so that code written for RxSwift — the Cycler and Unio seeds —
        // compiles with one import.
        .target(
            name: "RxSwiftCompatibility",
            dependencies: [
                "CombineOperators",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ]
        ),
        // What Ricemill and Unio share to log units built from publishers: inputs as dispatches,
        // state properties as key-path changes, outputs as activities.
        .target(
            name: "ReactiveRecording",
            dependencies: [
                "Rewind",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        // The Ricemill input/output machines (seeds 000/004) on OpenCombine.
        .target(
            name: "Ricemill",
            dependencies: [
                "Rewind",
                "ReactiveRecording",
                "CombineOperators",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        // The Unio input/output streams (seed 002), with RxSwift's relays, subjects and bags on
        // OpenCombine.
        .target(
            name: "Unio",
            dependencies: [
                "Rewind",
                "RxSwiftCompatibility",
                "ReactiveRecording",
                "CombineOperators",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        // The Flask substances, mixers, reactors and flux (seed 001).
        .target(
            name: "Flask",
            dependencies: ["Rewind"]
        ),
        // Test helpers: replay a recorded journal as a regression test (Swift Testing and XCTest).
        .target(
            name: "RewindTesting",
            dependencies: ["Rewind", "CombineOperators"]
        ),
        // Sample view models and the scripted session behind `rewind demo` and the fixtures.
        .target(
            name: "RewindSamples",
            dependencies: [
                "Rewind", "Cycler", "Ricemill", "Unio", "Flask", .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The terminal viewer's model, update and view, and its screen: a library so that tests and
        // the benchmark drive it without a terminal.
        .target(
            name: "RewindViewer",
            // swift-log for the levels of the app's own log messages.
            dependencies: ["Rewind", .product(name: "Logging", package: "swift-log")],
            path: "Viewer/Core"
        ),
        // The `rewind` command-line tool and the terminal around the viewer.
        .executableTarget(
            name: "rewind",
            dependencies: [
                "Rewind",
                "RewindSamples",
                "RewindViewer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            path: "Viewer/CLI"
        ),
        .testTarget(
            name: "RewindTests",
            dependencies: [
                "Rewind",
                "TestSupport",
                "LoggerProbes",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "JournalTests",
            dependencies: ["Rewind", "RewindViewer", "Cycler", "journal-crash-recorder", "TestSupport"]
        ),
        // Records as fast as it can until killed: the journal's crash tests run it as a child process.
        .executableTarget(
            name: "journal-crash-recorder",
            dependencies: ["Rewind", "Cycler", .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support/JournalCrashRecorder"
        ),
        .testTarget(
            name: "CommandLineTests",
            dependencies: [
                "Rewind", "RewindSamples", "rewind", "journal-crash-recorder", "TestSupport", "LoggerProbes", "Cycler", "Ricemill", "Unio", "Flask",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "ViewerTests",
            dependencies: ["Rewind", "RewindViewer", "rewind", "TestSupport", .product(name: "Logging", package: "swift-log")],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "CyclerTests",
            dependencies: [
                "Cycler",
                "Rewind",
                "ReadmeChecking",
                "RxSwiftCompatibility",
                "CombineOperators",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CombineOperatorsTests",
            dependencies: [
                "CombineOperators",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        // Checks that a README section's code blocks appear in a test file that compiles them.
        .target(name: "ReadmeChecking", path: "Tests/Support/ReadmeChecking"),
        // A temporary directory per test, for the test targets that write files.
        .target(name: "TestSupport", path: "Tests/Support/TestSupport"),
        // Loggers that keep what they are handed (hook methods, swift-log), for the redaction tests.
        .target(
            name: "LoggerProbes",
            dependencies: ["Rewind", .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support/LoggerProbes"
        ),
        .testTarget(
            name: "RicemillTests",
            dependencies: [
                "ReadmeChecking",
                "Ricemill",
                "Rewind",
                "RewindSamples",
                "TestSupport",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        .testTarget(
            name: "UnioTests",
            dependencies: [
                "ReadmeChecking",
                "Unio",
                "Rewind",
                "RewindSamples",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        .testTarget(
            name: "FlaskTests",
            dependencies: ["Flask", "Rewind", "RewindSamples", "RewindTesting", "ReadmeChecking", "CombineOperators", "TestSupport"]
        ),
        // The Ricemill and Unio seed READMEs' examples, as written (imports aside), compiled and run
        // (the Cycler seed's is in CyclerTests, as both declare a `ViewModel`; Flask's in FlaskTests,
        // whose serialized suite it must join).
        .testTarget(
            name: "SeedExampleTests",
            dependencies: [
                "Ricemill", "Unio", "Rewind", "RewindSamples", "ReadmeChecking",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        .testTarget(
            name: "ReplayTests",
            dependencies: [
                "Rewind", "RewindTesting", "RewindSamples", "ReadmeChecking", "TestSupport", "Cycler", "Ricemill", "Unio", "CombineOperators",
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
