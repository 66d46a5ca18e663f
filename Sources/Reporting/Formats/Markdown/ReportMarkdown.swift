import Foundation

/// A short Markdown summary of one run, for a CI job summary. Every string
/// from the report is escaped (``escapeMarkdown``).
public enum ReportMarkdown {
    public static func render(_ report: Report) -> String {
        var lines = [
            "## Faultline run: \(report.scenarios.filter { $0.status == .passed }.count) of \(report.scenarios.count) scenarios passed", "",
            "Scale \(report.configuration.scale), seed \(report.configuration.seed), \(report.configuration.iterations) iterations, "
                + "\(escapeMarkdown(report.environment.buildConfiguration)) build, SQLite \(escapeMarkdown(report.environment.sqliteVersion)).", "",
            "| scenario | status | median | sqlStatements | faultsFired | cacheMisses | insights |", "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for scenario in report.scenarios {
            let median = scenario.samples.isEmpty ? "-" : ComparisonFormat.seconds(Statistics(scenario.samples.map(\.wallSeconds)).median)
            let counters = ["sqlStatements", "faultsFired", "cacheMisses"].map { scenario.counters[$0].map(String.init) ?? "-" }
            let status = scenario.status == .passed ? "passed" : "\(scenario.status.rawValue): \(scenario.error ?? "")"
            lines.append("| \(escapeMarkdown(scenario.name)) | \(escapeMarkdown(status)) | \(median) | "
                + counters.joined(separator: " | ") + " | \(scenario.insights.count) |")
        }
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
}
