/// Each scenario's statement shapes with their plans and percentiles, for
/// the run's Markdown: a table per scenario, folded in a `<details>` whose
/// summary counts the shapes and the plans that scan or sort; a row per
/// shape (most total time first): its executions in one iteration, p50,
/// p90, p99 and max of its execution times over the measured iterations,
/// and its query plan with full scans and temporary B-trees marked in words
/// (``QueryPlanMark``). Every string from the report is escaped, shapes
/// and plan rows are code spans.
enum MarkdownStatementShapes {
    /// The section's lines, or none when no shape of any scenario has a
    /// plan or percentiles (a report of schema 4 or before without them).
    static func section(_ report: Report) -> [String] {
        let scenarios = report.scenarios.filter { $0.statements.contains { $0.durations != nil || $0.queryPlan != nil } }
        guard !scenarios.isEmpty else { return [] }
        var lines = [
            "", "### Statement shapes: plans and percentiles", "",
            "count: executions in one iteration; p50, p90, p99, max: the execution times of every measured iteration, by nearest rank; "
                + "plan: SQLite's EXPLAIN QUERY PLAN, once per shape, with "
                + QueryPlanMark.allCases.map { "**\($0.rawValue)** (\(escapeMarkdown($0.meaning)))" }.joined(separator: " and ") + " marked.",
        ]
        for scenario in scenarios {
            let shapes = scenario.statements
            var counts = ["\(shapes.count) shape\(shapes.count == 1 ? "" : "s")"]
            for mark in QueryPlanMark.allCases {
                let marked = shapes.filter { $0.planHas(mark) }.count
                if marked > 0 { counts.append("\(marked) with a \(mark.rawValue)") }
            }
            lines += ["", "<details><summary>\(escapeMarkdown(scenario.name)): \(counts.joined(separator: ", "))</summary>", ""]
            lines += ["| shape | count | p50 | p90 | p99 | max | plan |", "| --- | --- | --- | --- | --- | --- | --- |"]
            for shape in shapes {
                let durations = shape.durations
                let times = [durations?.p50Seconds, durations?.p90Seconds, durations?.p99Seconds, durations?.maxSeconds].map {
                    $0.map(TimeText.seconds) ?? "—"
                }
                lines.append("| \(markdownCode(shape.shape, inTable: true)) | \(shape.count) | " + times.joined(separator: " | ") + " | \(plan(shape)) |")
            }
            lines += ["", "</details>"]
        }
        return lines
    }

    /// The plan's rows on one table cell, a line each, nested rows indented,
    /// a marked row followed by its mark in bold; "no plan" without one.
    static func plan(_ shape: StatementReport) -> String {
        let rows = shape.markedPlan
        guard !rows.isEmpty else { return "no plan" }
        return rows.map { row in
            let depth = row.row.prefix { $0 == " " }.count / 2
            let indent = String(repeating: "&nbsp;&nbsp;", count: depth)
            let text = String(row.row.drop { $0 == " " })
            return indent + markdownCode(text, inTable: true) + (row.mark.map { " **\($0.rawValue)**" } ?? "")
        }.joined(separator: "<br>")
    }
}
