import Foundation
import Insights
import Probes

/// A report as one self-contained HTML page: inline CSS, inline SVG charts,
/// a little inline script for sorting and filtering tables, no network.
/// Everything that comes from data is escaped. When the script has run it
/// sets `data-ready="1"` on the body (tests wait for it).
public enum HTMLReport {
    /// Scenarios shown side by side in one chart: variants of one experiment.
    static let groups: [(String, [String])] = [
        ("Faulting: one by one, batch faulting, prefetching", ["SingleFault", "BatchFault", "Prefetch"]),
    ]

    /// - Parameter events: recorded events to show as a timeline, when kept.
    public static func render(_ report: Report, events: [Event]) -> String {
        render(report, timeline: Timeline(events: events))
    }

    /// - Parameter timeline: the last iterations' events, when kept (`--trace-events`).
    public static func render(_ report: Report, timeline: Timeline? = nil) -> String {
        var html = HTMLPage.opening(title: "Faultline report") + "<h1>Faultline report</h1>"
        html += fixFirst(report)
        html += summary(report)
        html += experiments(report)
        for (title, names) in groups {
            let items = names.compactMap { name in
                report.scenarios.first { $0.name == name && !$0.samples.isEmpty }.map {
                    (label: name, value: Statistics($0.samples.map(\.wallSeconds)).median)
                }
            }
            if items.count > 1 {
                html += "<section class=\"group\"><h2>\(escapeHTML(title))</h2>\(SVGChart.bars(items))</section>"
            }
        }
        let drawn = timeline.map { HTMLTimeline.render($0) } ?? ""
        if !drawn.isEmpty {
            html += "<section class=\"timeline\"><h2>Timeline of the last iterations</h2>\(drawn)</section>"
        }
        for scenario in report.scenarios { html += section(scenario) }
        html += HTMLPage.closing
        return html
    }

    private static func summary(_ report: Report) -> String {
        let environment = report.environment
        let configuration = report.configuration
        var html = "<section class=\"summary\"><h2>Run</h2><table class=\"facts\">"
        let facts: [(String, String)] = [
            ("command", report.tool.commandLine.joined(separator: " ")),
            ("tool", "\(report.tool.name) \(report.tool.version)"),
            ("machine", "\(environment.cpuModel), \(environment.cores) cores, \(environment.operatingSystem)"
                + (environment.clock.map { ", timed by \($0)" } ?? "")),
            ("build", "Swift \(environment.swiftVersion), \(environment.buildConfiguration), SQLite \(environment.sqliteVersion)"),
            ("commit", environment.gitCommit ?? "unknown"),
            ("configuration", "scale \(configuration.scale), seed \(configuration.seed), \(configuration.iterations) iterations after "
                + "\(configuration.warmup) warm-up, \(configuration.store) store"),
        ]
        for (name, value) in facts { html += "<tr><th>\(escapeHTML(name))</th><td>\(escapeHTML(value))</td></tr>" }
        html += "</table><table class=\"sortable\" id=\"scenarios\"><thead><tr><th>scenario</th><th>status</th><th>median</th>"
            + "<th>sqlStatements</th><th>faultsFired</th><th>cacheMisses</th><th>insights</th></tr></thead><tbody>"
        for scenario in report.scenarios {
            let median = scenario.samples.isEmpty ? "" : SVGChart.format(Statistics(scenario.samples.map(\.wallSeconds)).median, "s")
            html += "<tr class=\"\(scenario.status.rawValue)\"><td><a href=\"#\(anchor(scenario.name))\">\(escapeHTML(scenario.name))</a></td>"
                + "<td>\(escapeHTML(scenario.status.rawValue))</td><td>\(escapeHTML(median))</td>"
            for counter in [CounterName.sqlStatements, .faultsFired, .cacheMisses] {
                html += "<td>\(scenario.counters[counter].map(String.init) ?? "")</td>"
            }
            html += "<td>\(scenario.insights.count)</td></tr>"
        }
        return html + "</tbody></table></section>"
    }

