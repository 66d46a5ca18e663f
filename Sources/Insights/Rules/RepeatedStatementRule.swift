import Probes

extension InsightRuleID {
    /// One read run again and again with the same values.
    public static let repeatedStatement = InsightRuleID("repeated-statement")
}

/// One read (a `SELECT`, or `WITH` before one) run several times with the
/// same bound values: a result the code could have kept.
struct RepeatedStatementRule: InsightRule {
    var id: InsightRuleID { .repeatedStatement }
    var summary: String { "one read runs again with the same bound values" }
    var threshold: InsightThreshold { InsightThreshold(3, counts: "executions of one read with the same bound values") }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        let seconds = Dictionary(evidence.statements.map { ($0.shape, ($0.totalNanoseconds, $0.count)) }, uniquingKeysWith: { a, _ in a })
        // One insight per statement text: its most repeated list of values,
        // and how many others repeated.
        return evidence.repetitions.compactMap { sql, lists -> (Insight, Int)? in
            let repeated = lists.filter { $0.value.count >= threshold }
            guard let (arguments, most) = repeated.max(by: {
                $0.value.count != $1.value.count ? $0.value.count < $1.value.count : $1.key.lexicographicallyPrecedes($0.key)
            }) else { return nil }
            let first = most.firstExecution
            let executions = repeated.values.reduce(0) { $0.addingReportingOverflow($1.count).overflow ? .max : $0 + $1.count }
            let bound = arguments.isEmpty ? "" : " with (\(arguments.joined(separator: ", ")))"
            var message = "the same statement ran \(most.count) times\(bound)"
            if repeated.count > 1 { message += ", and \(repeated.count - 1) more lists of values repeated (\(executions) executions in all)" }
            message += "; keep its result instead of asking again"
            // The repeats' share of the shape's time.
            let cost = seconds[first.shape].map { total, count in
                Double(total) / 1e9 / Double(max(1, count)) * Double(executions - repeated.count)
            }
            let insight = Insight(
                rule: id, entity: first.facts?.entity ?? "", keyPath: first.shape, message: message,
                evidence: "\(most.count) × \(sql)\(bound) (\(first.purpose))", callSite: first.callSite.description, count: executions,
                costSeconds: cost)
            return (insight, executions)
        }
        .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.evidence < $1.0.evidence }
        .map(\.0)
    }
}
