/// One set of rules serves a run's report and a SQL debug log.
extension InsightRules {
    /// The rules as far as a SQL debug log shows them (`perf-run log`), with
    /// the same thresholds as a run's: fault storms (faults from the
    /// database, counted by entity), statements repeated with the same
    /// values, and N+1 SELECTs (one shape run with many different values),
    /// which a run's report shows as fault storms instead.
    public func analyze(_ result: SQLLogAnalysis) -> [SQLLogAnalysis.LogInsight] {
        var insights: [SQLLogAnalysis.LogInsight] = []
        for fault in result.faults where fault.source == "database" && fault.count >= faultStormThreshold {
            insights.append(.init(
                rule: "fault-storm", message: "\(fault.count) faults on \(fault.entity) fulfilled one by one from the database; prefetch the relationship that leads to them",
                firstLine: fault.firstLine))
        }
        for shape in result.statements where shape.count - shape.duplicates >= nPlusOneThreshold && shape.shape.uppercased().hasPrefix("SELECT") {
            insights.append(.init(
                rule: "n-plus-one", message: "\(shape.count) executions of one SELECT shape with different values (N+1): \(shape.shape)",
                firstLine: shape.firstLine))
        }
        for shape in result.statements where shape.duplicates >= repetitionThreshold && !shape.shape.uppercased().hasPrefix("BEGIN")
            && !shape.shape.uppercased().hasPrefix("COMMIT")
        {
            insights.append(.init(
                rule: "repeated-statement", message: "\(shape.duplicates + 1) identical executions of \(shape.shape)", firstLine: shape.firstLine))
        }
        return insights
    }
}
