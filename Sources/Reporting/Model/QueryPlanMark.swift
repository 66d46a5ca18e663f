import Probes

/// What a row of a query plan tells a reader at a glance: a full table
/// scan (``QueryPlan/isFullScan(_:)``: `SCAN <table>` without an index),
/// a temporary B-tree (``QueryPlan/usesTemporaryBTree(_:)``: a sort,
/// grouping or DISTINCT no index serves), or neither. A scan is a fact, not
/// a fault: a fetch of every row scans on purpose (the insight rules say
/// when one is a problem).
public enum QueryPlanMark: String, Sendable, CaseIterable {
    case fullScan = "full scan"
    case temporaryBTree = "temporary B-tree"

    /// The mark of one plan row, or nil for a row that is neither.
    public init?(row: String) {
        if QueryPlan.isFullScan(row) {
            self = .fullScan
        } else if QueryPlan.usesTemporaryBTree(row) {
            self = .temporaryBTree
        } else {
            return nil
        }
    }

    /// What the mark means, in a sentence (a tooltip, a legend).
    public var meaning: String {
        switch self {
        case .fullScan: "SQLite reads every row of the table, no index serving the statement"
        case .temporaryBTree: "SQLite sorts or groups the rows itself, no index giving them in that order"
        }
    }
}

extension StatementReport {
    /// Each row of the query plan with its mark; empty without a plan.
    public var markedPlan: [(row: String, mark: QueryPlanMark?)] {
        (queryPlan ?? []).map { ($0, QueryPlanMark(row: $0)) }
    }

    /// Whether the plan has a row with `mark`.
    public func planHas(_ mark: QueryPlanMark) -> Bool {
        (queryPlan ?? []).contains { QueryPlanMark(row: $0) == mark }
    }
}
