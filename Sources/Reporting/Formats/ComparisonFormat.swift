import Foundation

/// A comparison as text for a terminal, Markdown for a CI job summary or a
/// pull request comment, or JSON for other tools.
///
/// Text and Markdown say the same, in the same order: the headline (how
/// many scenarios regressed, improved, stayed the same or could not be
/// compared), the two commits, then one line or row per scenario,
/// regressions first, each with what changed first; the details
/// (statements, statement p90s, insights, phases, fits) follow, folded in
/// Markdown.
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

    // MARK: Shared words

    /// "2 regressions · 1 improvement · 14 unchanged · 0 not comparable".
    static func headline(_ comparison: ReportComparison) -> String {
        let tally = comparison.tally
        func count(_ outcome: ScenarioOutcome, _ one: String, _ many: String) -> String {
            let n = tally[outcome] ?? 0
            return "\(n) \(n == 1 ? one : many)"
        }
        return [
            count(.regression, "regression", "regressions"), count(.improvement, "improvement", "improvements"),
            count(.unchanged, "unchanged", "unchanged"), count(.notComparable, "not comparable", "not comparable"),
        ].joined(separator: " · ")
    }

    /// "base.json (1a2b3c4) → head.json (5d6e7f8)".
    static func sides(_ comparison: ReportComparison) -> String {
        func side(_ path: String, _ commit: String?) -> String {
            commit.map { "\(path) (\($0.prefix(7)))" } ?? path
        }
        return "\(side(comparison.base, comparison.baseCommit)) → \(side(comparison.head, comparison.headCommit))"
    }

    /// What the timings were judged on, in a few words.
    static func timingBasis(_ comparison: ReportComparison) -> String {
        let measure = (comparison.measure ?? .wall) == .cpu ? "CPU time" : "wall time"
        let floor = comparison.noiseFloorGiven == true ? "the noise floor given" : "a 25% floor"
        return "timings: \(measure) on the machine's speed, beyond the samples' spread and \(floor)"
    }

    /// The scenarios, regressions first, then improvements, unchanged and
    /// not comparable, each group in the comparison's order.
    static func ordered(_ comparison: ReportComparison) -> [ReportComparison.ScenarioComparison] {
        comparison.scenarios.enumerated().sorted { ($0.element.outcome, $0.offset) < ($1.element.outcome, $1.offset) }.map(\.element)
    }

    /// The counters that changed, cost regressions first:
    /// "sqlStatements 3 → 503 (+500)"; "same" when none changed, "-" when
    /// none were compared.
    /// Advisory counters (timing-dependent, never gating) are left out.
    static func counterSummary(_ scenario: ReportComparison.ScenarioComparison) -> String {
        if scenario.counters.isEmpty { return "-" }
        let changed = scenario.counters.filter { $0.verdict != .same && $0.verdict != .advisory }
        if changed.isEmpty { return "same" }
        let rank: [CounterVerdict: Int] = [.regression: 0, .missing: 1, .improvement: 2, .changed: 3, .allowed: 4, .advisory: 5]
        return changed.enumerated().sorted { (rank[$0.element.verdict] ?? 9, $0.offset) < (rank[$1.element.verdict] ?? 9, $1.offset) }
            .map { counterChange($0.element) }.joined(separator: ", ")
    }

    /// "sqlStatements 3 → 503 (+500, regression)".
    static func counterChange(_ counter: ReportComparison.CounterComparison) -> String {
        guard let head = counter.head else { return "\(counter.name) \(CountText.count(counter.base)) → none (\(counter.verdict.rawValue))" }
        let (difference, overflow) = head.subtractingReportingOverflow(counter.base)
        let magnitude = difference.magnitude <= UInt(Int.max) ? CountText.count(Int(difference.magnitude)) : String(difference.magnitude)
        let delta = overflow ? "" : (difference >= 0 ? "+\(magnitude), " : "−\(magnitude), ")
        return "\(counter.name) \(CountText.count(counter.base)) → \(CountText.count(head)) (\(delta)\(counter.verdict.rawValue))"
    }

    /// Medians, their ratio and interval ("n/a" where not finite), the
    /// ratio on the machine's speed where the machine moved, p-value and
    /// verdict.
    static func timingSummary(_ timing: ReportComparison.TimingComparison?) -> String {
        guard let timing else { return "-" }
        let (base, head) = (timing.baseLowerQuartile ?? timing.baseMedian, timing.headLowerQuartile ?? timing.headMedian)
        var text = "\(TimeText.seconds(base)) → \(TimeText.seconds(head)) ×\(ratio(timing.ratio))"
        if timing.ratioLow != nil || timing.ratioHigh != nil { text += " [\(ratio(timing.ratioLow)), \(ratio(timing.ratioHigh))]" }
        if let adjusted = timing.machineAdjustedRatio, let raw = timing.ratio, abs(adjusted / raw - 1) >= 0.02 {
            text += " (×\(ratio(adjusted)) on the machine's speed)"
        }
        if let p = timing.adjustedPValue { text += String(format: " p=%.2g", p) }
        if let measure = timing.measure { text += " (\(measure.rawValue) time)" }
        text += " \(timing.verdict.rawValue)"
        if let reason = timing.reason { text += " (\(reason))" }
        return text
    }

    /// "p90 12.3 µs → 25.1 µs (iterations' p90s: …, slower; advisory)": a
    /// statement shape's p90 change (``ReportComparison/StatementTiming``).
    static func statementTimingSummary(_ statement: ReportComparison.StatementTiming) -> String {
        "p90 \(TimeText.seconds(statement.baseP90Seconds)) → \(TimeText.seconds(statement.headP90Seconds)) "
            + "(iterations' p90s: \(timingSummary(statement.timing)); advisory)"
    }

    /// "statement p90 12.3 µs → 25.1 µs (…; advisory) at App/List.swift:41:
    /// SELECT …": a shape's p90 change on one line, with where head runs
    /// it (the text's line and JUnit's).
    static func statementTimingLine(_ statement: ReportComparison.StatementTiming) -> String {
        let site = statement.callSite.isEmpty ? "" : " at \(statement.callSite)"
        return "statement \(statementTimingSummary(statement))\(site): \(statement.shape)"
    }

    /// The heading of the statement shapes whose p90 changed, with their
    /// count when given.
    static func statementTimingsTitle(count: Int? = nil) -> String {
        "Statement shapes whose p90 changed beyond the noise (advisory\(count.map { ", \($0)" } ?? ""))"
    }

    /// A ratio with 2 decimals, "n/a" for none.
    static func ratio(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "n/a" }

    /// What a scenario's line adds when head lacks the scenario and that
    /// is a regression.
    static func missingNote(_ scenario: ReportComparison.ScenarioComparison) -> String {
        return scenario.status.isMissingInHead && scenario.regression ? " (missing in head: a regression; --allow-missing if intended)" : ""
    }

    /// The scenario's status, when it is not simply "compared".
    static func statusNote(_ scenario: ReportComparison.ScenarioComparison) -> String? {
        scenario.status == .compared ? nil : scenario.status.description + missingNote(scenario)
    }

    /// Why the reports (or parts of them) could not be compared, one line each.
    static func incomparability(_ comparison: ReportComparison) -> [String] {
        var lines: [String] = []
        if let reason = comparison.nothingComparable { lines.append("nothing comparable: \(reason)") }
        if let reason = comparison.countersNotComparable { lines.append("counters: not comparable (\(reason))") }
        if let reason = comparison.timingsNotComparable { lines.append("timings: not comparable (\(reason))") }
        if let reason = comparison.scalingNotComparable { lines.append("fits: not comparable (\(reason))") }
        return lines
    }

    // MARK: Text

    static func text(_ comparison: ReportComparison) -> String {
        var lines = [headline(comparison), sides(comparison)]
        lines += incomparability(comparison)
        if comparison.timingsNotComparable == nil { lines.append(timingBasis(comparison)) }
        lines.append("")
        for scenario in ordered(comparison) {
            var parts: [String] = []
            if let note = statusNote(scenario) { parts.append(note) }
            let counters = counterSummary(scenario)
            if counters != "same", counters != "-" { parts.append(counters) }
            if let timing = scenario.timing { parts.append("time \(timingSummary(timing))") }
            lines.append("\(scenario.outcome.rawValue)  \(scenario.name): \(parts.joined(separator: "; "))")
            for phase in scenario.phases where phase.timing.verdict != .unchanged || scenario.outcome != .unchanged {
                lines.append("  phase \(phase.name): \(timingSummary(phase.timing))")
            }
            for change in scenario.statements {
                let site = change.callSite.flatMap { $0.isEmpty ? nil : " at \($0)" } ?? ""
                lines.append("  statement \(change.change.rawValue) (\(CountText.count(change.baseCount)) → \(CountText.count(change.headCount)))\(site): \(change.shape)")
            }
            for statement in scenario.statementTimings { lines.append("  " + statementTimingLine(statement)) }
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

    // MARK: Markdown

    /// Every string from the reports is escaped (``escapeMarkdown``),
    /// statement shapes are code spans (``markdownCode``).
    static func markdown(_ comparison: ReportComparison) -> String {
        let mark = comparison.hasRegression ? "❌" : comparison.nothingComparable != nil ? "⚪" : "✅"
        var lines = ["## Faultline: \(mark) \(headline(comparison))", ""]
        lines.append(escapeMarkdown(sides(comparison)) + (comparison.timingsNotComparable == nil ? " · " + escapeMarkdown(timingBasis(comparison)) : ""))
        for line in incomparability(comparison) { lines += ["", "**" + escapeMarkdown(line) + "**"] }
        let symbols: [ScenarioOutcome: String] = [.regression: "❌", .improvement: "✅", .unchanged: "➖", .notComparable: "⚪"]
        lines += ["", "| | scenario | what changed | time (head / base) |", "| --- | --- | --- | --- |"]
        for scenario in ordered(comparison) {
            var changes: [String] = []
            if let note = statusNote(scenario) { changes.append(note) }
            let counters = counterSummary(scenario)
            if counters != "same", counters != "-" { changes.append(counters) }
            if !scenario.newInsights.isEmpty { changes.append("\(scenario.newInsights.count) new insight\(scenario.newInsights.count == 1 ? "" : "s")") }
            if !scenario.statements.isEmpty { changes.append("\(scenario.statements.count) statement shape\(scenario.statements.count == 1 ? "" : "s") changed") }
            let grew = scenario.slopes.filter { $0.verdict != .same }
            if !grew.isEmpty { changes.append("\(grew.count) fit\(grew.count == 1 ? "" : "s") changed") }
            let cells = [
                symbols[scenario.outcome] ?? "", escapeMarkdown(scenario.name), changes.isEmpty ? "—" : escapeMarkdown(changes.joined(separator: "; ")),
                escapeMarkdown(shortTiming(scenario.timing)),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        let improved = ordered(comparison).filter { $0.outcome == .improvement }
        if !improved.isEmpty {
            lines += ["", "**Improvements:** " + improved.map { scenario in
                let what = scenario.counters.filter { $0.verdict == .improvement }.map(counterChange)
                    + [scenario.timing].compactMap { $0 }.filter { $0.verdict == .faster }.map { "time ×\(ratio($0.machineAdjustedRatio ?? $0.ratio))" }
                return escapeMarkdown("\(scenario.name) (\(what.joined(separator: ", ")))")
            }.joined(separator: "; ")]
        }
        let statements = comparison.scenarios.flatMap { scenario in scenario.statements.map { (scenario.name, $0) } }
        if !statements.isEmpty {
            lines += details("Statement shapes added, grown or removed (\(statements.count))", statements.map { name, change in
                let site = change.callSite.flatMap { $0.isEmpty ? nil : " at \(escapeMarkdown($0))" } ?? ""
                return "- \(escapeMarkdown(name)): \(change.change.rawValue) (\(CountText.count(change.baseCount)) → \(CountText.count(change.headCount)))\(site) "
                    + markdownCode(change.shape)
            })
        }
        let insights = comparison.scenarios.flatMap { scenario in scenario.newInsights.map { (scenario.name, $0) } }
        if !insights.isEmpty {
            lines += details("New insights (\(insights.count))", insights.map { name, insight in
                "- \(escapeMarkdown(name)): \(escapeMarkdown(insight.message)) " + markdownCode(insight.identity)
            })
        }
        let timings = comparison.scenarios.filter { $0.timing != nil || !$0.phases.isEmpty }
        if !timings.isEmpty {
            var rows = ["| scenario (· phase) | medians, ×ratio [interval], p, verdict |", "| --- | --- |"]
            for scenario in timings {
                for (label, timing) in [(scenario.name, scenario.timing)] + scenario.phases.map({ ("\(scenario.name) · \($0.name)", $0.timing) }) {
                    guard let timing else { continue }
                    rows.append("| \(escapeMarkdown(label)) | \(escapeMarkdown(timingSummary(timing))) |")
                }
            }
            lines += details("Timings in full (\(timings.count) scenarios)", rows)
        }
        let statementTimings = comparison.scenarios.flatMap { scenario in scenario.statementTimings.map { (scenario.name, $0) } }
        if !statementTimings.isEmpty {
            lines += details(statementTimingsTitle(count: statementTimings.count), statementTimings.map { name, statement in
                let site = statement.callSite.isEmpty ? "" : " at \(escapeMarkdown(statement.callSite))"
                return "- \(escapeMarkdown(name)): \(escapeMarkdown(statementTimingSummary(statement)))\(site) " + markdownCode(statement.shape)
            })
        }
        let slopes = comparison.scenarios.flatMap { scenario in scenario.slopes.filter { $0.verdict != .same }.map { (scenario.name, $0) } }
        if !slopes.isEmpty {
            lines += details("How the work grows with the data (N = the data set's scale)", slopes.map { name, slope in
                "- \(escapeMarkdown(name)): \(escapeMarkdown(slopeSummary(slope)))"
            })
        }
        lines += details("How to read this", [
            "- **Counters** are exact: the same code on the same data gives the same numbers on any machine. "
                + "More statements, rows, faults, misses, scan steps or VM steps is a regression; fewer, an improvement.",
            "- **Times** are each side's lower quartile of its iterations: noise on a shared machine only adds time. "
                + "**×ratio** is head's over base's; **[low, high]** its 95% bootstrap interval. "
                + "Timings are judged on the machine's speed: each report times a fixed workload before every iteration, "
                + "and the ratio is divided by those probes' ratio.",
            "- **p** is the bootstrap's (could the ratio be 1?), adjusted with Holm's method over every scenario's timing. "
                + "Slower or faster needs p < 0.05, an interval beyond 1, and a change beyond the minimum detectable effect "
                + "(twice the noisier side's spread, at least the floor).",
            "- **withheld**: the two machines (or disks) differed by as much as the time did; **inconclusive**: fewer than 9 samples a side.",
            "- **Statement p90s** are judged the same way, each iteration's p90 of a shape a sample (Holm over every shape), "
                + "and a change must exceed 1 µs; they are advice, never a regression.",
        ])
        return lines.joined(separator: "\n") + "\n"
    }

    /// "×1.02" with the verdict when it is not unchanged: the table's cell.
    static func shortTiming(_ timing: ReportComparison.TimingComparison?) -> String {
        guard let timing else { return "—" }
        let shown = timing.machineAdjustedRatio ?? timing.ratio
        let verdict = timing.verdict == .unchanged ? "" : " \(timing.verdict.rawValue)"
        return "×\(ratio(shown))\(verdict)"
    }

    /// A folded section: `<details>` with a summary line, then the lines.
    static func details(_ summary: String, _ body: [String]) -> [String] {
        ["", "<details><summary>\(escapeMarkdown(summary))</summary>", ""] + body + ["", "</details>"]
    }

    /// `slope grew: sqlStatements at App/List.swift:41: 2 → 2 + 50·N (a regression)`.
    static func slopeSummary(_ slope: ReportComparison.SlopeComparison) -> String {
        let lines = "\(slope.baseLine ?? "none") → \(slope.headLine ?? "none")"
        return "slope \(slope.verdict.rawValue): \(slope.subject): \(lines)\(slope.isRegression ? " (a regression)" : "")"
    }
}
