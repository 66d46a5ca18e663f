import Foundation

/// A comparison as one self-contained HTML page: base and head side by
/// side, per scenario. Everything from data is escaped.
public enum HTMLComparison {
    public static func render(_ comparison: ReportComparison) -> String {
        var html = HTMLPage.opening(title: "Faultline comparison", style: " .regression{color:#b02a2a;font-weight:bold}.improvement{color:#26734d}")
        html += """
            <h1>Faultline comparison: <span class="\(comparison.hasRegression ? "regression" : "improvement")">\
            \(comparison.hasRegression ? "regression" : "no regression")</span></h1>
            <p><strong>\(escapeHTML(ComparisonFormat.headline(comparison)))</strong></p>
            <p>\(escapeHTML(ComparisonFormat.sides(comparison)))</p>
            """
        if let reason = comparison.nothingComparable { html += "<p class=\"error\">Nothing comparable: \(escapeHTML(reason))</p>" }
        if let reason = comparison.countersNotComparable { html += "<p class=\"error\">Counters are not comparable: \(escapeHTML(reason))</p>" }
        if let reason = comparison.timingsNotComparable { html += "<p class=\"error\">Timings are not comparable: \(escapeHTML(reason))</p>" }
        if let reason = comparison.scalingNotComparable { html += "<p class=\"error\">Fits are not comparable: \(escapeHTML(reason))</p>" }
        for scenario in comparison.scenarios {
            html += "<section class=\"scenario\"><h2>\(escapeHTML(scenario.name)) <span class=\"status\">\(escapeHTML(scenario.status.description))</span></h2>"
            if let timing = scenario.timing {
                html += "<h3>Median time</h3>" + SVGChart.bars([("base", timing.baseMedian), ("head", timing.headMedian)])
                    + "<p>\(escapeHTML(ComparisonFormat.timingSummary(timing)))</p>"
            }
            if !scenario.phases.isEmpty {
                html += "<h3>Phases</h3><ul>"
                for phase in scenario.phases {
                    html += "<li>\(escapeHTML(phase.name)): \(escapeHTML(ComparisonFormat.timingSummary(phase.timing)))</li>"
                }
                html += "</ul>"
            }
            if !scenario.counters.isEmpty {
                html += "<h3>Counters</h3><table class=\"sortable\"><thead><tr><th>counter</th><th>base</th><th>head</th><th>verdict</th></tr></thead><tbody>"
                for counter in scenario.counters {
                    let definition = CounterGlossary.definition(named: counter.name).map { " title=\"\(escapeHTML($0))\"" } ?? ""
                    html += "<tr><td\(definition)>\(escapeHTML(counter.name))</td>\(HTMLCell.count(counter.base))\(HTMLCell.count(counter.head, none: "none"))"
                        + "<td class=\"\(escapeHTML(counter.verdict.rawValue))\">\(escapeHTML(counter.verdict.rawValue))</td></tr>"
                }
                html += "</tbody></table>"
            }
            if !scenario.statements.isEmpty {
                html += "<h3>Statement shapes</h3><ul>"
                for change in scenario.statements {
                    let site = change.callSite.flatMap { $0.isEmpty ? nil : $0 }.map { " at <span class=\"site\">\(escapeHTML($0))</span>" } ?? ""
                    html += "<li>\(escapeHTML(change.change.rawValue)) (\(CountText.count(change.baseCount)) → \(CountText.count(change.headCount)))\(site): "
                        + "<code>\(escapeHTML(change.shape))</code></li>"
                }
                html += "</ul>"
            }
            if !scenario.statementTimings.isEmpty {
                html += "<h3>\(escapeHTML(ComparisonFormat.statementTimingsTitle()))</h3><ul>"
                for statement in scenario.statementTimings {
                    html += "<li>\(escapeHTML(ComparisonFormat.statementTimingSummary(statement))) at <span class=\"site\">"
                        + "\(escapeHTML(statement.callSite))</span>: <code>\(escapeHTML(statement.shape))</code></li>"
                }
                html += "</ul>"
            }
            if !scenario.slopes.isEmpty {
                html += "<h3>How the work grows with the data (N = the data set's scale)</h3><table class=\"sortable\"><thead><tr><th>count</th>"
                    + "<th>base</th><th>head</th><th>verdict</th></tr></thead><tbody>"
                for slope in scenario.slopes {
                    html += "<tr><td>\(escapeHTML(slope.subject))</td><td>\(escapeHTML(slope.baseLine ?? "none"))</td>"
                        + "<td>\(escapeHTML(slope.headLine ?? "none"))</td>"
                        + "<td class=\"\(slope.isRegression ? "regression" : "")\">\(escapeHTML(slope.verdict.rawValue))</td></tr>"
                }
                html += "</tbody></table>"
            }
            if !scenario.newInsights.isEmpty {
                html += "<h3>New insights</h3><ul class=\"insights\">"
                for insight in scenario.newInsights {
                    html += "<li class=\"regression\">\(escapeHTML(insight.message)) <code>\(escapeHTML(insight.identity))</code> "
                        + "<span class=\"site\">\(escapeHTML(insight.callSite))</span></li>"
                }
                html += "</ul>"
            }
            html += "</section>"
        }
        return html + HTMLPage.closing
    }
}
