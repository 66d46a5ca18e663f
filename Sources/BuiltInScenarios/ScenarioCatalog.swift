import Reporting
import Scenarios

/// The scenarios, in the order `perf-run` runs them: the built-in ones in
/// the book's order, then any other scenario declared in Scenarios/.
///
/// To add a scenario, write one file in Scenarios/ with
/// `extension Scenario { public static let myScenario = Scenario(…) { run in … } }`:
/// the build lists it (ScenarioCatalogPlugin), nothing else to edit.
public enum ScenarioCatalog {
    static let builtIn: [Scenario] = [
        .fetchAll, .didFault, .singleFault, .batchFault, .prefetch, .cache, .uniquing, .predicate, .subquery, .batchUpdate,
        .batchFaultByPredicate, .singleFaultStaleness0, .prefetchStaleness0,
        .batchInsert, .historyMerge, .derivedCount, .fetchBatchSize, .multiThread, .toOneList,
        .inheritanceFetch,
    ]

    /// The book's experiments the built-in scenarios repeat (each declared
    /// next to its scenarios), in the book's order: a run's report judges
    /// every one whose scenarios ran.
    public static let experiments: [ExperimentReference] = [
        .fetchAll, .didFault, .singleFaultVsPrefetch, .batchFaultVsSingleFault, .singleFaultVsPrefetchStaleness0, .cacheColdVsWarm,
        .uniquing, .predicateOrder, .subqueryVsManual, .batchUpdate,
    ]

    public static let all: [Scenario] = {
        let known = Set(builtIn.map(\.name))
        return builtIn + declared.filter { !known.contains($0.name) }.sorted { $0.name < $1.name }
    }()

    /// The scenario with this name (case-insensitive).
    public static func named(_ name: String) -> Scenario? {
        all.first { $0.name.lowercased() == name.lowercased() }
    }
}
