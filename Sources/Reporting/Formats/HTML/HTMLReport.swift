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
    ///
    /// The page leads with what a reader acts on: what failed, then what to
    /// fix first, then the book's experiments, then the scenarios (the run
    /// and its table, the timelines, a section each), with a table of
    /// contents beside it (above it on a narrow screen) and a way back to the top.
    public static func render(_ report: Report, timeline: Timeline? = nil) -> String {
        var contents: [HTMLContents.Entry] = []
        var main = ""
        func add(_ id: String, _ title: String, _ note: String?, _ html: String) {
            guard !html.isEmpty else { return }
            contents.append(HTMLContents.Entry(id: id, title: title, note: note))
            main += HTMLContents.part(id, html)
        }
        let failing = HTMLFailures.scenarios(report)
        add("part-failures", HTMLFailures.title(report), "\(failing.count)", HTMLFailures.render(report))
        let fixes = FixPriority.rank(report)
        add("part-fix-first", "What to fix first", "\(fixes.count)", fixFirst(report))
        add("part-experiments", "The book's experiments", report.experiments.map { "\($0.count)" }, experiments(report))
        var sideBySide = ""
        for (title, names) in groups {
            let items = names.compactMap { name in
                report.scenarios.first { $0.name == name && !$0.samples.isEmpty }.map {
                    (label: name, value: Statistics($0.samples.map(\.wallSeconds)).median)
                }
            }
            if items.count > 1 {
                sideBySide += "<section class=\"group\"><h2>\(escapeHTML(title))</h2>\(SVGChart.bars(items))</section>"
            }
        }
        add("part-side-by-side", "Side by side", nil, sideBySide)
        add("part-run", "Run", nil, summary(report))
        let drawn = timeline.map { HTMLTimeline.render($0) } ?? ""
        add("part-timeline", "Timelines", nil, drawn.isEmpty ? "" : "<section class=\"timeline\"><h2>Timeline of the last iterations</h2>"
            + "<p class=\"stats\">Each scenario on its own axis, from its first recorded event to its last; + and − zoom, the slider moves along.</p>"
            + "\(drawn)</section>")
        var scenarios = ""
        var entries: [HTMLContents.Entry] = []
        for scenario in report.scenarios {
            scenarios += section(scenario)
            entries.append(HTMLContents.Entry(
                id: anchor(scenario.name), title: scenario.name, note: scenario.status == .passed ? nil : scenario.status.rawValue,
                mark: scenario.status.rawValue))
        }
        add("part-scenarios", "Scenarios", "\(report.scenarios.count)", scenarios)
        if !entries.isEmpty { contents[contents.count - 1].children = entries }
        return HTMLPage.opening(title: "Faultline report") + "<header id=\"top\"><h1>Faultline report</h1>\(HTMLFailures.headline(report))</header>"
            + "<div class=\"layout\">\(HTMLContents.render(contents))<main>\(HTMLPage.scrollingTables(main))</main></div>"
            + "<a class=\"to-top\" href=\"#top\" aria-label=\"back to the top\">↑</a>" + HTMLPage.closing
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
        let shown = [CounterName.sqlStatements, .faultsFired, .cacheMisses]
        html += "</table><table class=\"sortable\" id=\"scenarios\"><thead><tr><th>scenario</th><th>status</th>"
            + "<th title=\"\(escapeHTML(ReportWords.median))\">median</th>" + shown.map { HTMLCell.counterHeading($0) }.joined()
            + "<th>insights</th></tr></thead><tbody>"
        for scenario in report.scenarios {
            html += "<tr class=\"\(scenario.status.rawValue)\"><td><a href=\"#\(anchor(scenario.name))\">\(escapeHTML(scenario.name))</a></td>"
                + "<td>\(escapeHTML(scenario.status.rawValue))</td>"
            // One that measured nothing says why across its empty cells.
            if scenario.status != .passed, scenario.samples.isEmpty, scenario.counters.isEmpty {
                html += "<td colspan=\"5\" class=\"reason\">\(escapeHTML(scenario.error ?? "nothing measured"))</td></tr>"
                continue
            }
            html += scenario.samples.isEmpty ? "<td></td>" : HTMLCell.time(Statistics(scenario.samples.map(\.wallSeconds)).median)
            for counter in shown { html += HTMLCell.count(scenario.counters[counter]) }
            html += HTMLCell.count(scenario.insights.count) + "</tr>"
        }
        return html + "</tbody></table><p class=\"stats\">\(escapeHTML(ReportWords.sentence(ReportWords.median)))</p></section>"
    }

    /// A scenario's insights: those done on purpose folded away under their count.
    private static func insights(_ insights: [Insight]) -> String {
        let onPurpose = insights.filter { $0.intended != nil }
        let others = insights.filter { $0.intended == nil }
        var html = "<h3>Insights</h3>"
        if !others.isEmpty { html += "<ul class=\"insights\">" + others.map(insight).joined() + "</ul>" }
        if !onPurpose.isEmpty {
            html += "<details class=\"fold on-purpose\"><summary>\(escapeHTML(HTMLFold.count(onPurpose.count, "insight")))"
                + " on purpose here (the scenario does it to show it)</summary><ul class=\"insights\">"
                + onPurpose.map(insight).joined() + "</ul></details>"
        }
        return html
    }

    /// The shapes whose full scans the full-scan rule advises against (an
    /// insight not marked on purpose names them in its evidence); other scans are
    /// asked for: a statement that wants every row, or a small table.
    static func scansAdvisedAgainst(_ scenario: ScenarioReport) -> Set<String> {
        Set(scenario.insights.filter { $0.rule == .fullScan && $0.intended == nil }
            .flatMap { $0.evidence.components(separatedBy: " | ") })
    }

    /// What a scenario's statements table holds, in words.
    private static func statementsInside(_ statements: [StatementReport], flagged: Set<String>) -> String {
        let executions = statements.reduce(0) { $0.addingSaturated($1.count) }
        var text = HTMLFold.count(statements.count, "shape") + ", " + HTMLFold.count(executions, "execution")
        let warned = statements.filter { flagged.contains($0.shape) }.count
        if warned > 0 { text += ", " + HTMLFold.count(warned, "full scan") + " to fix" }
        return text
    }

    /// What to fix first (``FixPriority``), each linking to its scenario.
    private static func fixFirst(_ report: Report) -> String {
        let entries = FixPriority.rank(report)
        guard !entries.isEmpty else { return "" }
        var html = "<section class=\"fix-first\"><h2>What to fix first</h2><ol>"
        for entry in entries {
            html += "<li><a href=\"#\(anchor(entry.scenario))\">\(escapeHTML(entry.scenario))</a>: "
                + "\(escapeHTML(entry.insight.message)) <span class=\"gain\" title=\"\(escapeHTML(FixPriority.kind(entry).definition))\">"
                + "\(escapeHTML(FixPriority.figure(entry)))</span> <span class=\"site\">\(escapeHTML(entry.insight.callSite))</span></li>"
        }
        html += "</ol>"
        for definition in FixPriority.definitions(entries) { html += "<p class=\"stats\">\(escapeHTML(ReportWords.sentence(definition)))</p>" }
        return html + "</section>"
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
        var html = "<h3>Fixes measured (--what-if)</h3><table class=\"what-if\"><thead><tr><th></th>"
            + "<th title=\"\(escapeHTML(ReportWords.asItIs))\">as it is</th>"
        for outcome in outcomes { html += "<th>with \(escapeHTML(outcome.fix.summary))</th>" }
        html += "</tr></thead><tbody>"
        for counter in WhatIfOutcome.counters {
            html += "<tr>\(HTMLCell.counterHeading(counter))\(HTMLCell.count(asItIs.counters[counter]))"
            for outcome in outcomes { html += HTMLCell.count(outcome.after?.counters[counter]) }
            html += "</tr>"
        }
        html += "<tr><th title=\"\(escapeHTML(ReportWords.median))\">median time</th>\(HTMLCell.time(asItIs.medianSeconds))"
        for outcome in outcomes { html += outcome.after.map { HTMLCell.time($0.medianSeconds) } ?? "<td>-</td>" }
        html += "</tr><tr><th>verdict</th><td></td>"
        for outcome in outcomes {
            html += "<td class=\"verdict-\(outcome.verdict.rawValue.replacingOccurrences(of: " ", with: "-"))\"><span class=\"verdict\">"
                + "\(escapeHTML(outcome.verdict.rawValue))</span></td>"
        }
        html += "</tr></tbody></table>"
        let fixed = outcomes.compactMap { outcome in outcome.after.map { (label: "with \(outcome.fix.summary)", value: $0.medianSeconds) } }
        if !fixed.isEmpty { html += SVGChart.bars([(label: "as it is", value: asItIs.medianSeconds)] + fixed) }
        return html + "<p class=\"stats\">\(escapeHTML(ReportWords.sentence(ReportWords.asItIs)))</p>"
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
                + "<td>\(escapeHTML(fit.counts.map(CountText.count).joined(separator: ", ")))</td>"
                + "<td>\(escapeHTML(fit.residuals?.map(ScalingFit.number).joined(separator: ", ") ?? ""))</td>"
                + "<td><code>\(escapeHTML(fit.shape ?? ""))</code></td></tr>"
        }
        return html + "</tbody></table>"
    }

    /// The id of a scenario's section.
    static func anchor(_ name: String) -> String {
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
                + escapeHTML("Wall time of each of the \(CountText.count(times.count)) measured iterations: min \(TimeText.seconds(statistics.min)), "
                    + "median \(TimeText.seconds(statistics.median)), max \(TimeText.seconds(statistics.max)), "
                    + "standard deviation \(TimeText.seconds(statistics.standardDeviation)).")
                + "</p>"
            if let breakdown = scenario.timeBreakdown {
                if let parts = breakdown.attribution(wallSeconds: statistics.median) {
                    html += "<h3>Where the time went in the median iteration (\(escapeHTML(TimeText.seconds(parts.wall))))</h3>"
                        + SVGChart.bars([
                            ("SQLite (statements)", parts.sqlite), ("row cache (faults)", parts.rowCache),
                            ("contexts and the scenario", parts.rest),
                        ])
                        + "<p class=\"stats\">\(escapeHTML(ReportWords.sentence(ReportWords.breakdown)))</p>"
                } else {
                    html += "<h3>Per-thread time in SQLite and the row cache</h3>"
                        + SVGChart.bars([
                            ("SQLite (all threads)", breakdown.sqliteSeconds), ("row cache (all threads)", breakdown.rowCacheSeconds),
                        ])
                        + "<p class=\"stats\">\(escapeHTML(ReportWords.sentence(ReportWords.perThread)))"
                        + " \(escapeHTML("The median iteration's wall time: \(TimeText.seconds(breakdown.wallSeconds ?? statistics.median)).")) </p>"
                }
            }
        }
        let timed = scenario.values.filter { $0.key.hasSuffix("Seconds") }.sorted { $0.key < $1.key }
        if timed.count > 1 {
            html += "<h3>Variants</h3>" + SVGChart.bars(timed.map { (label: $0.key, value: $0.value) })
        }
        if !scenario.counters.isEmpty {
            html += HTMLFold.open("Counters (one measured iteration)", HTMLFold.count(scenario.counters.count, "counter")) + "<table class=\"counters\"><tbody>"
            for (name, value) in scenario.counters.sorted(by: { $0.key < $1.key }) {
                let advisory = scenario.advisoryCounters.contains(name)
                html += "<tr\(advisory ? " class=\"advisory\"" : "")>\(HTMLCell.counterHeading(named: name))\(HTMLCell.count(value))"
                    + "<td>\(advisory ? "advisory" : "")</td></tr>"
            }
            html += "</tbody></table>" + HTMLFold.close
        }
        if let phases = scenario.phases, !phases.isEmpty {
            html += HTMLFold.open("Phases", HTMLFold.count(phases.count, "phase")) + "<table class=\"sortable phases\"><thead><tr><th>phase</th><th>median</th><th>min–max</th>"
                + "<th>SQLite (median)</th>\(HTMLCell.counterHeading(.sqlStatements, label: "statements"))"
                + "\(HTMLCell.counterHeading(.rowsRead, label: "rows read"))\(HTMLCell.counterHeading(.faultsFired, label: "faults"))</tr></thead><tbody>"
            for phase in phases {
                html += "<tr><td>\(escapeHTML(phase.name))</td>\(HTMLCell.time(phase.seconds.median))"
                    + "<td>\(escapeHTML(TimeText.seconds(phase.seconds.min) + "–" + TimeText.seconds(phase.seconds.max)))</td>"
                    + HTMLCell.time(phase.sqliteSeconds.median)
                    + HTMLCell.count(phase.counters[.sqlStatements] ?? 0) + HTMLCell.count(phase.counters[.rowsRead] ?? 0)
                    + HTMLCell.count(phase.counters[.faultsFired] ?? 0) + "</tr>"
            }
            html += "</tbody></table>" + HTMLFold.close
        }
        if !scenario.values.isEmpty {
            html += HTMLFold.open("Figures", HTMLFold.count(scenario.values.count, "figure") + ", medians with min–max") + "<table class=\"values\"><tbody>"
            for (name, value) in scenario.values.sorted(by: { $0.key < $1.key }) {
                var range = ""
                if let statistics = scenario.valueStatistics?[name], statistics.min != statistics.max {
                    range = CountText.figure(name, statistics.min) + "–" + CountText.figure(name, statistics.max)
                }
                html += "<tr><th>\(escapeHTML(name))</th><td data-value=\"\(value)\">\(escapeHTML(CountText.figure(name, value)))</td>"
                    + "<td>\(escapeHTML(range))</td></tr>"
            }
            html += "</tbody></table>" + HTMLFold.close
        }
        if !scenario.statements.isEmpty {
            let flagged = scansAdvisedAgainst(scenario)
            html += HTMLFold.open("SQL statements", statementsInside(scenario.statements, flagged: flagged)) + "<input class=\"filter\" type=\"search\" placeholder=\"filter statements\">"
                + "<table class=\"sortable statements\"><thead><tr><th>shape</th><th>purpose</th>"
                + "<th title=\"executions of the shape in one measured iteration\">count</th>"
                + "<th title=\"the time of all its executions in that iteration\">total</th><th title=\"its slowest execution\">max</th>"
                + "<th title=\"rows returned or changed\">rows</th>\(HTMLCell.counterHeading(.fullScanSteps, label: "full-scan steps"))"
                + "<th>call site</th></tr></thead><tbody>"
            for statement in scenario.statements {
                // Red only where the full-scan rule advises against it: a
                // statement that asks for every row, or a small table, scans on purpose.
                let warned = flagged.contains(statement.shape)
                let scan = statement.fullScanSteps == 0 ? "" : warned ? " class=\"full-scan\"" : " class=\"scan-on-purpose\""
                html += "<tr\(scan)><td><code>\(escapeHTML(statement.shape))</code></td><td>\(escapeHTML(statement.purpose))</td>"
                    + HTMLCell.count(statement.count) + HTMLCell.time(statement.totalSeconds) + HTMLCell.time(statement.maxSeconds)
                    + HTMLCell.count(statement.rowsReturned.addingSaturated(statement.rowsChanged))
                    + "<td data-value=\"\(statement.fullScanSteps)\">\(CountText.count(statement.fullScanSteps))\(warned ? " ⚠" : "")</td>"
                    + "<td>\(escapeHTML(statement.firstCallSite))</td></tr>"
            }
            html += "</tbody></table>" + HTMLFold.close
        }
        html += HTMLStatementShapes.section(scenario)
        html += whatIf(scenario.insights.compactMap(\.whatIf))
        if let scaling = scenario.scaling { html += self.scaling(scaling) }
        if !scenario.insights.isEmpty { html += insights(scenario.insights) }
        return html + "</section>"
    }
}
