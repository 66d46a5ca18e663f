import Foundation
import Probes

/// Judges published experiments against a run's scenario reports: the
/// measured ratio of medians with its bootstrap interval, a verdict, and a
/// reason built from the run's own counters and timings (statements, rows,
/// SQLite's share of the time, in-memory accesses and their cost).
public enum ExperimentAnalysis {
    /// The counters a side reports and its reason may quote.
    static let sideCounters: [CounterName] = [
        .fetches, .sqlStatements, .rowsRead, .rowsWritten, .faultsFired, .cacheHits, .cacheMisses, .relationshipFaultsFired,
    ]

    /// An experiment for each reference whose scenarios all passed in `scenarios`.
    public static func analyze(_ references: [ExperimentReference], scenarios: [ScenarioReport]) -> [ExperimentReport] {
        let byName = Dictionary(scenarios.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return references.compactMap { reference in
            let ran = reference.scenarios.compactMap { byName[$0] }
            guard ran.count == reference.scenarios.count, ran.allSatisfy({ $0.status == .passed }) else { return nil }
            switch reference.kind {
            case .timing(let baseline, let treatment):
                guard let b = measured(baseline, in: byName), let t = measured(treatment, in: byName) else { return nil }
                var experiment = timing(reference, b, t)
                if let bound = reference.bound, let values = byName[bound.scenario]?.values, let best = values[bound.figure] {
                    experiment.reason += " At most \(ExperimentReport.ratio(best)) is possible here: "
                        + fill(bound.explanation, values) + "."
                }
                return experiment
            case .behaviour(let scenario, let expectation, let figures):
                return behaviour(reference, byName[scenario]!, expectation: expectation, figures: figures)
            }
        }
    }

    /// One side's samples and what it did.
    struct Measured {
        var side: ExperimentReport.Side
        var samples: [Double]
    }

    static func measured(_ side: ExperimentReference.Side, in scenarios: [String: ScenarioReport]) -> Measured? {
        guard let scenario = scenarios[side.scenario] else { return nil }
        let samples: [Double]
        let sqlite: Double
        let counters: [String: Int]
        if let name = side.phase {
            guard let phase = scenario.phases?.first(where: { $0.name == name }) else { return nil }
            (samples, sqlite, counters) = (phase.samples, phase.sqliteSeconds.median, phase.counters)
        } else {
            (samples, sqlite, counters) = (scenario.samples.map(\.wallSeconds), scenario.timeBreakdown?.sqliteSeconds ?? 0, scenario.counters)
        }
        guard !samples.isEmpty else { return nil }
        return Measured(
            side: ExperimentReport.Side(
                label: side.label, sourceSeconds: side.sourceSeconds, medianSeconds: Statistics(samples).median, sqliteSeconds: sqlite,
                counters: counters.filter { CounterName(rawValue: $0.key).map(sideCounters.contains) == true }),
            samples: samples)
    }

    static func timing(_ reference: ExperimentReference, _ b: Measured, _ t: Measured) -> ExperimentReport {
        let sourceRatio = b.side.sourceSeconds / t.side.sourceSeconds
        let ratio = t.side.medianSeconds > 0 ? b.side.medianSeconds / t.side.medianSeconds : .infinity
        let interval = BootstrapRatio.medianRatio(base: t.samples, head: b.samples)
        let verdict = ExperimentVerdict.judge(sourceRatio: sourceRatio, measuredRatio: ratio, interval: interval)
        return ExperimentReport(
            name: reference.name, lesson: reference.lesson, source: reference.source, sourceSetting: reference.sourceSetting,
            baseline: b.side, treatment: t.side, sourceRatio: sourceRatio,
            // JSON has no infinity: a treatment measured at 0 s leaves the ratio out.
            measuredRatio: ratio.isFinite ? ratio : nil,
            ratioInterval: interval.low.isFinite && interval.high.isFinite ? [interval.low, interval.high] : nil, verdict: verdict,
            reason: timingReason(b.side, t.side, verdict: verdict, sourceRatio: sourceRatio))
    }

    /// What each side did, where the difference lies (SQLite or the rest),
    /// and, when the effect is weaker than the source's or missing, what
    /// the counters say instead.
    static func timingReason(_ b: ExperimentReport.Side, _ t: ExperimentReport.Side, verdict: ExperimentVerdict, sourceRatio: Double) -> String {
        func work(_ side: ExperimentReport.Side) -> String {
            let share = side.medianSeconds > 0 ? min(1, side.sqliteSeconds / side.medianSeconds) : 0
            return "\(side.label) ran \(plural(count(side, .sqlStatements), "statement")) reading \(plural(count(side, .rowsRead), "row")), "
                + "SQLite \(seconds(side.sqliteSeconds)) of \(seconds(side.medianSeconds)) (\(percent(share)))"
        }
        var text = work(b) + "; " + work(t) + "."
        let difference = b.medianSeconds - t.medianSeconds
        let sqlDifference = b.sqliteSeconds - t.sqliteSeconds
        let otherDifference = difference - sqlDifference
        text += " Of the \(signed(difference)) between them, SQLite accounts for \(signed(sqlDifference)) and work outside it for \(signed(otherDifference))."
        let saved = count(b, .sqlStatements) - count(t, .sqlStatements)
        switch verdict {
        case .reproduced:
            text += abs(sqlDifference) >= abs(otherDifference)
                ? " As in the source, the difference is SQL work" + (saved != 0 ? " (\(signedCount(saved)) statements)." : ".")
                : " The difference is mostly work outside SQLite."
        case .weaker, .absent:
            let share = b.medianSeconds > 0 ? b.sqliteSeconds / b.medianSeconds : 0
            if saved > 0, share < 0.5 {
                // What SQLite spent on the statements saved, per statement.
                let perStatement = max(0, sqlDifference) / Double(saved)
                text += " The source's effect comes from round trips to the store: \(saved) fewer here, at about "
                    + "\(seconds(perStatement)) of SQLite time each, while SQLite is only \(percent(share)) of \(b.label)'s time."
                if saved.multipliedSaturated(by: 2) < count(b, .sqlStatements) {
                    text += " \(t.label) still runs \(count(t, .sqlStatements)) statements, "
                        + "\(percent(Double(count(t, .sqlStatements)) / Double(max(1, count(b, .sqlStatements))))) of \(b.label)'s."
                }
                let faults = min(count(b, .faultsFired), count(t, .faultsFired))
                if faults > 0 {
                    let perAccess = (b.medianSeconds - b.sqliteSeconds) / Double(count(b, .faultsFired))
                    let hits = (count(b, .cacheHits), count(t, .cacheHits))
                    text += " Both sides fire at least \(faults) object faults (\(hits.0) and \(hits.1) from the row cache), "
                        + "about \(seconds(perAccess)) each outside SQLite in \(b.label): "
                        + (hits.0.multipliedSaturated(by: 2) >= count(b, .faultsFired)
                            ? "that in-memory work, the same on both sides, dominates."
                            : "the engine's side of each round trip (binding, reading the row, filling the object), the same on both sides.")
                }
            } else if abs(otherDifference) > abs(sqlDifference), otherDifference < 0 {
                text += " \(t.label)'s extra work outside SQLite cancels what it saves in SQL."
            } else if saved == 0, abs(sqlDifference) >= abs(otherDifference) {
                text += " Both run the same statements: the difference is work done inside them, per row."
            } else {
                text += " What \(t.label) saves is a smaller share of the time here than in the source's setting."
            }
        case .inverted:
            var parts: [String] = []
            if sqlDifference < 0 {
                parts.append("in SQLite (\(seconds(-sqlDifference)) more, for \(plural(count(t, .rowsRead), "row")) in "
                    + "\(plural(count(t, .sqlStatements), "statement")) against \(count(b, .rowsRead)) in \(count(b, .sqlStatements)))")
            }
            if otherDifference < 0 { parts.append("outside it, in the engine's own work (\(seconds(-otherDifference)) more)") }
            text += " \(t.label) is slower " + parts.joined(separator: " and ") + "."

        }
        return text
    }

    static func behaviour(_ reference: ExperimentReference, _ scenario: ScenarioReport, expectation: String, figures: [String: Double]) -> ExperimentReport {
        let mismatched = figures.sorted { $0.key < $1.key }.filter { scenario.values[$0.key] != $0.value }
        let recorded = scenario.values.sorted { $0.key < $1.key }.map { "\($0.key) = \(number($0.value))" }.joined(separator: ", ")
        var reason = "\(scenario.name) passed its checks"
        if !recorded.isEmpty { reason += "; it recorded \(recorded)" }
        reason += "; it ran \(plural(scenario.counters[.fetches] ?? 0, "fetch", "fetches")) and "
            + "\(plural(scenario.counters[.sqlStatements] ?? 0, "statement")), read \(plural(scenario.counters[.rowsRead] ?? 0, "row")) "
            + "and fired \(plural(scenario.counters[.faultsFired] ?? 0, "object fault"))."
        if !mismatched.isEmpty {
            reason += " Expected " + mismatched.map { "\($0.key) = \(number($0.value))" }.joined(separator: ", ") + "."
        }
        return ExperimentReport(
            name: reference.name, lesson: reference.lesson, source: reference.source, sourceSetting: reference.sourceSetting,
            expectation: expectation, verdict: mismatched.isEmpty ? .reproduced : .absent, reason: reason)
    }

    // MARK: Formatting

    /// `explanation` with each `%name%` replaced by the figure `name`
    /// (a share below 1 as a percentage).
    static func fill(_ explanation: String, _ values: [String: Double]) -> String {
        var text = explanation
        for (name, value) in values where text.contains("%\(name)%") {
            text = text.replacingOccurrences(of: "%\(name)%", with: value < 1 && value > 0 ? percent(value) : number(value))
        }
        return text
    }

    static func count(_ side: ExperimentReport.Side, _ name: CounterName) -> Int { side.counters[name] ?? 0 }

    /// `1.23 s`, `45.6 ms`, `7.8 µs`, `90 ns`.
    public static func seconds(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1 { return String(format: "%.2f s", value) }
        if magnitude >= 1e-3 { return String(format: "%.3g ms", value * 1e3) }
        if magnitude >= 1e-6 { return String(format: "%.3g µs", value * 1e6) }
        return String(format: "%.0f ns", value * 1e9)
    }

    static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "−") + seconds(abs(value)) }
    static func signedCount(_ value: Int) -> String { (value >= 0 ? "\(value) fewer" : "\(-value) more") }
    static func plural(_ count: Int, _ one: String, _ many: String? = nil) -> String {
        "\(count) " + (count == 1 ? one : many ?? one + "s")
    }
    static func percent(_ share: Double) -> String { String(format: "%.0f%%", share * 100) }
    /// A figure as the text reports print it: whole numbers without a
    /// fraction, others with four significant digits.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.4g", value)
    }
}
