import Foundation

/// A SQL debug log's analysis as one self-contained HTML page
/// (`perf-run log --html`): summary, insights, a timeline of activity along
/// the log, and sortable, filterable tables. Same style and script as the
/// report page; everything from the log is escaped.
public enum HTMLLogAnalysis {
    public static func render(_ analysis: SQLLogAnalysis, title: String) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>SQL debug log: \(escapeHTML(title))</title>
            <style>\(HTMLReport.style)</style></head><body>
            <h1>SQL debug log: \(escapeHTML(title))</h1>
            """
        let executions = analysis.statements.reduce(0) { $0 + $1.count }
        html += "<p>\(analysis.logLines) log lines (\(escapeHTML(analysis.formats.joined(separator: ", ")))) of \(analysis.lines) read, "
            + "\(analysis.skippedLines) skipped, \(analysis.truncatedLines) cut. \(executions) statements in \(analysis.statements.count) shapes; "
            + "\(analysis.transactions) transactions holding \(analysis.statementsInTransactions) statements.</p>"
        if !analysis.insights.isEmpty {
            html += "<h2>Insights</h2><ul class=\"insights\">"
            for insight in analysis.insights {
                html += "<li><strong>\(escapeHTML(insight.rule))</strong> (line \(insight.firstLine)): \(escapeHTML(insight.message))</li>"
            }
            html += "</ul>"
        }
        html += timeline(analysis)
        if !analysis.statements.isEmpty {
            html += "<h2>Statements</h2><input class=\"filter\" type=\"search\" placeholder=\"filter statements\">"
                + "<table class=\"sortable statements\"><thead><tr><th>shape</th><th>count</th><th>duplicates</th><th>total s</th>"
                + "<th>mean s</th><th>max s</th><th>rows</th><th>first line</th></tr></thead><tbody>"
            for shape in analysis.statements {
                let mean = shape.totalSeconds / Double(max(shape.count, 1))
                html += "<tr><td><code>\(escapeHTML(shape.shape))</code></td><td>\(shape.count)</td><td>\(shape.duplicates)</td>"
                    + "<td>\(String(format: "%.6f", shape.totalSeconds))</td><td>\(String(format: "%.6f", mean))</td>"
                    + "<td>\(String(format: "%.6f", shape.maxSeconds))</td><td>\(shape.rows)</td><td>\(shape.firstLine)</td></tr>"
            }
            html += "</tbody></table>"
        }
        for (title, table) in [("Faults", analysis.faults), ("Relationship faults", analysis.relationshipFaults),
                               ("Prefetches", analysis.prefetches)] where !table.isEmpty {
            html += "<h2>\(title)</h2><table class=\"sortable\"><thead><tr><th>entity</th><th>source</th><th>count</th><th>first line</th></tr></thead><tbody>"
            for row in table {
                html += "<tr><td>\(escapeHTML(row.entity))</td><td>\(escapeHTML(row.source))</td><td>\(row.count)</td><td>\(row.firstLine)</td></tr>"
            }
            html += "</tbody></table>"
        }
        if !analysis.largestTransactions.isEmpty {
            html += "<h2>Largest transactions</h2><table class=\"sortable\"><thead><tr><th>first line</th><th>statements</th><th>outcome</th></tr></thead><tbody>"
            for transaction in analysis.largestTransactions {
                html += "<tr><td>\(transaction.firstLine)</td><td>\(transaction.statements)</td><td>\(escapeHTML(transaction.outcome))</td></tr>"
            }
            html += "</tbody></table>"
        }
        if !analysis.planRows.isEmpty {
            html += "<h2>Query plans</h2><table class=\"sortable\"><thead><tr><th>plan row</th><th>count</th><th>full scan</th><th>first line</th></tr></thead><tbody>"
            for row in analysis.planRows {
                html += "<tr\(row.fullScan ? " class=\"error\"" : "")><td><code>\(escapeHTML(row.row))</code></td><td>\(row.count)</td>"
                    + "<td>\(row.fullScan ? "yes" : "")</td><td>\(row.firstLine)</td></tr>"
            }
            html += "</tbody></table>"
        }
        return html + "<script>\(HTMLReport.script)</script></body></html>\n"
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
            let first = index * analysis.linesPerBucket + 1
            for (value, colour, offset, label) in [(bucket.statements, "#4a7fb5", 0.0, "statements"), (bucket.faults, "#b02a2a", step / 2, "faults")] where value > 0 {
                let barHeight = max(1, Int(Double(height - 4) * Double(value) / Double(largest)))
                svg += "<rect x=\"\(String(format: "%.1f", x + offset))\" y=\"\(height - barHeight)\" width=\"\(String(format: "%.1f", max(step / 2 - 0.5, 0.5)))\" "
                    + "height=\"\(barHeight)\" fill=\"\(colour)\"><title>lines \(first)–\(first + analysis.linesPerBucket - 1): \(value) \(label)</title></rect>"
            }
        }
        return svg + "</svg>"
    }
}
