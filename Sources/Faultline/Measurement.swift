import Insights
import Probes

/// What a block of persistence code did (``Faultline/measure(_:insights:_:)-(_,_,()->Void)``),
/// and checks on it. A check that does not hold is reported at the line
/// that called it (``MeasurementCheck``), with the statements the block
/// ran (their call sites) and the insights.
public struct Measurement: Sendable {
    /// Exact counters (docs/report-schema.md defines each).
    public var counters: Counters
    /// Statements by shape, most total time first, with the call site of
    /// the first of each.
    public var statements: [StatementAggregate]
    /// What the insight rules found (N+1s, repeated statements, full scans,
    /// sorts without an index, saves in loops, …), with the settings the
    /// measurement was given.
    public var insights: [Insight]
    /// Time spent in SQLite statements.
    public var sqliteSeconds: Double
    /// Lazy loads a fetch of the block said it intends
    /// (`FetchRequest.intendedLazyLoads`) that no insight matched, as
    /// `Entity.keyPath at File.swift:line`: an intention that no longer
    /// holds, or that this block's data is too small to show (one card
    /// makes no N+1), so no gate fails on it.
    public var unmatchedIntentions: [String] = []

    // MARK: Checks

    /// No N+1: no objects of one fetch loaded a relationship or their
    /// values with a query each (the `n-plus-one` rule), unless accepted.
    public func requireNoNPlusOne(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        try requireNoInsight(.nPlusOne, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// No fault storm: what the `n-plus-one` rule finds by pattern now.
    @available(*, deprecated, renamed: "requireNoNPlusOne(fileID:filePath:line:column:)")
    public func requireNoFaultStorm(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        try requireNoInsight(.nPlusOne, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// No read (a SELECT) run again with the same bound values as often as
    /// the `repeated-statement` rule's threshold: a result the code could have kept.
    public func requireNoRepeatedStatement(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        try requireNoInsight(.repeatedStatement, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// No full table scan the `full-scan` rule reports: no statement that
    /// asks for some rows steps through a whole table to find them, with
    /// the measurement's settings (the rule's threshold, and
    /// ``InsightSettings/smallTableRowLimit``: a scan of a small table is
    /// none), unless accepted. Reading every row, or a list in an index's
    /// order, is no full scan; neither is a scan of a table of a few dozen
    /// rows. A scan no index can serve fails too (accept it, at its site,
    /// when it is known): listed after those an index would fix.
    public func requireNoFullScan(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        let found = Self.ranked(insights.filter { $0.rule == .fullScan && $0.isActionable })
        guard found.isEmpty else {
            let shapes = Set(found.flatMap { $0.evidence.components(separatedBy: " | ") })
            let scanning = statements.filter { shapes.contains($0.shape) }
            let count = scanning.count == 1 ? "1 statement shape" : "\(scanning.count) statement shapes"
            try MeasurementCheck.fail(
                failure(
                    "expected no full table scan, but \(count) stepped through whole tables:\n" + Self.lines(found).joined(separator: "\n"),
                    highlighting: scanning),
                fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    /// No insight of `rule` that is to be acted on (neither accepted nor
    /// intended in the measurement's settings): a gate per rule, as the
    /// rules see it (`requireNoInsight(.nPlusOne)`, `.saveInLoop`,
    /// `.unusedPrefetch`, …; ``InsightEngine/rules`` lists them). A failure
    /// lists the insights' messages, what can be fixed first; a rule no
    /// build has (a misspelled ``InsightRuleID``) fails, never passes.
    public func requireNoInsight(
        _ rule: InsightRuleID, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        guard InsightEngine.rule(rule) != nil else {
            try MeasurementCheck.fail(
                MeasurementFailure("no insight rule \(rule): the rules are \(InsightEngine.rules.map(\.id.rawValue).joined(separator: ", "))"),
                fileID: fileID, filePath: filePath, line: line, column: column)
        }
        let found = Self.ranked(insights.filter { $0.rule == rule && $0.isActionable })
        guard found.isEmpty else {
            try MeasurementCheck.fail(
                failure("expected no \(rule) insight, found \(found.count):\n" + Self.lines(found).joined(separator: "\n"), highlighting: []),
                fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    /// No insight of any rule that is to be acted on: what `perf-run run`
    /// would put in "what to fix first", in the same order.
    public func requireNoInsights(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        let found = Self.ranked(insights.filter(\.isActionable))
        guard found.isEmpty else {
            try MeasurementCheck.fail(
                failure("expected no insight, found \(found.count):\n" + Self.lines(found).joined(separator: "\n"), highlighting: []),
                fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    /// What can be fixed first (``Insight/canBeFixed``), then by cost, as
    /// "what to fix first" ranks them.
    static func ranked(_ insights: [Insight]) -> [Insight] {
        insights.enumerated().sorted { a, b in
            if a.element.canBeFixed != b.element.canBeFixed { return a.element.canBeFixed }
            let (x, y) = (a.element.costSeconds ?? 0, b.element.costSeconds ?? 0)
            return x != y ? x > y : a.offset < b.offset
        }.map(\.element)
    }

    /// An insight per line: its message, figures and site, and whether no
    /// index serves it.
    static func lines(_ insights: [Insight]) -> [String] {
        insights.map { "  \($0.message) (\($0.evidence); at \($0.callSite))\($0.canBeFixed ? "" : " [no index serves it]")" }
    }

    /// At most `limit` SQL statements, BEGIN and COMMIT included.
    public func requireAtMost(
        statements limit: Int, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        try requireAtMost(limit, of: .sqlStatements, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// At most `limit` of one counter.
    public func requireAtMost(
        _ limit: Int, of counter: CounterName, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) throws {
        let value = counters[counter]
        guard value <= limit else {
            try MeasurementCheck.fail(
                failure("expected at most \(limit) \(counter.rawValue), got \(value)", highlighting: []),
                fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    /// At most `limit` of one counter, by its name in reports.
    @available(*, deprecated, message: "name the counter by its CounterName (.faultsFired)")
    public func requireAtMost(
        _ limit: Int, of counter: String, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) throws {
        guard let name = CounterName(rawValue: counter) else {
            throw MeasurementFailure("no counter \(counter): the counters are \(Counters.names.joined(separator: ", "))")
        }
        try requireAtMost(limit, of: name, fileID: fileID, filePath: filePath, line: line, column: column)
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

/// ``Measurement`` under a name no other module has: Foundation has a
/// `Measurement` too, so a test that imports both writes
/// `Faultline.Measurement` (or this).
public typealias FaultlineMeasurement = Measurement

extension Faultline {
    /// ``Measurement``, as `Faultline.Measurement` where Foundation's
    /// `Measurement` is also in scope.
    public typealias Measurement = FaultlineMeasurement
}
