// swift-tools-version:6.0
import PackageDescription

/// An application's package that uses Faultline as a dependency: its model
/// comes from a Core Data model file (`perf-run model import`), and its
/// tests gate the persistence code's queries (`Faultline.measure`).
let package = Package(
    name: "Blog",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Faultline", path: "../.."),
    ],
    targets: [
        .target(name: "Blog", dependencies: [.product(name: "ObjectGraph", package: "Faultline")]),
        .testTarget(
            name: "BlogTests",
            dependencies: [
                "Blog",
                .product(name: "Faultline", package: "Faultline"),
                .product(name: "ObjectGraph", package: "Faultline"),
                .product(name: "ModelImport", package: "Faultline"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
