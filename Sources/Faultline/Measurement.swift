import Probes
import Reporting

/// What a block of persistence code did (``Faultline/measure(_:_:)``), and
/// checks on it that throw a ``MeasurementFailure`` showing the statements
/// and insights when they do not hold.
public struct Measurement: Sendable {
    /// Exact counters (docs/report-schema.md defines each).
    public var counters: Counters
    /// Statements by shape, most total time first, with the call site of
    /// the first of each.
    public var statements: [StatementAggregate]
    /// What the insight rules found (fault storms, repeated statements, full
    /// scans, saves in loops, …).
    public var insights: [Insight]
    /// Time spent in SQLite statements.
    public var sqliteSeconds: Double

    // MARK: Checks

    /// No fault storm: no entity's objects were faulted one by one from the
    /// database after relationship faults (an N+1 a prefetch would end).
    public func requireNoFaultStorm() throws {
        try requireNoInsight("fault-storm", "fault storm")
    }

    /// No read (a SELECT) run again with the same bound values 10 times or
    /// more: a result the code could have kept.
    public func requireNoRepeatedStatement() throws {
        try requireNoInsight("repeated-statement", "statement repeated with the same values")
    }

    /// No statement stepped through whole tables (SQLite's full-scan
    /// counter), however small.
    public func requireNoFullScan() throws {
        let scanning = statements.filter { $0.fullScanSteps > 0 }
        guard scanning.isEmpty else {
            let shapes = scanning.count == 1 ? "1 statement shape" : "\(scanning.count) statement shapes"
            throw failure("expected no full table scan, but \(shapes) stepped through whole tables", highlighting: scanning)
        }
    }

    /// At most `limit` SQL statements, BEGIN and COMMIT included.
    public func requireAtMost(statements limit: Int) throws {
        try requireAtMost(limit, of: "sqlStatements")
    }

    /// At most `limit` of one counter, by its name in reports
    /// (`faultsFired`, `fetches`, `rowsRead`, …: ``Counters/names``).
    public func requireAtMost(_ limit: Int, of counter: String) throws {
        guard let value = counters[counter] else {
            throw MeasurementFailure("no counter \(counter): the counters are \(Counters.names.joined(separator: ", "))")
        }
        guard value <= limit else {
            throw failure("expected at most \(limit) \(counter), got \(value)", highlighting: [])
        }
    }

    private func requireNoInsight(_ rule: String, _ what: String) throws {
        let found = insights.filter { $0.rule == rule }
        guard found.isEmpty else {
            let lines = found.map { "  \($0.message) (\($0.evidence); first at \($0.callSite))" }
            throw failure("expected no \(what), found \(found.count):\n" + lines.joined(separator: "\n"), highlighting: [])
        }
    }

    /// The failure, then the statements (the highlighted ones marked), so
    /// that a failing test shows what ran and where.
    private func failure(_ headline: String, highlighting: [StatementAggregate]) -> MeasurementFailure {
        let marked = Set(highlighting.map(\.shape))
        var lines = [headline, "statements (\(counters.sqlStatements) in all):"]
        for statement in statements {
            let scan = statement.fullScanSteps > 0 ? ", \(statement.fullScanSteps) full-scan steps" : ""
            lines.append("\(marked.contains(statement.shape) ? "> " : "  ")\(statement.count) × \(statement.shape)"
                + " (\(statement.rowsReturned) rows\(scan); first at \(statement.firstCallSite))")
        }
        return MeasurementFailure(lines.joined(separator: "\n"))
    }
}
