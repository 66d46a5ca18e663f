import Faultline
import Foundation
import RecipesApp
import SQLLogViewer
import Scenarios
import Synchronization
import Testing

/// What the tests of the recipes app share: its data sets, its scenario,
/// and the three ways a team meets the diagnosis (a run's report, a test's
/// gate, a SQL debug log of the run).
enum RecipesDiagnosis {
    /// The data sets are built once per test process.
    static let cache = DataSetCache(
        directory: FileManager.default.temporaryDirectory.appendingPathComponent("faultline-recipes-datasets-\(getpid())"))

    /// The recipes data set on the model `mistake` runs with: 500 recipes,
    /// 12 types, an image and four ingredients per recipe, whatever the scale.
    static func dataSet(_ mistake: Mistake?) -> DataSetKind {
        let name = switch mistake {
        case .unindexedFilter: "recipes-no-ingredient-name-index"
        case .sortWithoutIndex: "recipes-no-recipe-name-index"
        default: "recipes"
        }
        return DataSetKind(
            name: name, model: Recipes.model(for: mistake),
            expectedRows: { _ in ["Recipe": 500, "RecipeType": 12, "Image": 500, "Ingredient": 2_000] },
            build: { store, _, _, _ in try Recipes.seed(store) })
    }

    /// The app's tour as a scenario, with `mistake` seeded.
    static func scenario(_ mistake: Mistake?) -> Scenario {
        Scenario(
            name: "Recipes-\(mistake?.rawValue ?? "efficient")", summary: "every screen of the recipes app once, then an import",
            dataSet: dataSet(mistake), writes: true
        ) { iteration in
            _ = try await Tour.visit(iteration.store, mistake)
        }
    }

    /// What a run of the tour and its log found.
    struct Findings {
        /// The run report's insights and counters.
        var run: [Insight]
        var counters: [String: Int]
        /// The insights of the run's level-2 SQL debug log.
        var log: [Insight]
    }

    /// A run of the tour (2 iterations after 1 warm-up) and its level-2 SQL debug log.
    static func runAndLog(_ mistake: Mistake?) throws -> Findings {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-\(mistake?.rawValue ?? "efficient")-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = RunOptions()
        options.configuration.scale = 1
        options.configuration.iterations = 2
        options.configuration.warmup = 1
        options.sinks = [try SQLDebugLogSink(level: 2, destination: .file(path))]
        let runner = ScenarioRunner(options: options, cache: cache)
        try runner.prepare()
        let scenario = scenario(mistake)
        let report = try #require(runner.run([scenario]).first)
        try #require(report.status == .passed, "\(scenario.name): \(report.error ?? "")")
        var analyzer = SQLLogAnalyzer(sourceName: "recipes.log", settings: scenario.insights)
        try analyzer.consume(try LogFile.open(path), path: path)
        return Findings(run: report.insights, counters: report.counters, log: analyzer.finish().insights)
    }

    /// A store seeded as the data set `mistake` runs on, that allows
    /// measurement: a copy of the cached data set (seeded once per test
    /// process, not once per store), removed when the test process exits.
    static func store(_ mistake: Mistake?) throws -> Store {
        let source = try cache.file(for: dataSet(mistake), scale: 1, seed: RunOptions().configuration.seed)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-\(UUID()).sqlite").path
        _ = removeCopiesAtExit
        copies.withLock { $0.append(path) }
        try FileManager.default.copyItem(atPath: source, toPath: path)
        var configuration = StoreConfiguration()
        configuration.sinks = []
        configuration.allowsMeasurement = true
        return try Store(model: Recipes.model(for: mistake), location: .file(path), configuration: configuration)
    }

    /// The stores' copies made so far.
    private static let copies = Mutex<[String]>([])
    private static let removeCopiesAtExit: Void = { atexit { RecipesDiagnosis.removeCopies() } }()

    /// Removes every copy ``store(_:)`` made, with its -wal and -shm.
    private static func removeCopies() {
        for path in copies.withLock({ $0 }) {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }

    /// The sites in the app's screens whose `// mistake:` comment names `mistake`.
    static func sites(of mistake: Mistake) throws -> [String] { try sites(of: mistake.rawValue) }

    /// The sites in the app's screens whose `// mistake:` comment names `name`.
    static func sites(of name: String) throws -> [String] {
        let screens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RecipesApp/Screens.swift")
        let lines = try String(contentsOf: screens, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        return lines.enumerated().compactMap { number, line in
            guard let range = line.range(of: "// mistake: ") else { return nil }
            return line[range.upperBound...].split(separator: " ").contains { $0 == name }
                ? "RecipesApp/Screens.swift:\(number + 1)" : nil
        }
    }

    /// An insight as the tests compare them: rule, subject and site, and count.
    static func described(_ insights: [Insight]) -> [String] {
        insights.map { "\($0.identity) ×\($0.count ?? -1)" }.sorted()
    }
}
