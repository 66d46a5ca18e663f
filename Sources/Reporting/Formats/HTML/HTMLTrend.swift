import Foundation

/// A trend (``Trend``) as one self-contained HTML page, in the report
/// page's style: per line, a table of the counters that changed and the
/// wall time per commit (changed cells marked), the counters that never
/// changed in one sentence, and a small chart of the wall time's median and
/// min–max and one per counter. Everything from the store is
/// escaped; no external script or style.
public enum HTMLTrend {
    public static func render(_ trend: Trend) -> String {
        var html = HTMLPage.opening(title: "Faultline trend", style: style)
        html += "<h1>Faultline trend</h1><p>\(escapeHTML(TrendText.header(trend)))</p><p class=\"note\">\(escapeHTML(TrendText.legend)).</p>"
        if trend.lines.isEmpty { html += "<p class=\"error\">No series.</p>" }
        for line in trend.lines { html += section(line) }
        return html + HTMLPage.closing
    }

    static let style = """
         td.changed{color:#b02a2a;font-weight:bold}td.faster{color:#26734d;font-weight:bold}
        .charts{display:flex;flex-wrap:wrap;gap:12px}.charts figure{margin:0;border:1px solid #eee;padding:4px 6px}
        .charts figcaption{font-size:12px;color:#555}.labels{color:#555;font-weight:normal;font-size:.8em}
        """

    static func section(_ line: Trend.Line) -> String {
        let labels = Trend.labelText(line.labels)
        var html = "<section class=\"scenario\"><h2>\(escapeHTML(line.scenario)) <span class=\"labels\">\(escapeHTML(labels))</span></h2>"
        let commits = line.commits.map { Trend.shortCommit($0.commit) }
        // The table has the counters that changed; the charts have every one.
        let changed = line.changedCounters
        html += "<table class=\"sortable trend\"><thead><tr><th>commit</th><th>published</th>"
        html += changed.map { "<th>\(escapeHTML($0.name))</th>" }.joined() + "<th>wall median (min–max, n)</th></tr></thead><tbody>"
        for (index, commit) in line.commits.enumerated() {
            html += "<tr><td><code title=\"\(escapeHTML(commit.commit))\">\(escapeHTML(commits[index]))</code></td>"
                + "<td>\(escapeHTML(Trend.time(commit.publishedAt)))</td>"
            for counter in changed {
                let point = counter.points[index]
                let text = Trend.count(point.value) + (point.change.map { " " + Trend.change($0) } ?? "")
                html += "<td\(point.changed ? " class=\"changed\"" : "") data-value=\"\(escapeHTML(Trend.count(point.value)))\">\(escapeHTML(text))</td>"
            }
            let timing = line.timing(of: commit.commit)
            let moved = timing?.moved.map { $0 == .slower ? " class=\"changed\"" : " class=\"faster\"" } ?? ""
            html += "<td\(moved) data-value=\"\(timing.map { String($0.medianSeconds) } ?? "")\">\(escapeHTML(Trend.timing(timing)))</td></tr>"
        }
        html += "</tbody></table>"
        if let steady = TrendText.steady(line) { html += "<p class=\"note\">\(escapeHTML(steady.prefix(1).uppercased() + steady.dropFirst())).</p>" }
        html += "<div class=\"charts\">"
        if !line.timing.isEmpty {
            let points = line.commits.map { commit in line.timing(of: commit.commit) }
            html += "<figure><figcaption>wall time: median, min–max</figcaption>"
                + SVGChart.trendRanges(
                    points.map { $0.map { (median: $0.medianSeconds, low: $0.minSeconds ?? $0.medianSeconds, high: $0.maxSeconds ?? $0.medianSeconds) } },
                    marked: points.map { $0?.moved != nil }, labels: commits)
                + "</figure>"
        }
        for counter in line.counters {
            html += "<figure><figcaption>\(escapeHTML(counter.name))</figcaption>"
                + SVGChart.trend(counter.points.map(\.value), marked: counter.points.map(\.changed), labels: commits, unit: "") + "</figure>"
        }
        return html + "</div></section>"
    }
}
