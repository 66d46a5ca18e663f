import Foundation
import Probes
import SQLLogViewer

/// A SQL debug log's analysis as one self-contained HTML page
/// (`perf-run log --html`): summary, insights, a timeline of activity along
/// the log, and sortable, filterable tables. Same style and script as the
/// report page; everything from the log is escaped.
public enum HTMLLogAnalysis {
    public static func render(_ analysis: SQLLogAnalysis, title: String) -> String {
        var html = HTMLPage.opening(title: "SQL debug log: \(title)") + "<h1>SQL debug log: \(escapeHTML(title))</h1>"
        html += "<p>\(CountText.count(analysis.logLines)) log lines\(escapeHTML(SQLLogText.formatsNote(analysis))) of "
            + "\(CountText.count(analysis.lines)) read, \(CountText.count(analysis.skippedLines)) skipped, \(CountText.count(analysis.truncatedLines)) cut. "
            + "\(escapeHTML(SQLLogText.statementsNote(analysis))); \(CountText.count(analysis.transactions)) transactions holding "
            + "\(CountText.count(analysis.statementsInTransactions)) statements.</p>"
        if let note = SQLLogText.fetchesNote(analysis) { html += "<p>\(escapeHTML(note)).</p>" }
        if let note = SQLLogText.timesNote(analysis) { html += "<p class=\"error\">\(escapeHTML(note)).</p>" }
        if !analysis.limitsReached.isEmpty {
            html += "<h2>Limits reached</h2><p class=\"error\">The analysis is incomplete: the log reached these bounds of the reader.</p>"
                + "<ul class=\"limits\">" + analysis.limitsReached.map { "<li>\(escapeHTML($0))</li>" }.joined() + "</ul>"
        }
        if let findings = analysis.findings, !findings.isEmpty {
            html += "<h2>Core Data errors and warnings</h2><p>\(escapeHTML(SQLLogText.findingsNote(analysis))).</p>"
                + "<ul class=\"findings\">" + findings.map {
                    "<li class=\"\($0.level == .error ? "error" : "warning")\">line \($0.line) \($0.level.rawValue): <code>\(escapeHTML($0.message))</code></li>"
                }.joined() + "</ul>"
        }
        if !analysis.insights.isEmpty {
            html += "<h2>Insights</h2><ul class=\"insights\">"
            for insight in analysis.insights {
                html += "<li><strong>\(escapeHTML(insight.rule.rawValue))</strong> (\(escapeHTML(insight.callSite))): \(escapeHTML(insight.message))"
                    + "<br><small>\(escapeHTML(insight.evidence))</small></li>"
            }
            html += "</ul>"
        }
        html += timeline(analysis)
        html += section("Statements", ["shape", "count", "duplicates", "total", "mean", "max", "rows", "first line"],
            analysis.statements.map { shape in
                let mean = shape.totalSeconds / Double(max(shape.count, 1))
                return ("<td><code>\(escapeHTML(shape.shape))</code></td>\(HTMLCell.count(shape.count))\(HTMLCell.count(shape.duplicates))"
                    + HTMLCell.time(shape.totalSeconds) + HTMLCell.time(mean) + HTMLCell.time(shape.maxSeconds)
                    + "\(HTMLCell.count(shape.rows))<td>\(shape.firstLine)</td>", "")
            }, filter: "statements")
        html += section("Bound values", ["shape", "executions", "first line", "values"], analysis.statements.flatMap { shape in
            (shape.values ?? []).map { set in
                ("<td><code>\(escapeHTML(shape.shape))</code></td>\(HTMLCell.count(set.executions))<td>\(set.firstLine)</td>"
                    + "<td><code>\(SQLLogText.valuesText(set, escape: escapeHTML))</code></td>", set.executions > 1 ? "duplicate" : "")
            }
        })
        for (title, table) in [("Faults", analysis.faults), ("Relationship faults", analysis.relationshipFaults),
                               ("Prefetches", analysis.prefetches)] {
            html += section(title, ["entity", "source", "count", "first line"], table.map {
                ("<td>\(escapeHTML($0.entityInWords))</td><td>\(escapeHTML($0.source))</td>\(HTMLCell.count($0.count))<td>\($0.firstLine)</td>", "")
            })
        }
        html += section("Fetched values (level 3)", ["line", "entity", "rows", "values", "statement"], analysis.fetchValues.map {
            ("<td>\($0.line)</td><td>\(escapeHTML($0.entity))</td>\(HTMLCell.count($0.rows))<td><code>\(escapeHTML($0.values))</code></td>"
                + "<td><code>\(escapeHTML($0.shape))</code></td>", "")
        })
        html += section("Largest transactions", ["first line", "statements", "outcome"], analysis.largestTransactions.map {
            ("<td>\($0.firstLine)</td>\(HTMLCell.count($0.statements))<td>\(escapeHTML($0.outcome))</td>", "")
        })
        html += section("Query plans", ["plan row", "count", "full scan", "first line"], analysis.planRows.map {
            ("<td><code>\(escapeHTML($0.row))</code></td>\(HTMLCell.count($0.count))<td>\($0.fullScan ? "yes" : "")</td><td>\($0.firstLine)</td>",
             $0.fullScan ? "error" : "")
        })
        return html + HTMLPage.closing
    }

