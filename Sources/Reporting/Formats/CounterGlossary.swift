import Probes

/// What each counter counts, in one sentence: the one definition the page
/// shows as a tooltip on a counter's heading and the Markdown as a legend
/// under a table (docs/report-schema.md says the same).
public enum CounterGlossary {
    /// The definition of `counter`, per measured iteration.
    public static func definition(_ counter: CounterName) -> String {
        switch counter {
        case .fetches: "fetch requests a context executed (objects, IDs, dictionaries, counts); not prefetch queries, batch pages or relationship faults"
        case .faultsFired: "object faults fired (an object's values loaded on first use), from the row cache or from SQLite"
        case .relationshipFaultsFired: "relationship faults fired (a relationship's destinations looked up on first use)"
        case .cacheHits: "object faults fulfilled from the row cache, without SQL"
        case .cacheMisses: "object or relationship faults that needed a SQL round trip"
        case .sqlStatements: "statements executed on SQLite, BEGIN and COMMIT included"
        case .rowsRead: "rows SQLite returned"
        case .rowsWritten: "rows inserted, updated or deleted, join and history rows included"
        case .saves: "context saves that reached the store, failed ones too"
        case .batchRequests: "batch update, insert and delete requests"
        case .fullScanSteps: "rows SQLite stepped through in full table scans"
        case .vmSteps: "SQLite virtual-machine steps: the SQL work done, the same on any machine"
        case .objectsRegisteredPeak: "the most objects registered in all contexts at once (advisory: depends on when Swift frees objects)"
        }
    }

    /// The definition of the counter named `name`; nil for a name that is
    /// not a counter.
    public static func definition(named name: String) -> String? {
        CounterName(rawValue: name).map(definition)
    }

    /// `name: definition` for each counter named, once, in the order
    /// given (a table's columns), for a legend.
    public static func legend(_ counters: [CounterName]) -> [String] {
        var seen: Set<CounterName> = []
        return counters.filter { seen.insert($0).inserted }.map { "\($0.rawValue): \(definition($0))" }
    }
}
