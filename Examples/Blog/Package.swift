// swift-tools-version:6.0
import PackageDescription

/// An application's package that uses Faultline as a dependency: its model
/// comes from a Core Data model file (`perf-run model import`), and its
/// tests gate the persistence code's queries (`Faultline.measure`), and its
/// scenarios run with the perf-run command (`swift run blog-perf run`).
let package = Package(
    name: "Blog",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Faultline", path: "../.."),
    ],
    targets: [
        .target(name: "Blog", dependencies: [.product(name: "ObjectGraph", package: "Faultline")]),
        // The blog's scenarios on its own data set, and its perf-run command.
        .target(
            name: "BlogScenarios",
            dependencies: ["Blog", .product(name: "Scenarios", package: "Faultline"), .product(name: "ObjectGraph", package: "Faultline")]
        ),
        .executableTarget(
            name: "blog-perf",
            dependencies: ["BlogScenarios", .product(name: "PerfRunCommand", package: "Faultline"), .product(name: "Scenarios", package: "Faultline")]
        ),
        .testTarget(
            name: "BlogTests",
            dependencies: [
                "Blog", "BlogScenarios",
                .product(name: "Faultline", package: "Faultline"),
                .product(name: "ObjectGraph", package: "Faultline"),
                .product(name: "ModelImport", package: "Faultline"),
                .product(name: "Probes", package: "Faultline"),
                .product(name: "Insights", package: "Faultline"),
                .product(name: "SQLLogViewer", package: "Faultline"),
                .product(name: "Scenarios", package: "Faultline"),
            ]
        ),
        // The gates as an application's test target writes them, with the
        // Faultline product alone: measure, require…, insight settings.
        .testTarget(name: "BlogGateTests", dependencies: ["Blog", .product(name: "Faultline", package: "Faultline")]),
    ],
    swiftLanguageModes: [.v6]
)
