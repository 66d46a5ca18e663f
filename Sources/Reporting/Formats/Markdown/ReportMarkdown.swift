import Foundation
import Insights
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
        let shown = [CounterName.sqlStatements, .faultsFired, .cacheMisses]
        for scenario in report.scenarios {
            let median = scenario.samples.isEmpty ? "-" : TimeText.seconds(Statistics(scenario.samples.map(\.wallSeconds)).median)
            let counters = shown.map { CountText.count(scenario.counters[$0]) }
            let status = scenario.status == .passed ? "passed" : "\(scenario.status.rawValue): \(scenario.error ?? "")"
            lines.append("| \(escapeMarkdown(scenario.name)) | \(escapeMarkdown(status)) | \(median) | "
                + counters.joined(separator: " | ") + " | \(CountText.count(scenario.insights.count)) |")
        }
        lines += ["", legend([ReportWords.median] + CounterGlossary.legend(shown))]
        lines += measuredFixes(report)
        lines += scaling(report)
        lines += insights(report)
        lines += MarkdownStatementShapes.section(report)
        if let experiments = report.experiments, !experiments.isEmpty {
            lines += ["", "### The book's experiments", "", "| experiment | book | measured (95% interval) | verdict | what happened here |",
                "| --- | --- | --- | --- | --- |"]
            for experiment in experiments {
                let here = (experiment.sidesText.map { [$0 + "."] } ?? []) + experiment.lessonSentences
                lines.append("| \(escapeMarkdown(experiment.name)) | \(experiment.sourceRatioText) | \(experiment.measuredRatioText) | "
                    + "\(experiment.verdict.rawValue) | \(escapeMarkdown(here.joined(separator: " "))) |")
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
        return lines + ["", legend(FixPriority.definitions(entries)), ""]
    }

    /// Every measured fix: per scenario, the run as it is once, then each
    /// fix's figures beside it, with its verdict.
    static func measuredFixes(_ report: Report) -> [String] {
        let measured = report.scenarios.compactMap { scenario -> (String, [WhatIfOutcome])? in
            let outcomes = scenario.insights.compactMap(\.whatIf)
            return outcomes.isEmpty ? nil : (scenario.name, outcomes)
        }
        guard !measured.isEmpty else { return [] }
        var lines = ["", "### Fixes measured (--what-if)", "",
            "| scenario | run | statements | rows read | faults | median | verdict |", "| --- | --- | --- | --- | --- | --- | --- |"]
        func figure(_ side: WhatIfOutcome.Side?, _ counter: CounterName) -> String { CountText.count(side?.counters[counter]) }
        for (scenario, outcomes) in measured {
            let asItIs = outcomes[0].before
            lines.append("| \(escapeMarkdown(scenario)) | as it is | \(figure(asItIs, .sqlStatements)) | \(figure(asItIs, .rowsRead)) | "
                + "\(figure(asItIs, .faultsFired)) | \(TimeText.seconds(asItIs.medianSeconds)) | |")
            for outcome in outcomes {
                var median = outcome.after.map { TimeText.seconds($0.medianSeconds) } ?? "-"
                if let ratio = outcome.ratio {
                    median += " (\(String(format: "%.2f", ratio))x"
                    if let low = outcome.ratioLow, let high = outcome.ratioHigh { median += ", \(String(format: "%.2f", low))x–\(String(format: "%.2f", high))x" }
                    median += ")"
                }
                lines.append("| \(escapeMarkdown(scenario)) | with \(escapeMarkdown(outcome.fix.summary)) | \(figure(outcome.after, .sqlStatements)) | "
                    + "\(figure(outcome.after, .rowsRead)) | \(figure(outcome.after, .faultsFired)) | \(median) | "
                    + "\(outcome.verdict.rawValue): \(escapeMarkdown(outcome.reason)) |")
            }
        }
        return lines + ["", legend([ReportWords.asItIs] + CounterGlossary.legend([.sqlStatements, .rowsRead, .faultsFired]))]
    }

    /// How each scenario's work grows with the data (`--scales`).
    static func scaling(_ report: Report) -> [String] {
        let scaled = report.scenarios.filter { $0.scaling != nil }
        guard !scaled.isEmpty else { return [] }
        var lines = ["", "### How the work grows with the data (--scales)", "",
            "N is the data set's scale (\(escapeMarkdown(ScalingFits.note))).", "",
            "| scenario | scales | count | line | counts |", "| --- | --- | --- | --- | --- |"]
        for scenario in scaled {
            let scaling = scenario.scaling!
            let scales = scaling.scales.map(ScalingFit.number).joined(separator: ", ")
            for fit in scaling.shown {
                var line = fit.equation
                if fit.growth == .notLinear, let residuals = fit.residuals {
                    line += " (not a line: residuals \(residuals.map(ScalingFit.number).joined(separator: ", ")))"
                }
                lines.append("| \(escapeMarkdown(scenario.name)) | \(scales) | \(escapeMarkdown(fit.subject)) | \(escapeMarkdown(line)) | "
                    + "\(fit.counts.map(CountText.count).joined(separator: ", ")) |")
            }
        }
        return lines
    }

    /// Each scenario's insights, under a heading the ranking links to;
    /// those done on purpose folded away under their count (a `<details>`
    /// block, which GitHub shows closed).
    static func insights(_ report: Report) -> [String] {
        let withInsights = report.scenarios.filter { !$0.insights.isEmpty }
        guard !withInsights.isEmpty else { return [] }
        var lines = ["", "### Insights"]
        for scenario in withInsights {
            lines += ["", "#### \(escapeMarkdown(scenario.name))", ""]
            let onPurpose = scenario.insights.filter { $0.intended != nil }
            lines += scenario.insights.filter { $0.intended == nil }.map(bullet)
            if !onPurpose.isEmpty {
                let count = "\(onPurpose.count) \(onPurpose.count == 1 ? "insight" : "insights")"
                lines += ["", "<details><summary>\(count) on purpose here (the scenario does it to show it)</summary>", ""]
                    + onPurpose.map(bullet) + ["", "</details>"]
            }
        }
        return lines
    }

    /// One insight as a list item.
    static func bullet(_ insight: Insight) -> String {
        var line = "- \(escapeMarkdown(insight.message)) (\(escapeMarkdown(insight.callSite)); `\(insight.identity.replacingOccurrences(of: "`", with: "'"))`)"
        if let intended = insight.intended { line += ": on purpose here, \(escapeMarkdown(intended))" }
        if insight.accepted == true { line += ": accepted" }
        if let outcome = insight.whatIf, !insight.isActionable { line += ": advice withdrawn, measured \(escapeMarkdown(outcome.reason))" }
        return line
    }

    /// Definitions (`word: what it means`) as one legend line: each word
    /// in bold, every definition escaped.
    static func legend(_ definitions: [String]) -> String {
        definitions.map { definition in
            guard let colon = definition.firstIndex(of: ":") else { return escapeMarkdown(definition) }
            return "**\(escapeMarkdown(String(definition[..<colon])))**\(escapeMarkdown(String(definition[colon...])))"
        }.joined(separator: "; ") + "."
    }

    /// GitHub's anchor of a `####` heading made of a scenario's name.
    static func anchor(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }.map(Character.init))
    }
}
