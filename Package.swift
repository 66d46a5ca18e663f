// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Faultline",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "perf-run", targets: ["PerfRun"]),
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "Probes", targets: ["Probes"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The C edges.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),

        // Event types, sinks and counters; knows nothing of the engine.
        .target(name: "Probes"),

        // The object-graph engine.
        .target(name: "ObjectGraph", dependencies: ["CSQLite", "Probes"]),

        // Report model, formats, comparison and SQL debug log parsing.
        .target(name: "Reporting", dependencies: ["Probes"]),

        // Built-in scenarios and their data sets.
        .target(name: "Scenarios", dependencies: ["ObjectGraph", "Reporting"], path: "Scenarios"),

        // The command-line tool: argument parsing only.
        .executableTarget(
            name: "PerfRun",
            dependencies: [
                "Scenarios", "Reporting", "ObjectGraph",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph"]),
    ],
    swiftLanguageModes: [.v6]
)
