/// A scenario's statement shapes with their plans and percentiles: one
/// table, a row per shape (most total time first, as the report lists
/// them): its executions in one iteration, p50, p90, p99 and max of its
/// execution times over the measured iterations, and its query plan, once
/// per shape, with full scans and temporary B-trees marked
/// (``QueryPlanMark``). Beyond ``shownShapes`` shapes the rest fold away in
/// a `<details>`, and so does a plan longer than ``shownPlanRows`` rows.
/// Everything from data is escaped.
enum HTMLStatementShapes {
    /// Shapes shown before the rest fold away.
    static let shownShapes = 10
    /// Plan rows shown before the plan folds away.
    static let shownPlanRows = 6

    /// The section, or "" when no shape has a plan or percentiles (a report
    /// of schema 4 or before without them).
    static func section(_ scenario: ScenarioReport) -> String {
        let shapes = scenario.statements
        guard shapes.contains(where: { $0.durations != nil || $0.queryPlan != nil }) else { return "" }
        let executions = shapes.compactMap(\.durations?.executions).reduce(0) { $0.addingReportingOverflow($1).overflow ? .max : $0 + $1 }
        var html = "<h3>Statement shapes: plans and percentiles</h3><p class=\"note\">"
            + escapeHTML(
                "count: executions in one iteration; p50, p90, p99, max: the execution times of every measured iteration "
                    + "(\(executions) executions in all), by nearest rank; plan: SQLite's EXPLAIN QUERY PLAN, once per shape, with ")
            + QueryPlanMark.allCases.map { mark($0, escapeHTML($0.rawValue)) }.joined(separator: " and ") + " marked.</p>"
        html += table(Array(shapes.prefix(shownShapes)))
        if shapes.count > shownShapes {
            let rest = shapes.count - shownShapes
            html += "<details class=\"more-shapes\"><summary>\(rest) more shape\(rest == 1 ? "" : "s") (less time in all)</summary>"
                + table(Array(shapes.dropFirst(shownShapes))) + "</details>"
        }
        return html
    }

    /// One table of shapes, sortable by any column.
    static func table(_ shapes: [StatementReport]) -> String {
        var html = "<table class=\"sortable statement-shapes\"><thead><tr><th>shape</th><th>count</th>"
            + "<th>p50</th><th>p90</th><th>p99</th><th>max</th><th>plan</th></tr></thead><tbody>"
        for shape in shapes {
            html += "<tr><td><code>\(escapeHTML(shape.shape))</code></td><td>\(shape.count)</td>"
            let durations = shape.durations
            for seconds in [durations?.p50Seconds, durations?.p90Seconds, durations?.p99Seconds, durations?.maxSeconds] {
                // The number and its unit on one line.
                html += seconds.map { "<td data-value=\"\($0)\">\(escapeHTML(TimeText.seconds($0)).replacingOccurrences(of: " ", with: "&nbsp;"))</td>" }
                    ?? "<td data-value=\"-1\">—</td>"
            }
            html += "<td>\(plan(shape))</td></tr>"
        }
        return html + "</tbody></table>"
    }

    /// The plan's rows, a line each, indented as SQLite nests them; a
    /// marked row in a `<mark>` titled with what the mark means, followed
    /// by the mark's name (the colour is not the only sign); "no plan"
    /// without one.
    static func plan(_ shape: StatementReport) -> String {
        let rows = shape.markedPlan
        guard !rows.isEmpty else { return "<span class=\"note\">no plan (SQLite reads no table)</span>" }
        func lines(_ rows: ArraySlice<(row: String, mark: QueryPlanMark?)>) -> String {
            "<code class=\"plan\">" + rows.map { row in
                let depth = row.row.prefix { $0 == " " }.count / 2
                let text = escapeHTML(String(row.row.drop { $0 == " " }))
                let indent = String(repeating: "&nbsp;&nbsp;", count: depth)
                return indent + (row.mark.map { mark($0, text) + " ← " + escapeHTML($0.rawValue) } ?? text)
            }.joined(separator: "<br>") + "</code>"
        }
        guard rows.count > shownPlanRows else { return lines(rows[...]) }
        let marks = Set(rows.compactMap(\.mark))
        let summary = "\(rows.count) rows" + (marks.isEmpty ? "" : ": " + QueryPlanMark.allCases.filter(marks.contains).map(\.rawValue).joined(separator: ", "))
        return "<details class=\"plan\"><summary>\(escapeHTML(summary))</summary>\(lines(rows[...]))</details>"
    }

    /// `html` (already escaped) marked as `mark`, titled with its meaning.
    static func mark(_ mark: QueryPlanMark, _ html: String) -> String {
        let kind = mark == .fullScan ? "full-scan" : "temporary-b-tree"
        return "<mark class=\"plan-\(kind)\" title=\"\(escapeHTML(mark.rawValue + ": " + mark.meaning))\">\(html)</mark>"
    }
}