    /// A titled sortable table; each row is its cells (already escaped) and
    /// a class, or none. With `filter`, a search box filters its rows (and
    /// the table's class names what it filters). Nothing when there are no
    /// rows.
    private static func section(
        _ title: String, _ headers: [String], _ rows: [(cells: String, rowClass: String)], filter: String? = nil
    ) -> String {
        guard !rows.isEmpty else { return "" }
        var html = "<h2>\(escapeHTML(title))</h2>"
        if let filter {
            html += "<input class=\"filter\" type=\"search\" placeholder=\"filter \(filter)\"><table class=\"sortable \(filter)\"><thead><tr>"
        } else {
            html += "<table class=\"sortable\"><thead><tr>"
        }
        for header in headers { html += "<th>\(escapeHTML(header))</th>" }
        html += "</tr></thead><tbody>"
        for row in rows { html += (row.rowClass.isEmpty ? "<tr>" : "<tr class=\"\(row.rowClass)\">") + row.cells + "</tr>" }
        return html + "</tbody></table>"
    }

    /// Statements (blue) and faults (red) per stretch of lines, as SVG bars.
    static func timeline(_ analysis: SQLLogAnalysis) -> String {
        let largest = analysis.timeline.map { max($0.statements, $0.faults) }.max() ?? 0
        guard largest > 0 else { return "" }
        let width = 1000, height = 120, step = Double(width) / Double(analysis.timeline.count)
        var svg = "<h2>Timeline</h2><p class=\"description\">Statements (blue) and faults (red) per \(analysis.linesPerBucket) lines of the log.</p>"
            + "<svg class=\"chart timeline\" role=\"img\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (index, bucket) in analysis.timeline.enumerated() {
            let x = Double(index) * step
            let first = index.multipliedSaturated(by: analysis.linesPerBucket).addingSaturated(1)
            for (value, colour, offset, label) in [(bucket.statements, "#4a7fb5", 0.0, "statements"), (bucket.faults, "#b02a2a", step / 2, "faults")] where value > 0 {
                let barHeight = max(1, Int(Double(height - 4) * Double(value) / Double(largest)))
                svg += "<rect x=\"\(String(format: "%.1f", x + offset))\" y=\"\(height - barHeight)\" width=\"\(String(format: "%.1f", max(step / 2 - 0.5, 0.5)))\" "
                    + "height=\"\(barHeight)\" fill=\"\(colour)\"><title>lines \(first)–\(first.addingSaturated(analysis.linesPerBucket.addingSaturated(-1))): \(CountText.count(value)) \(label)</title></rect>"
            }
        }
        return svg + "</svg>"
    }
}
