import Foundation
import Insights
import Probes

/// A run's report as text for a terminal: the summary table of its
/// scenarios and the table of the experiments judged.
public enum ReportText {
    /// A plain-text table of the book's experiments: the source's ratio,
    /// the measured one with its interval, and the verdict; under each
    /// row, indented, what happened here in the sentences the page and the
    /// Markdown give (``ExperimentReport/lessonSentences``: the mechanism,
    /// then the break-even cost per statement where there is one).
    public static func experimentTable(_ report: Report) -> String? {
        guard let experiments = report.experiments, !experiments.isEmpty else { return nil }
        var rows = [["experiment", "book", "measured (95% interval)", "verdict"]]
        for experiment in experiments {
            rows.append([experiment.name, experiment.sourceRatioText, experiment.measuredRatioText, experiment.verdict.rawValue])
        }
        let lines = tableLines(rows)
        var text = [lines[0]]
        for (experiment, line) in zip(experiments, lines.dropFirst()) {
            text.append(line)
            text += experiment.lessonSentences.map { "  " + $0 }
        }
        return text.joined(separator: "\n") + "\n" + ExperimentReport.ratioNote
    }

    /// A plain-text table: scenario, status, median time, key counters and
    /// the scenario's own figures.
    public static func summaryTable(_ report: Report) -> String {
        var rows = [["scenario", "status", "median", "sql", "faults", "misses", "rows read", "values"]]
        for scenario in report.scenarios {
            let median = scenario.summary.map { TimeText.seconds($0.wallSeconds.median) } ?? "-"
            let values = scenario.values.sorted { $0.key < $1.key }.map { key, value in
                "\(key)=\(CountText.figure(key, value))"
            }.joined(separator: " ")
            rows.append([
                scenario.name, scenario.status.rawValue, median, counter(scenario, .sqlStatements), counter(scenario, .faultsFired),
                counter(scenario, .cacheMisses), counter(scenario, .rowsRead),
                scenario.error.map { "error: \($0)" } ?? values,
            ])
        }
        return table(rows) + "\n" + ReportWords.sentence(ReportWords.median)
    }

    /// Rows as aligned columns (the last one not padded).
    static func table(_ rows: [[String]]) -> String {
        tableLines(rows).joined(separator: "\n")
    }

    /// Each row as one line of aligned columns (the last one not padded).
    static func tableLines(_ rows: [[String]]) -> [String] {
        let widths = (0..<rows[0].count - 1).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index < widths.count ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) : cell
            }.joined(separator: "  ")
        }
    }

    private static func counter(_ scenario: ScenarioReport, _ name: CounterName) -> String {
        CountText.count(scenario.counters[name])
    }

    /// "What to fix first" (``FixPriority``) as numbered lines, then the
    /// advice a measured fix withdrew (`--what-if` found it no faster), so
    /// that a run does not drop advice without saying why; nil when there
    /// is neither.
    public static func fixFirst(_ report: Report) -> String? {
        var lines: [String] = []
        let entries = FixPriority.rank(report)
        if !entries.isEmpty { lines.append("what to fix first") }
        for (number, entry) in entries.enumerated() {
            lines.append("\(number + 1). \(entry.scenario): \(entry.insight.message)")
            lines.append("   \(FixPriority.figure(entry)); \(entry.insight.callSite)")
        }
        lines += FixPriority.definitions(entries).map(ReportWords.sentence)
        let withdrawn = report.scenarios.flatMap { scenario in
            scenario.insights.compactMap { insight in
                insight.whatIf.flatMap { outcome in
                    insight.accepted != true && insight.intended == nil && !insight.isActionable ? (scenario.name, insight, outcome) : nil
                }
            }
        }
        if !withdrawn.isEmpty { lines.append((lines.isEmpty ? "" : "\n") + "advice withdrawn") }
        for (scenario, insight, outcome) in withdrawn {
            lines.append("- \(scenario): \(insight.message)")
            lines.append("  measured \(outcome.reason); \(insight.callSite)")
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Each scenario's fixes measured (`--what-if`): the run as it is once,
    /// then each fix's figures and verdict; nil when none was measured.
    public static func measuredFixes(_ report: Report) -> String? {
        var lines: [String] = []
        for scenario in report.scenarios {
            let outcomes = scenario.insights.compactMap(\.whatIf)
            guard !outcomes.isEmpty else { continue }
            if lines.isEmpty { lines.append("fixes measured (--what-if)") }
            var rows = [["", "median", "sql", "rows read", "faults", "verdict"]]
            let asItIs = outcomes[0].before
            rows.append(["\(scenario.name) as it is", TimeText.seconds(asItIs.medianSeconds)] + figures(asItIs) + [""])
            for outcome in outcomes {
                let median = outcome.after.map { TimeText.seconds($0.medianSeconds) } ?? "-"
                rows.append(["  with \(outcome.fix.summary)", median] + (outcome.after.map(figures) ?? ["-", "-", "-"]) + [outcome.verdict.rawValue])
            }
            lines.append(table(rows))
            for outcome in outcomes { lines.append("  \(outcome.reason)") }
        }
        if !lines.isEmpty { lines.append(ReportWords.sentence(ReportWords.asItIs)) }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    private static func figures(_ side: WhatIfOutcome.Side) -> [String] {
        [CounterName.sqlStatements, .rowsRead, .faultsFired].map { CountText.count(side.counters[$0]) }
    }

    /// How each scenario's work grows with the data (`--scales`): its
    /// counters' lines and those of the statements that grow, as it is and
    /// with each fix; nil for a run at one scale.
    public static func scaling(_ report: Report) -> String? {
        var lines: [String] = []
        for scenario in report.scenarios {
            guard let scaling = scenario.scaling else { continue }
            if lines.isEmpty {
                lines.append("how the work grows with the data (N = the data set's scale; \(ScalingFits.note))")
            }
            lines.append("\(scenario.name), at scales \(scaling.scales.map(ScalingFit.number).joined(separator: ", "))")
            for fit in scaling.shown { lines.append("  \(fit.description)\(fit.advisory == true ? " (advisory)" : "")") }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
}
