// swift-tools-version: 6.1
import PackageDescription

// Rewind's OpenTelemetry exporter, in a package of its own so that users of the core never resolve
// or build swift-otel and its dependencies (SwiftNIO, AsyncHTTPClient, SwiftProtobuf).
let package = Package(
    name: "RewindOpenTelemetry",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RewindOpenTelemetry", targets: ["RewindOpenTelemetry"]),
        // What `rewind export FILE --otlp URL` runs.
        .executable(name: "rewind-otlp", targets: ["rewind-otlp"]),
    ],
    dependencies: [
        .package(name: "Rewind", path: ".."),
        // OTLP over HTTP only: the gRPC exporter's dependencies are not built.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.2"),
    ],
    targets: [
        .target(
            name: "RewindOpenTelemetry",
            dependencies: [
                .product(name: "Rewind", package: "Rewind"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .executableTarget(
            name: "rewind-otlp",
            dependencies: [
                "RewindOpenTelemetry",
                .product(name: "Rewind", package: "Rewind"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Runs Tests/RewindOpenTelemetryTests/otlp_receiver.py (pip install opentelemetry-proto),
        // and the rewind-otlp tool built beside the tests.
        .testTarget(
            name: "RewindOpenTelemetryTests",
            dependencies: [
                "RewindOpenTelemetry",
                "rewind-otlp",
                .product(name: "Rewind", package: "Rewind"),
                .product(name: "Cycler", package: "Rewind"),
            ],
            exclude: ["otlp_receiver.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
