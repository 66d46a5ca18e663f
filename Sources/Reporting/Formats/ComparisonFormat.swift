import Foundation

/// A comparison as text for a terminal, Markdown for a CI job summary or a
/// pull request comment, or JSON for other tools.
public enum ComparisonFormat: String, CaseIterable, Sendable {
    case text, markdown, json

    /// The comparison in this format (``ReportComparison/render(_:)``).
    public func render(_ comparison: ReportComparison) throws -> String {
        switch self {
        case .json: try comparison.render(.json)
        case .text: try comparison.render(.text)
        case .markdown: try comparison.render(.markdown)
        }
    }

    static func counterSummary(_ scenario: ReportComparison.ScenarioComparison) -> String {
        if scenario.counters.isEmpty { return "-" }
        let changed = scenario.counters.filter { $0.verdict != .same }
        if changed.isEmpty { return "same" }
        return changed.map { "\($0.name) \($0.base) → \($0.head.map(String.init) ?? "none") (\($0.verdict.rawValue))" }.joined(separator: ", ")
    }

    /// Medians, their ratio and interval ("n/a" where not finite), p-value
    /// and verdict.
    static func timingSummary(_ timing: ReportComparison.TimingComparison?) -> String {
        guard let timing else { return "-" }
        func ratio(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "n/a" }
        var text = "\(seconds(timing.baseMedian)) → \(seconds(timing.headMedian)) ×\(ratio(timing.ratio))"
        if timing.ratioLow != nil || timing.ratioHigh != nil { text += " [\(ratio(timing.ratioLow)), \(ratio(timing.ratioHigh))]" }
        if let p = timing.adjustedPValue { text += String(format: " p=%.3g", p) }
        text += " \(timing.verdict.rawValue)"
        if let reason = timing.reason { text += " (\(reason))" }
        return text
    }

    /// Seconds with 4 decimals; in exponent form from a million on.
    static func seconds(_ value: Double) -> String {
        String(format: value.magnitude < 1e6 ? "%.4fs" : "%.4gs", value)
    }

    /// What a scenario's status line adds when head lacks the scenario and
    /// that is a regression.
    static func missingNote(_ scenario: ReportComparison.ScenarioComparison) -> String {
        return scenario.status.isMissingInHead && scenario.regression ? " (missing in head: a regression; --allow-missing if intended)" : ""
    }

    static func text(_ comparison: ReportComparison) -> String {
        var lines = ["comparing \(comparison.base) with \(comparison.head)"]
        lines.append(comparison.countersNotComparable.map { "counters: not comparable (\($0))" } ?? "counters: compared exactly")
        lines.append(comparison.timingsNotComparable.map { "timings: not comparable (\($0))" }
            ?? "timings: compared as samples; only meaningful from the same machine, ideally the same job")
        if let reason = comparison.scalingNotComparable { lines.append("fits: not comparable (\(reason))") }
        if comparison.timingsNotComparable == nil, comparison.noiseFloorGiven == false {
            lines.append("timings: no noise floor given, so a default of 5% is assumed; measure this machine's with an A/A pair (--noise-floor)")
        }
        for scenario in comparison.scenarios {
            lines.append("")
            lines.append("\(scenario.name): \(scenario.status)\(missingNote(scenario))")
            lines.append("  counters: \(counterSummary(scenario))")
            lines.append("  timing:   \(timingSummary(scenario.timing))")
            for phase in scenario.phases {
                lines.append("  phase \(phase.name): \(timingSummary(phase.timing))")
            }
            for change in scenario.statements {
                let site = change.callSite.flatMap { $0.isEmpty ? nil : " at \($0)" } ?? ""
                lines.append("  statement \(change.change.rawValue) (\(change.baseCount) → \(change.headCount))\(site): \(change.shape)")
            }
            for insight in scenario.newInsights {
                lines.append("  new insight \(insight.identity): \(insight.message)")
            }
            for slope in scenario.slopes where slope.verdict != .same {
                lines.append("  \(slopeSummary(slope))")
            }
        }
        lines.append("")
        lines.append(comparison.hasRegression ? "verdict: regression" : "verdict: no regression")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every string from the reports is escaped (``escapeMarkdown``),
    /// statement shapes are code spans (``markdownCode``).
    static func markdown(_ comparison: ReportComparison) -> String {
        var lines = ["## Faultline comparison: \(comparison.hasRegression ? "❌ regression" : "✅ no regression")", ""]
        if let reason = comparison.countersNotComparable { lines.append("Counters are not comparable: \(escapeMarkdown(reason)).") }
        if let reason = comparison.timingsNotComparable { lines.append("Timings are not comparable: \(escapeMarkdown(reason)).") }
        if let reason = comparison.scalingNotComparable { lines.append("Fits are not comparable: \(escapeMarkdown(reason)).") }
        lines += ["", "| scenario | counters | timing | new insights |", "| --- | --- | --- | --- |"]
        for scenario in comparison.scenarios {
            let name = scenario.status == .compared ? scenario.name : "\(scenario.name) (\(scenario.status))\(missingNote(scenario))"
            let timings = [timingSummary(scenario.timing)] + scenario.phases.map { "\($0.name): \(timingSummary($0.timing))" }
            let cells = [name, counterSummary(scenario), timings.joined(separator: "; "), scenario.newInsights.map(\.message).joined(separator: "; ")]
            lines.append("| " + cells.map(escapeMarkdown).joined(separator: " | ") + " |")
        }
        let statements = comparison.scenarios.flatMap { scenario in scenario.statements.map { (scenario.name, $0) } }
        if !statements.isEmpty {
            lines += ["", "Statement shapes:", ""]
            for (name, change) in statements {
                let site = change.callSite.flatMap { $0.isEmpty ? nil : " at \(escapeMarkdown($0))" } ?? ""
                lines.append("- \(escapeMarkdown(name)): \(change.change.rawValue) (\(change.baseCount) → \(change.headCount))\(site) "
                    + markdownCode(change.shape))
            }
        }
        let slopes = comparison.scenarios.flatMap { scenario in scenario.slopes.filter { $0.verdict != .same }.map { (scenario.name, $0) } }
        if !slopes.isEmpty {
            lines += ["", "How the work grows with the data (N = the data set's scale):", ""]
            for (name, slope) in slopes { lines.append("- \(escapeMarkdown(name)): \(escapeMarkdown(slopeSummary(slope)))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `slope grew: sqlStatements at App/List.swift:41: 2 → 2 + 50·N (a regression)`.
    static func slopeSummary(_ slope: ReportComparison.SlopeComparison) -> String {
        let lines = "\(slope.baseLine ?? "none") → \(slope.headLine ?? "none")"
        return "slope \(slope.verdict.rawValue): \(slope.subject): \(lines)\(slope.isRegression ? " (a regression)" : "")"
    }
}
