/// Reading SQLite's `EXPLAIN QUERY PLAN` rows.
public enum QueryPlan {
    /// Whether a plan row is a full table scan: `SCAN <table>` without a
    /// `USING … INDEX`. A covering-index scan is an index scan, not a full scan.
    public static func isFullScan(_ detail: String) -> Bool {
        let trimmed = detail.drop { $0 == " " }
        guard trimmed.hasPrefix("SCAN ") else { return false }
        return !trimmed.contains(" INDEX") && !trimmed.contains("VIRTUAL TABLE") && !trimmed.contains("CONSTANT ROW")
    }

    /// Whether a plan row builds a temporary B-tree: `USE TEMP B-TREE FOR
    /// ORDER BY` (a sort no index serves), `… FOR GROUP BY`, `… FOR
    /// DISTINCT`, `… FOR RIGHT PART OF ORDER BY`.
    public static func usesTemporaryBTree(_ detail: String) -> Bool {
        detail.contains("USE TEMP B-TREE")
    }

    /// The table a `SCAN` or `SEARCH` row reads (`SCAN Person` → `Person`).
    public static func table(of detail: String) -> String? {
        var words = detail.split(separator: " ").map(String.init)
        guard let first = words.first, first == "SCAN" || first == "SEARCH" else { return nil }
        words.removeFirst()
        if words.first == "TABLE" { words.removeFirst() }
        return words.first
    }
}
