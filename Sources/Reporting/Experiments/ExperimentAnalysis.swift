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
                label: side.label, sourceSeconds: side.sourceSeconds, sourceText: side.sourceWords, medianSeconds: Statistics(samples).median,
                sqliteSeconds: sqlite,
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
            reason: timingReason(b.side, t.side, verdict: verdict, sourceRatio: sourceRatio),
            breakEven: StatementBreakEven(baseline: b.side, treatment: t.side, sourceRatio: sourceRatio))
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
        text += " " + comparison(b, t)
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
                text += " The source's effect comes from round trips to the store: \(CountText.count(saved)) fewer here, at about "
                    + "\(seconds(perStatement)) of SQLite time each, while SQLite is only \(percent(share)) of \(b.label)'s time."
                if saved.multipliedSaturated(by: 2) < count(b, .sqlStatements) {
                    text += " \(t.label) still runs \(CountText.count(count(t, .sqlStatements))) statements, "
                        + "\(percent(Double(count(t, .sqlStatements)) / Double(max(1, count(b, .sqlStatements))))) of \(b.label)'s."
                }
                let faults = min(count(b, .faultsFired), count(t, .faultsFired))
                if faults > 0 {
                    let perAccess = (b.medianSeconds - b.sqliteSeconds) / Double(count(b, .faultsFired))
                    let hits = (count(b, .cacheHits), count(t, .cacheHits))
                    text += " Both sides fire at least \(CountText.count(faults)) object faults "
                        + "(\(CountText.count(hits.0)) and \(CountText.count(hits.1)) from the row cache), "
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
                    + "\(plural(count(t, .sqlStatements), "statement")) against \(CountText.count(count(b, .rowsRead))) in "
                    + "\(CountText.count(count(b, .sqlStatements))))")
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

    /// A time as every report prints it (``TimeText``): `1.23 s`,
    /// `45.6 ms`, `7.80 µs`, `90.0 ns`.
    public static func seconds(_ value: Double) -> String { TimeText.seconds(value) }

    /// Which side is faster, by how much, and where the difference lies,
    /// without signed figures: `Prefetch takes 10.1 ms longer than
    /// SingleFault (1.05x its time): 4.89 ms more in SQLite and 5.16 ms
    /// more outside it.`
    static func comparison(_ b: ExperimentReport.Side, _ t: ExperimentReport.Side) -> String {
        let (slow, fast) = b.medianSeconds >= t.medianSeconds ? (b, t) : (t, b)
        let longer = slow.medianSeconds - fast.medianSeconds
        guard longer > 0 else { return "\(b.label) and \(t.label) take the same time." }
        let inSQLite = slow.sqliteSeconds - fast.sqliteSeconds
        // Parts below a nanosecond are the arithmetic's, not the run's.
        let parts = [(inSQLite, "in SQLite"), (longer - inSQLite, "outside it")].filter { abs($0.0) >= 1e-9 }.map { seconds, place in
            seconds >= 0 ? "\(self.seconds(seconds)) more \(place)" : "\(self.seconds(-seconds)) less \(place)"
        }
        let times = fast.medianSeconds > 0 ? " (\(ExperimentReport.ratio(slow.medianSeconds / fast.medianSeconds)) its time)" : ""
        return "\(slow.label) takes \(seconds(longer)) longer than \(fast.label)\(times)"
            + (parts.isEmpty ? "." : ": " + parts.joined(separator: " and ") + ".")
    }

    static func signedCount(_ value: Int) -> String { (value >= 0 ? "\(CountText.count(value)) fewer" : "\(CountText.count(-value)) more") }
    static func plural(_ count: Int, _ one: String, _ many: String? = nil) -> String {
        "\(CountText.count(count)) " + (count == 1 ? one : many ?? one + "s")
    }
    static func percent(_ share: Double) -> String { String(format: "%.0f%%", share * 100) }
    /// A figure as the reports print it (``CountText/number(_:)``).
    static func number(_ value: Double) -> String { CountText.number(value) }
}
