// swift-tools-version: 6.1
import PackageDescription

// Rewind's Model Context Protocol server, in a package of its own so that users of the core never
// resolve or build the MCP SDK. `rewind mcp` runs the `rewind-mcp` it builds.
let package = Package(
    name: "RewindMCP",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RewindMCP", targets: ["RewindMCP"]),
        .executable(name: "rewind-mcp", targets: ["rewind-mcp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        // Logging, for the transport's logger (the SDK's Transport requires one; the SDK depends on it too).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
        // FileDescriptor, for the tests' client on the server's pipes (the SDK depends on it too).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .target(name: "RewindMCP", dependencies: [.product(name: "MCP", package: "swift-sdk"), .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "rewind-mcp", dependencies: ["RewindMCP", .product(name: "MCP", package: "swift-sdk")]),
        .testTarget(name: "RewindMCPTests", dependencies: [
            "RewindMCP", .product(name: "MCP", package: "swift-sdk"), .product(name: "SystemPackage", package: "swift-system"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
