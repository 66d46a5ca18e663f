import Foundation
import Probes

/// A short Markdown summary of one run, for a CI job summary. Every string
/// from the report is escaped (``escapeMarkdown``).
public enum ReportMarkdown {
    public static func render(_ report: Report) -> String {
        var lines = [
            "## Faultline run: \(report.scenarios.filter { $0.status == .passed }.count) of \(report.scenarios.count) scenarios passed", "",
            "Scale \(report.configuration.scale), seed \(report.configuration.seed), \(report.configuration.iterations) iterations, "
                + "\(escapeMarkdown(report.environment.buildConfiguration)) build, SQLite \(escapeMarkdown(report.environment.sqliteVersion)).", "",
        ]
        lines += fixFirst(report)
        lines += ["| scenario | status | median | sqlStatements | faultsFired | cacheMisses | insights |", "| --- | --- | --- | --- | --- | --- | --- |"]
        for scenario in report.scenarios {
            let median = scenario.samples.isEmpty ? "-" : ComparisonFormat.seconds(Statistics(scenario.samples.map(\.wallSeconds)).median)
            let counters = [CounterName.sqlStatements, .faultsFired, .cacheMisses].map { scenario.counters[$0].map(String.init) ?? "-" }
            let status = scenario.status == .passed ? "passed" : "\(scenario.status.rawValue): \(scenario.error ?? "")"
            lines.append("| \(escapeMarkdown(scenario.name)) | \(escapeMarkdown(status)) | \(median) | "
                + counters.joined(separator: " | ") + " | \(scenario.insights.count) |")
        }
        lines += measuredFixes(report)
        lines += insights(report)
        if let experiments = report.experiments, !experiments.isEmpty {
            lines += ["", "### The book's experiments", "", "| experiment | book | measured (95% interval) | verdict | why |", "| --- | --- | --- | --- | --- |"]
            for experiment in experiments {
                lines.append("| \(escapeMarkdown(experiment.name)) | \(experiment.sourceRatioText) | \(experiment.measuredRatioText) | "
                    + "\(experiment.verdict.rawValue) | \(escapeMarkdown(experiment.reason)) |")
            }
            lines += ["", escapeMarkdown(ExperimentReport.ratioNote) + "."]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "What to fix first" (``FixPriority``), each linking to its scenario's insights.
    static func fixFirst(_ report: Report) -> [String] {
        let entries = FixPriority.rank(report)
        guard !entries.isEmpty else { return [] }
        var lines = ["### What to fix first", ""]
        for (number, entry) in entries.enumerated() {
            lines.append("\(number + 1). [\(escapeMarkdown(entry.scenario))](#\(anchor(entry.scenario))): \(escapeMarkdown(entry.insight.message)) "
                + "(\(escapeMarkdown(FixPriority.figure(entry))); \(escapeMarkdown(entry.insight.callSite)))")
        }
        return lines + [""]
    }

    /// Every measured fix: the run as it was and with the fix.
    static func measuredFixes(_ report: Report) -> [String] {
        let measured = report.scenarios.flatMap { scenario in scenario.insights.compactMap { $0.whatIf.map { (scenario.name, $0) } } }
        guard !measured.isEmpty else { return [] }
        var lines = ["", "### Fixes measured (--what-if)", "",
            "| scenario | fix | statements | rows read | faults | median | verdict |", "| --- | --- | --- | --- | --- | --- | --- |"]
        for (scenario, outcome) in measured {
            func pair(_ counter: CounterName) -> String {
                "\(outcome.before.counters[counter].map(String.init) ?? "-") → \(outcome.after?.counters[counter].map(String.init) ?? "-")"
            }
            var median = "\(TimeText.seconds(outcome.before.medianSeconds)) → " + (outcome.after.map { TimeText.seconds($0.medianSeconds) } ?? "-")
            if let ratio = outcome.ratio {
                median += " (\(String(format: "%.2f", ratio))x"
                if let low = outcome.ratioLow, let high = outcome.ratioHigh { median += ", \(String(format: "%.2f", low))x–\(String(format: "%.2f", high))x" }
                median += ")"
            }
            lines.append("| \(escapeMarkdown(scenario)) | \(escapeMarkdown(outcome.fix.summary)) | \(pair(.sqlStatements)) | \(pair(.rowsRead)) | "
                + "\(pair(.faultsFired)) | \(median) | \(outcome.verdict.rawValue) |")
        }
        return lines
    }

    /// Each scenario's insights, under a heading the ranking links to.
    static func insights(_ report: Report) -> [String] {
        let withInsights = report.scenarios.filter { !$0.insights.isEmpty }
        guard !withInsights.isEmpty else { return [] }
        var lines = ["", "### Insights"]
        for scenario in withInsights {
            lines += ["", "#### \(escapeMarkdown(scenario.name))", ""]
            for insight in scenario.insights {
                var line = "- \(escapeMarkdown(insight.message)) (\(escapeMarkdown(insight.callSite)); `\(insight.identity.replacingOccurrences(of: "`", with: "'"))`)"
                if let intended = insight.intended { line += ": on purpose here, \(escapeMarkdown(intended))" }
                if insight.accepted == true { line += ": accepted" }
                if let outcome = insight.whatIf, !insight.isActionable { line += ": advice withdrawn, measured \(escapeMarkdown(outcome.reason))" }
                lines.append(line)
            }
        }
        return lines
    }

    /// GitHub's anchor of a `####` heading made of a scenario's name.
    static func anchor(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }.map(Character.init))
    }
}