    /// What to fix first (``FixPriority``), each linking to its scenario.
    private static func fixFirst(_ report: Report) -> String {
        let entries = FixPriority.rank(report)
        guard !entries.isEmpty else { return "" }
        var html = "<section class=\"fix-first\"><h2>What to fix first</h2><ol>"
        for entry in entries {
            html += "<li><a href=\"#\(anchor(entry.scenario))\">\(escapeHTML(entry.scenario))</a>: "
                + "\(escapeHTML(entry.insight.message)) <span class=\"gain\">\(escapeHTML(FixPriority.figure(entry)))</span> "
                + "<span class=\"site\">\(escapeHTML(entry.insight.callSite))</span></li>"
        }
        return html + "</ol></section>"
    }

    /// An insight: its message (or, where its fix was measured not to help,
    /// that), evidence, call site, identity, and its fix measured side by side.
    private static func insight(_ insight: Insight) -> String {
        var classes: [String] = []
        if insight.accepted == true { classes.append("accepted") }
        if insight.intended != nil { classes.append("intended") }
        if !insight.isActionable { classes.append("withdrawn") }
        var html = "<li\(classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\"")><strong>\(escapeHTML(insight.message))</strong>"
        if let intended = insight.intended { html += "<br><span class=\"note\">on purpose here: \(escapeHTML(intended))</span>" }
        if let outcome = insight.whatIf, outcome.withdrawsTheAdvice {
            html += "<br><span class=\"note\">advice withdrawn: measured, \(escapeHTML(outcome.reason))</span>"
        }
        html += "<br><span class=\"evidence\">\(escapeHTML(insight.evidence))</span> "
            + "<span class=\"site\">\(escapeHTML(insight.callSite))</span> <code>\(escapeHTML(insight.identity))</code>"
        if let outcome = insight.whatIf {
            html += "<p class=\"verdict verdict-\(outcome.verdict.rawValue.replacingOccurrences(of: " ", with: "-"))\">"
                + "what if: \(escapeHTML(outcome.verdict.rawValue)): \(escapeHTML(outcome.reason))</p>"
        }
        return html + "</li>"
    }

    /// A scenario's measured fixes (`--what-if`): the run as it is once,
    /// each fix's figures in a column beside it, measured in the same
    /// stretch of time.
    private static func whatIf(_ outcomes: [WhatIfOutcome]) -> String {
        guard let asItIs = outcomes.first?.before else { return "" }
        var html = "<h3>Fixes measured (--what-if)</h3><table class=\"what-if\"><thead><tr><th></th><th>as it is</th>"
        for outcome in outcomes { html += "<th>with \(escapeHTML(outcome.fix.summary))</th>" }
        html += "</tr></thead><tbody>"
        for counter in WhatIfOutcome.counters {
            html += "<tr><th>\(escapeHTML(counter.rawValue))</th><td>\(asItIs.counters[counter].map(String.init) ?? "")</td>"
            for outcome in outcomes { html += "<td>\(outcome.after?.counters[counter].map(String.init) ?? "")</td>" }
            html += "</tr>"
        }
        html += "<tr><th>median time</th><td>\(escapeHTML(SVGChart.format(asItIs.medianSeconds, "s")))</td>"
        for outcome in outcomes { html += "<td>\(escapeHTML(outcome.after.map { SVGChart.format($0.medianSeconds, "s") } ?? "-"))</td>" }
        html += "</tr><tr><th>verdict</th><td></td>"
        for outcome in outcomes {
            html += "<td class=\"verdict-\(outcome.verdict.rawValue.replacingOccurrences(of: " ", with: "-"))\"><span class=\"verdict\">"
                + "\(escapeHTML(outcome.verdict.rawValue))</span></td>"
        }
        html += "</tr></tbody></table>"
        let fixed = outcomes.compactMap { outcome in outcome.after.map { (label: "with \(outcome.fix.summary)", value: $0.medianSeconds) } }
        if !fixed.isEmpty { html += SVGChart.bars([(label: "as it is", value: asItIs.medianSeconds)] + fixed) }
        return html
    }

    /// How a scenario's work grows with the data (`--scales`): every fit.
    private static func scaling(_ scaling: ScalingFits) -> String {
        var html = "<h3>How the work grows with the data (--scales)</h3><p class=\"stats\">"
            + escapeHTML("At scales \(scaling.scales.map(ScalingFit.number).joined(separator: ", ")); N is the data set's scale (\(ScalingFits.note)).")
            + "</p><input class=\"filter\" type=\"search\" placeholder=\"filter lines\"><table class=\"sortable scaling\"><thead><tr>"
            + "<th>count</th><th>line</th><th>slope</th><th>growth</th><th>counts</th><th>residuals</th><th>shape</th></tr></thead><tbody>"
        for fit in scaling.fits {
            html += "<tr\(fit.advisory == true ? " class=\"advisory\"" : "")><td>\(escapeHTML(fit.subject))</td><td>\(escapeHTML(fit.equation))</td>"
                + "<td data-value=\"\(fit.slope)\">\(escapeHTML(ScalingFit.number(fit.slope)))</td><td>\(escapeHTML(fit.growth.rawValue))</td>"
                + "<td>\(escapeHTML(fit.counts.map(String.init).joined(separator: ", ")))</td>"
                + "<td>\(escapeHTML(fit.residuals?.map(ScalingFit.number).joined(separator: ", ") ?? ""))</td>"
                + "<td><code>\(escapeHTML(fit.shape ?? ""))</code></td></tr>"
        }
        return html + "</tbody></table>"
    }

    /// The book's experiments: lesson, source, both ratios, verdict and why.
    private static func experiments(_ report: Report) -> String {
        guard let experiments = report.experiments, !experiments.isEmpty else { return "" }
        var html = "<section class=\"experiments\"><h2>The book's experiments</h2><table class=\"sortable\" id=\"experiments\"><thead><tr>"
            + "<th>experiment</th><th>book</th><th>measured (95% interval)</th><th>verdict</th><th>what the book teaches, and why this run agrees or not</th>"
            + "</tr></thead><tbody>"
        for experiment in experiments {
            var sides = ""
            if let baseline = experiment.baseline, let treatment = experiment.treatment {
                sides = "<br><span class=\"evidence\">" + escapeHTML(
                    "book: \(baseline.label) \(SVGChart.format(baseline.sourceSeconds, "s")), \(treatment.label) "
                        + "\(SVGChart.format(treatment.sourceSeconds, "s")); here: \(SVGChart.format(baseline.medianSeconds, "s")) and "
                        + "\(SVGChart.format(treatment.medianSeconds, "s"))") + "</span>"
            } else if let expectation = experiment.expectation {
                sides = "<br><span class=\"evidence\">" + escapeHTML("expected: " + expectation) + "</span>"
            }
            html += "<tr class=\"verdict-\(experiment.verdict.rawValue)\"><td>\(escapeHTML(experiment.name))</td>"
                + "<td data-value=\"\(experiment.sourceRatio ?? 0)\">\(escapeHTML(experiment.sourceRatioText))</td>"
                + "<td data-value=\"\(experiment.measuredRatio ?? 0)\">\(escapeHTML(experiment.measuredRatioText))</td>"
                + "<td class=\"verdict\">\(escapeHTML(experiment.verdict.rawValue))</td>"
                + "<td><strong>\(escapeHTML(experiment.lesson))</strong>\(sides)<br>\(escapeHTML(experiment.reason))"
                + "<br><span class=\"site\">\(escapeHTML(experiment.source)). \(escapeHTML(experiment.sourceSetting)).</span></td></tr>"
        }
        return html + "</tbody></table><p class=\"stats\">\(escapeHTML(ExperimentReport.ratioNote)).</p></section>"
    }

    private static func anchor(_ name: String) -> String {
        "scenario-" + String(name.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    private static func section(_ scenario: ScenarioReport) -> String {
        var html = "<section class=\"scenario\" id=\"\(anchor(scenario.name))\"><h2>\(escapeHTML(scenario.name)) "
            + "<span class=\"status \(scenario.status.rawValue)\">\(escapeHTML(scenario.status.rawValue))</span></h2>"
            + "<p class=\"description\">\(escapeHTML(scenario.description))</p>"
        if let error = scenario.error { html += "<p class=\"error\">\(escapeHTML(error))</p>" }
        if !scenario.samples.isEmpty {
            let times = scenario.samples.map(\.wallSeconds)
            let statistics = Statistics(times)
            html += "<h3>Time per iteration</h3>\(SVGChart.samples(times))<p class=\"stats\">"
                + escapeHTML("min \(SVGChart.format(statistics.min, "s")), median \(SVGChart.format(statistics.median, "s")), "
                    + "max \(SVGChart.format(statistics.max, "s")), standard deviation \(SVGChart.format(statistics.standardDeviation, "s"))")
                + "</p>"
            if let breakdown = scenario.timeBreakdown {
                html += "<h3>Where the time went (medians of the iterations)</h3>"
                    + SVGChart.bars([
                        ("SQLite (statements)", breakdown.sqliteSeconds), ("row cache (faults)", breakdown.rowCacheSeconds),
                        ("contexts and the scenario", breakdown.otherSeconds),
                    ])
            }
        }
        let timed = scenario.values.filter { $0.key.hasSuffix("Seconds") }.sorted { $0.key < $1.key }
        if timed.count > 1 {
            html += "<h3>Variants</h3>" + SVGChart.bars(timed.map { (label: $0.key, value: $0.value) })
        }
        if !scenario.counters.isEmpty {
            html += "<h3>Counters</h3><table class=\"counters\"><tbody>"
            for (name, value) in scenario.counters.sorted(by: { $0.key < $1.key }) {
                let advisory = scenario.advisoryCounters.contains(name)
                html += "<tr\(advisory ? " class=\"advisory\"" : "")><th>\(escapeHTML(name))</th><td>\(value)</td><td>\(advisory ? "advisory" : "")</td></tr>"
            }
            html += "</tbody></table>"
        }
        if let phases = scenario.phases, !phases.isEmpty {
            html += "<h3>Phases</h3><table class=\"sortable phases\"><thead><tr><th>phase</th><th>median</th><th>min–max</th>"
                + "<th>SQLite</th><th>statements</th><th>rows read</th><th>faults</th></tr></thead><tbody>"
            for phase in phases {
                html += "<tr><td>\(escapeHTML(phase.name))</td><td data-value=\"\(phase.seconds.median)\">"
                    + "\(escapeHTML(SVGChart.format(phase.seconds.median, "s")))</td>"
                    + "<td>\(escapeHTML(SVGChart.format(phase.seconds.min, "s") + "–" + SVGChart.format(phase.seconds.max, "s")))</td>"
                    + "<td data-value=\"\(phase.sqliteSeconds.median)\">\(escapeHTML(SVGChart.format(phase.sqliteSeconds.median, "s")))</td>"
                    + "<td>\(phase.counters[.sqlStatements] ?? 0)</td><td>\(phase.counters[.rowsRead] ?? 0)</td>"
                    + "<td>\(phase.counters[.faultsFired] ?? 0)</td></tr>"
            }
            html += "</tbody></table>"
        }
        if !scenario.values.isEmpty {
            html += "<h3>Figures (medians, with min–max)</h3><table class=\"values\"><tbody>"
            for (name, value) in scenario.values.sorted(by: { $0.key < $1.key }) {
                var range = ""
                if let statistics = scenario.valueStatistics?[name], statistics.min != statistics.max {
                    range = String(format: "%g–%g", statistics.min, statistics.max)
                }
                html += "<tr><th>\(escapeHTML(name))</th><td>\(escapeHTML(String(format: "%g", value)))</td><td>\(escapeHTML(range))</td></tr>"
            }
            html += "</tbody></table>"
        }
        if !scenario.statements.isEmpty {
            html += "<h3>SQL statements</h3><input class=\"filter\" type=\"search\" placeholder=\"filter statements\">"
                + "<table class=\"sortable statements\"><thead><tr><th>shape</th><th>purpose</th><th>count</th><th>total</th><th>max</th>"
                + "<th>rows</th><th>full-scan steps</th><th>call site</th></tr></thead><tbody>"
            for statement in scenario.statements {
                let scan = statement.fullScanSteps > 0 ? " class=\"full-scan\"" : ""
                html += "<tr\(scan)><td><code>\(escapeHTML(statement.shape))</code></td><td>\(escapeHTML(statement.purpose))</td>"
                    + "<td>\(statement.count)</td><td data-value=\"\(statement.totalSeconds)\">\(escapeHTML(SVGChart.format(statement.totalSeconds, "s")))</td>"
                    + "<td data-value=\"\(statement.maxSeconds)\">\(escapeHTML(SVGChart.format(statement.maxSeconds, "s")))</td>"
                    + "<td>\(statement.rowsReturned.addingSaturated(statement.rowsChanged))</td><td>\(statement.fullScanSteps)\(statement.fullScanSteps > 0 ? " ⚠" : "")</td>"
                    + "<td>\(escapeHTML(statement.firstCallSite))</td></tr>"
            }
            html += "</tbody></table>"
        }
        html += HTMLStatementShapes.section(scenario)
        html += whatIf(scenario.insights.compactMap(\.whatIf))
        if let scaling = scenario.scaling { html += self.scaling(scaling) }
        if !scenario.insights.isEmpty {
            html += "<h3>Insights</h3><ul class=\"insights\">"
            for insight in scenario.insights { html += self.insight(insight) }
            html += "</ul>"
        }
        return html + "</section>"
    }

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
        h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}h3{font-size:1em;margin:1.2em 0 .4em}
        table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
        thead th{background:#f3f3f3;cursor:pointer}code{font-size:12px;word-break:break-all}
        .status.passed,tr.passed td:nth-child(2){color:#26734d}.status.failed,tr.failed td:nth-child(2),.error{color:#b02a2a}
        .status.skipped{color:#8a6d00}tr.advisory{color:#777}tr.full-scan td:nth-child(7){color:#b02a2a;font-weight:bold}
        .insights li{margin:.4em 0}.insights li.accepted,.insights li.withdrawn{color:#777}.evidence,.site,.note{color:#555;font-size:12px}
        .fix-first li{margin:.3em 0}.gain{color:#26734d;font-size:12px}.what-if{margin:.3em 0 .1em}.what-if td{text-align:right}
        .verdict-faster .verdict{color:#26734d}.verdict-slower .verdict,.verdict-no-gain .verdict{color:#8a6d00}
        .filter{margin:.3em 0;padding:2px 6px}.description{max-width:850px}
        .verdict-reproduced .verdict{color:#26734d}.verdict-weaker .verdict{color:#8a6d00}.verdict-absent .verdict,.verdict-inverted .verdict{color:#b02a2a}
        @media print{thead th{cursor:auto}.filter{display:none}}
        """

    static let script = """
        (function(){
          document.querySelectorAll('table.sortable').forEach(function(table){
            table.querySelectorAll('thead th').forEach(function(header, column){
              header.addEventListener('click', function(){
                var body = table.tBodies[0];
                var rows = Array.prototype.slice.call(body.rows);
                var ascending = header.getAttribute('data-order') !== 'asc';
                rows.sort(function(a, b){
                  var x = a.cells[column], y = b.cells[column];
                  var p = parseFloat(x.getAttribute('data-value') || x.textContent), q = parseFloat(y.getAttribute('data-value') || y.textContent);
                  var order = (!isNaN(p) && !isNaN(q)) ? p - q : x.textContent.localeCompare(y.textContent);
                  return ascending ? order : -order;
                });
                rows.forEach(function(row){ body.appendChild(row); });
                header.setAttribute('data-order', ascending ? 'asc' : 'desc');
              });
            });
          });
          document.querySelectorAll('input.filter').forEach(function(input){
            var table = input.nextElementSibling;
            input.addEventListener('input', function(){
              var needle = input.value.toLowerCase();
              Array.prototype.forEach.call(table.tBodies[0].rows, function(row){
                row.style.display = row.textContent.toLowerCase().indexOf(needle) >= 0 ? '' : 'none';
              });
            });
          });
          document.body.setAttribute('data-ready', '1');
        })();
        """
}
