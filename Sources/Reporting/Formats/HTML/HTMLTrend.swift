import Foundation

/// A trend (``Trend``) as one self-contained HTML page, in the report
/// page's style: a headline counting the changes; per line, the changes
/// marked (regressions red, improvements green, other changes amber), a
/// table of the counters that changed and the median time (CPU or wall,
/// ``Trend/timing``) per commit,
/// a chart of the medians on their own axis with their intervals as a band
/// and the change points drawn across it, and a small chart per counter.
/// Everything from the store is escaped; no external script or style.
public enum HTMLTrend {
    public static func render(_ trend: Trend) -> String {
        var html = HTMLPage.opening(title: "Faultline trend", style: style)
        html += "<h1>Faultline trend</h1><p>\(escapeHTML(TrendText.header(trend)))</p>"
        html += "<p class=\"headline\">\(escapeHTML(TrendText.headline(trend)))</p><p class=\"note\">\(escapeHTML(TrendText.legend(trend)))</p>"
        if trend.lines.isEmpty { html += "<p class=\"error\">No runs.</p>" }
        for line in trend.lines { html += section(line, timing: trend.timing) }
        return html + HTMLPage.closing
    }

    static let style = """
         .regression{color:#b02a2a;font-weight:bold}.improvement{color:#26734d;font-weight:bold}.change{color:#8a5a00;font-weight:bold}
        .headline{font-weight:bold}.changes{margin:4px 0 8px 0}
        .charts{display:flex;flex-wrap:wrap;gap:12px}.charts figure{margin:0;border:1px solid #eee;padding:4px 6px}
        .charts figcaption{font-size:12px;color:#555}.labels{color:#555;font-weight:normal;font-size:.8em}
        """

    /// The class of a marked cell or item.
    static func cssClass(_ verdict: TrendVerdict?) -> String { verdict.map { " class=\"\($0.rawValue)\"" } ?? "" }

    static func section(_ line: Trend.Line, timing: TimingMeasure) -> String {
        var html = "<section class=\"scenario\"><h2>\(escapeHTML(line.scenario)) <span class=\"labels\">\(escapeHTML(line.key.labelText))</span></h2>"
        if !line.changes.isEmpty {
            html += "<ul class=\"changes\">"
                + line.changes.map { "<li\(cssClass($0.verdict))>\(escapeHTML(TrendText.describe($0)))</li>" }.joined() + "</ul>"
        }
        let commits = line.commits.map { TrendText.shortCommit($0.commit) }
        // The table has the counters that changed; the charts have every one.
        let changed = line.changedCounters
        html += "<table class=\"sortable trend\"><thead><tr><th>commit</th><th>first run</th>"
        html += changed.map { "<th>\(escapeHTML($0.name))</th>" }.joined() + "<th>\(escapeHTML(TrendText.timeHeading(timing)))</th></tr></thead><tbody>"
        for (index, commit) in line.commits.enumerated() {
            html += "<tr><td><code title=\"\(escapeHTML(commit.commit))\">\(escapeHTML(commits[index]))</code></td>"
                + "<td>\(escapeHTML(TrendTime.text(commit.firstRun)))</td>"
            for counter in changed {
                let point = counter.points[index]
                let change = line.change(of: .counter(counter.name), at: commit.commit)
                let text = TrendText.count(point.value) + (change.map { " " + TrendText.delta($0) } ?? "")
                html += "<td\(cssClass(change?.verdict)) data-value=\"\(point.value.map(String.init) ?? "")\">\(escapeHTML(text))</td>"
            }
            let change = line.timeChange(at: commit.commit)
            html += "<td\(cssClass(change?.verdict)) data-value=\"\(commit.time.map { String($0.median) } ?? "")\">"
                + "\(escapeHTML(TrendText.timing(commit.time, change: change)))</td></tr>"
        }
        html += "</tbody></table>"
        let notes = TrendText.notes(line, timing: timing)
        html += "<p class=\"note\">\(escapeHTML(notes.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: ". "))).</p>"
        html += "<div class=\"charts\">"
        if line.commits.contains(where: { $0.time != nil }) {
            html += "<figure><figcaption>\(escapeHTML(timing.word)) time: median and its interval</figcaption>"
                + SVGChart.trendMedians(
                    line.commits.map { $0.time.map { (median: $0.median, low: $0.low, high: $0.high) } },
                    marks: line.commits.map { line.timeChange(at: $0.commit)?.verdict }, labels: commits)
                + "</figure>"
        }
        for counter in line.counters {
            html += "<figure><figcaption>\(escapeHTML(counter.name))</figcaption>"
                + SVGChart.trend(
                    counter.points.map { $0.value.map(Double.init) },
                    marks: counter.points.map { line.change(of: .counter(counter.name), at: $0.commit)?.verdict }, labels: commits, unit: "")
                + "</figure>"
        }
        return html + "</div></section>"
    }
}
