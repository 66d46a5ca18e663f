// swift-tools-version:6.0
import Foundation
import PackageDescription

/// `FAULTLINE_NO_INSTRUMENTATION=1 swift build …` compiles the engine's
/// instrumentation out, for the probes-cost benchmark's reference build.
let instrumentationCompiledOut = ProcessInfo.processInfo.environment["FAULTLINE_NO_INSTRUMENTATION"] == "1"

let package = Package(
    name: "Faultline",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "perf-run", targets: ["PerfRun"]),
        .executable(name: "faultline-bench", targets: ["FaultlineBench"]),
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "Probes", targets: ["Probes"]),
        .library(name: "ToolSupport", targets: ["ToolSupport"]),
        .library(name: "Insights", targets: ["Insights"]),
        .library(name: "SQLLogViewer", targets: ["SQLLogViewer"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        .library(name: "BuiltInScenarios", targets: ["BuiltInScenarios"]),
        // Measuring persistence code in an application's own tests.
        .library(name: "Faultline", targets: ["Faultline"]),
        // Core Data models read into Faultline's model.
        .library(name: "ModelImport", targets: ["ModelImport"]),
        // The perf-run command, for an application's own scenarios.
        .library(name: "PerfRunCommand", targets: ["PerfRunCommand"]),
        // The LTTng-UST probes, loaded by perf-run at run time when present.
        .library(name: "FaultlineTracepointProvider", type: .dynamic, targets: ["FaultlineTracepointProvider"]),
        // Bridges for server applications, each on its own: the events as
        // swift-log records, swift-metrics counters and timers, and
        // swift-distributed-tracing spans (docs/bridges.md).
        .library(name: "FaultlineLogging", targets: ["FaultlineLogging"]),
        .library(name: "FaultlineMetrics", targets: ["FaultlineMetrics"]),
        .library(name: "FaultlineTracing", targets: ["FaultlineTracing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Prometheus' exposition format, for `perf-run publish` (PrometheusPublishing only).
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Only the server bridges use these.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        // The C edges.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // PostgreSQL's C client, for the history store of a fleet of runners.
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),

        // Tracepoint call sites (dynamic linkage: no liblttng-ust link).
        .target(name: "CTracepoints", dependencies: ["CTracepointDefinitions"]),
        // The tracepoint definitions and their field structures, shared by
        // the call sites and the provider through an include directory.
        .target(name: "CTracepointDefinitions"),
        // The tracepoint provider (probes), a separate dynamic library.
        .target(
            name: "FaultlineTracepointProvider",
            dependencies: ["CTracepointDefinitions"],
            cSettings: [.headerSearchPath(".")],
            linkerSettings: [.linkedLibrary("lttng-ust")]
        ),

        // The callers of a function, by their frame pointers: the cheap key
        // of the line a fault was read at.
        .target(name: "CCallerFrames"),
        // Descriptors close-on-exec from the start (pipe2, mkostemp), for
        // the programs perf-run runs.
        .target(name: "CDescriptors"),

        // Event types, sinks and counters; knows nothing of the engine.
        // The clock of every event (the time-stamp counter where the kernel
        // keeps time with it): a C header, so that a reading inlines.
        .target(name: "CProbeClock"),
        .target(
            name: "Probes",
            dependencies: ["CTracepoints", "CCallerFrames", "CProbeClock"]),

        // The object-graph engine.
        .target(
            name: "ObjectGraph",
            dependencies: ["CSQLite", "Probes"],
            swiftSettings: instrumentationCompiledOut ? [.define("FAULTLINE_NO_INSTRUMENTATION")] : []
        ),

        // What every command stands on: the one writer (atomic files,
        // standard streams), input files, temporary files, signals, exit
        // statuses and the typed errors.
        .target(name: "ToolSupport", dependencies: ["Probes"]),
        // The insight rules (one file each in Rules/, listed by
        // InsightRuleCatalogPlugin), their engine, settings and accepted
        // lists: one evidence model fed by runs, measure() and logs alike.
        .target(name: "Insights", dependencies: ["ToolSupport", "Probes"], plugins: ["InsightRuleCatalogPlugin"]),
        // The reader of SQL debug logs, Faultline's and Core Data's.
        .target(name: "SQLLogViewer", dependencies: ["Insights", "ToolSupport", "Probes"]),
        // The report model and its one builder, comparison, trend,
        // experiments, statistics, the history store (SQLite, PostgreSQL),
        // and one type per output format.
        .target(name: "Reporting", dependencies: ["SQLLogViewer", "Insights", "ToolSupport", "Probes", "CSQLite", "CLibPQ"]),

        // Core Data models (.xcdatamodeld) read into Faultline's model
        // (CSQLite: SQLite's own limits, such as columns per table).
        .target(name: "ModelImport", dependencies: ["ObjectGraph", "ToolSupport", "CSQLite"]),

        // Faultline.measure and its checks, for an application's tests.
        .target(name: "Faultline", dependencies: ["ObjectGraph", "Probes", "Insights"]),

        // The runner: scenarios, data sets, iterations, sinks, LTTng (and
        // its read-back), what-if, reports: what a scenario package (the
        // built-in one, or an application's) builds on.
        .target(name: "Scenarios", dependencies: ["ObjectGraph", "Probes", "Reporting", "Insights", "ToolSupport", "CDescriptors"]),
        // The built-in scenarios (the book's experiments and Faultline's
        // own) and their data sets; the catalog lists every scenario file
        // (ScenarioCatalogPlugin).
        .target(
            name: "BuiltInScenarios", dependencies: ["Scenarios", "ObjectGraph", "Reporting", "Insights"],
            plugins: ["ScenarioCatalogPlugin"]),
        // What the two build plugins read: a declaration they cannot read
        // fails the build with its file and line.
        .target(name: "CatalogDeclarations"),
        .executableTarget(name: "ScenarioCatalogGenerator", dependencies: ["CatalogDeclarations"]),
        .testTarget(name: "CatalogDeclarationsTests", dependencies: ["CatalogDeclarations", "TestSupport"]),
        .plugin(name: "ScenarioCatalogPlugin", capability: .buildTool(), dependencies: ["ScenarioCatalogGenerator"]),
        .plugin(name: "InsightRuleCatalogPlugin", capability: .buildTool(), dependencies: ["ScenarioCatalogGenerator"]),

        // The perf-run command as a library: argument parsing only, on the
        // built-in scenarios or an application's own.
        .target(
            name: "PerfRunCommand",
            dependencies: [
                "Scenarios", "Reporting", "Insights", "SQLLogViewer", "ToolSupport", "ObjectGraph", "ModelImport", "PrometheusPublishing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Reports to a Prometheus Pushgateway, for dashboards, and the
        // clean-up of its groups (perf-run publish, run --pushgateway).
        .target(
            name: "PrometheusPublishing",
            dependencies: ["Reporting", "ToolSupport", "Probes", .product(name: "Prometheus", package: "swift-prometheus")]
        ),
        // perf-run itself: the command on the built-in scenarios.
        .executableTarget(name: "PerfRun", dependencies: ["PerfRunCommand", "BuiltInScenarios"]),

        // The probes-cost workload (make bench-probes, the LTTng test).
        .executableTarget(
            name: "FaultlineBench",
            dependencies: [
                "ObjectGraph", "Probes", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The server bridges, measured as sinks like the others.
                "FaultlineLogging", "FaultlineMetrics", "FaultlineTracing",
            ]
        ),

        // The clock's fork safety and its readings after a time without any,
        // checked in a process of its own (ProbeClockProcessTests).
        .executableTarget(name: "ProbeClockCheck", dependencies: ["CProbeClock"], path: "Tests/ProbeClockCheck"),
        // Listing the images while connections close, in a process of its own (FileMappingsTests).
        .executableTarget(name: "FileMappingsCheck", dependencies: ["ObjectGraph", "Probes"], path: "Tests/FileMappingsCheck"),

        .testTarget(
            name: "ObjectGraphTests",
            dependencies: ["ObjectGraph", "Probes", .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Golden"]
        ),
        .testTarget(name: "FaultlineTests", dependencies: ["Faultline", "ObjectGraph", "Probes", "Insights", "SQLLogViewer"]),
        .testTarget(name: "ModelImportTests", dependencies: ["ModelImport", "ObjectGraph", "ToolSupport", "TestSupport"], exclude: ["Fixtures"]),
        // Two corpus models as `perf-run model import --swift` generates them
        // (ModelImportTests checks they still are), a module of their own as
        // in an application, and tests that use the engine through them.
        .target(name: "GeneratedModels", dependencies: ["ObjectGraph"], path: "Tests/GeneratedModels"),
        .testTarget(name: "GeneratedModelTests", dependencies: ["GeneratedModels", "ObjectGraph", "Faultline", "Probes"]),
        // An app of its own, as a team writes one (Apple's recipes model
        // imported with `perf-run model import --swift`, #Predicate, async
        // screens), with each common persistence mistake seeded one at a
        // time; SeededMistakeTests checks the diagnosis finds each.
        .target(name: "RecipesApp", dependencies: ["ObjectGraph"], path: "Tests/RecipesApp", exclude: ["Model"]),
        .testTarget(name: "SeededMistakeTests", dependencies: ["RecipesApp", "Faultline", "Scenarios", "SQLLogViewer"]),
        .testTarget(
            name: "ReportingTests",
            dependencies: ["Reporting", "SQLLogViewer", "Insights", "ToolSupport", "Probes", "Scenarios", "TestSupport"],
            exclude: ["Fixtures"]),
        // What the tests share: finding and running the built products.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "EventSamples", dependencies: ["Probes"], path: "Tests/EventSamples"),
        .testTarget(
            name: "ScenariosTests",
            dependencies: [
                "Scenarios", "BuiltInScenarios", "Reporting", "Insights", "SQLLogViewer", "ToolSupport", "ObjectGraph", "Probes", "Faultline",
                "TestSupport",
            ]),
        // The command line, run as a user runs it.
        .testTarget(
            name: "PerfRunTests",
            dependencies: [
                "Scenarios", "BuiltInScenarios", "Reporting", "SQLLogViewer", "ToolSupport", "PerfRunCommand", "ObjectGraph", "Probes", "TestSupport",
            ]),
        // Publishing to a real Pushgateway, scraped by a real Prometheus.
        .testTarget(name: "PrometheusPublishingTests", dependencies: ["PrometheusPublishing", "Reporting", "ToolSupport", "TestSupport"]),
        // The server bridges: a sink each, on Probes and one library.
        // Logging and metrics are also told of the insights an
        // InsightWatch finds while an application runs.
        .target(name: "FaultlineLogging", dependencies: ["Probes", "Insights", .product(name: "Logging", package: "swift-log")]),
        .target(name: "FaultlineMetrics", dependencies: ["Probes", "Insights", .product(name: "CoreMetrics", package: "swift-metrics")]),
        .target(name: "FaultlineTracing", dependencies: ["Probes", .product(name: "Tracing", package: "swift-distributed-tracing")]),
        .testTarget(
            name: "BridgesTests",
            dependencies: [
                "FaultlineLogging", "FaultlineMetrics", "FaultlineTracing", "Probes", "ObjectGraph", "EventSamples", "Insights",
                // Publish's metric names, against the metrics bridge's; the bridge's buckets in swift-prometheus.
                "PrometheusPublishing", "Reporting", .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(name: "ProbesTests", dependencies: ["Probes", "ObjectGraph", "Scenarios", "BuiltInScenarios", "TestSupport", "EventSamples"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
