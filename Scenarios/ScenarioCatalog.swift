/// The built-in scenarios, in the order `perf-run` runs them.
///
/// To add a scenario, write a file in Scenarios/ with
/// `extension Scenario { public static let myScenario = Scenario(…) { run in … } }`
/// and add it here.
public enum ScenarioCatalog {
    public static let all: [Scenario] = [
        .fetchAll, .didFault, .singleFault, .batchFault, .prefetch, .cache, .uniquing, .predicate, .subquery, .batchUpdate,
        .batchInsert, .historyMerge, .derivedCount, .fetchBatchSize, .multiThread,
    ]

    /// The scenario with this name (case-insensitive).
    public static func named(_ name: String) -> Scenario? {
        all.first { $0.name.lowercased() == name.lowercased() }
    }
}
