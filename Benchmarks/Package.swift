// swift-tools-version:6.1
import PackageDescription

/// `make bench`: Faultline against the SQLite C API doing the same SQL and
/// against GRDB, in one run. A package of its own, so that GRDB stays out of
/// Faultline's build graph; it depends on Faultline by path.
let package = Package(
    name: "FaultlineBenchmarks",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "faultline-benchmark", targets: ["FaultlineBenchmark"]),
    ],
    dependencies: [
        .package(name: "Faultline", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The limit: captured SQL replayed through the SQLite C API.
        .target(name: "CLimit", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The Selfies model's classes as `perf-run model import --swift`
        // generates them (from Model/Selfies.xcdatamodeld), in a module of
        // their own as an application's are: the generated-classes variant.
        .target(name: "GeneratedSelfies", dependencies: [.product(name: "ObjectGraph", package: "Faultline")]),
        .executableTarget(
            name: "FaultlineBenchmark",
            dependencies: [
                "CLimit", "GeneratedSelfies",
                .product(name: "Scenarios", package: "Faultline"),
                .product(name: "BuiltInScenarios", package: "Faultline"),
                .product(name: "ObjectGraph", package: "Faultline"),
                .product(name: "Probes", package: "Faultline"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The targets judged and printed, and the results table, on results made here.
        .testTarget(name: "FaultlineBenchmarkTests", dependencies: ["FaultlineBenchmark"]),
    ],
    swiftLanguageModes: [.v6]
)
