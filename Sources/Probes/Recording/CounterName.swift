/// The report's counters by name (docs/report-schema.md): the raw values
/// are the names in JSON reports, comparisons and thresholds files.
public enum CounterName: String, Sendable, CaseIterable, Codable, Hashable, Comparable {
    case fetches
    case faultsFired
    case relationshipFaultsFired
    case cacheHits
    case cacheMisses
    case sqlStatements
    case rowsRead
    case rowsWritten
    case saves
    case batchRequests
    case fullScanSteps
    case vmSteps
    case objectsRegisteredPeak

    /// What a change of the counter means.
    public enum Direction: String, Sendable, Codable {
        /// More means slower: statements, rows, faults, misses, full-scan
        /// and VM steps, writes. An increase is a regression.
        case cost
        /// More is neither slower nor faster by itself (fetches, cache
        /// hits, saves, batch requests): a change is reported, not judged.
        case neutral
        /// Depends on timing or memory management: never judged.
        case advisory
    }

    /// Whether more of it means slower.
    public var direction: Direction {
        switch self {
        case .sqlStatements, .rowsRead, .rowsWritten, .faultsFired, .relationshipFaultsFired, .cacheMisses, .fullScanSteps, .vmSteps:
            .cost
        case .fetches, .cacheHits, .saves, .batchRequests: .neutral
        case .objectsRegisteredPeak: .advisory
        }
    }

    /// Report order.
    public static func < (lhs: CounterName, rhs: CounterName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

extension Dictionary where Key == String, Value == Int {
    /// A counter of a report's `counters` (or a phase's), by its typed name.
    public subscript(counter: CounterName) -> Int? {
        get { self[counter.rawValue] }
        set { self[counter.rawValue] = newValue }
    }
}
