// swift-tools-version: 6.1
import PackageDescription

// Records a fleet of checkout sessions, as many app installs would, for Examples/Fleet/run to
// export and query with ClickHouse and DuckDB. Examples/Fleet/run copies it beside a link named
// Rewind to this checkout, which it depends on by path.
let package = Package(
    name: "RecordFleet",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../Rewind")],
    targets: [
        .executableTarget(
            name: "RecordFleet",
            dependencies: [.product(name: "Rewind", package: "Rewind"), .product(name: "Cycler", package: "Rewind")]
        ),
    ]
)
