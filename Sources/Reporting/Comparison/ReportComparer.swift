import Foundation
import Probes

/// Compares two reports.
///
/// - Counters are exact: an increase is a regression unless the thresholds
///   allow it; with `exactCounters` any change is. Advisory counters (in
///   either report) are shown, never gating. Counters compare only between
///   reports of the same scale, seed and SQLite version (and the same data
///   set per scenario); otherwise they are "not comparable" with the reason.
/// - An insight in head that base did not have and that the accepted list
///   does not hold is a regression.
/// - Timings: the medians are compared with a Mann-Whitney U test (p-values
///   corrected for the number of scenarios with Holm's method) and a
///   bootstrap interval of the ratio; slower or faster only when both say so
///   and the change is above the noise floor. With fewer than
///   `minimumSamples` samples a side the verdict is "inconclusive". Reports
///   from another CPU, Swift version or build configuration still compare
///   counters; their timings are "not comparable".
public struct ReportComparer: Sendable {
    public var exactCounters = false
    public var thresholds = Thresholds()
    public var noiseFloor = NoiseFloor()
    public var accepted = AcceptedInsights(identities: [])
    public var minimumSamples = 9
    public var alpha = 0.05

    public init() {}

    public func compare(_ base: Report, _ head: Report, basePath: String = "base", headPath: String = "head") -> ReportComparison {
        let counterReason = Self.counterIncomparability(base, head)
        let timingReason = Self.timingIncomparability(base, head)
        var scenarios: [ReportComparison.ScenarioComparison] = []
        var pValues: [(Int, Double)] = []
        let baseByName = Dictionary(base.scenarios.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for headScenario in head.scenarios {
            guard let baseScenario = baseByName[headScenario.name] else {
                scenarios.append(.init(name: headScenario.name, status: "only in head", counters: [], statements: [], newInsights: [], timing: nil))
                continue
            }
            var comparison = ReportComparison.ScenarioComparison(
                name: headScenario.name,
                status: headScenario.status == .passed ? "compared" : "head \(headScenario.status.rawValue): \(headScenario.error ?? "")",
                counters: [], statements: [], newInsights: [], timing: nil)
            if counterReason == nil, baseScenario.dataSet == headScenario.dataSet {
                comparison.counters = counters(baseScenario, headScenario)
                comparison.statements = statementChanges(baseScenario, headScenario)
            }
            let known = Set(baseScenario.insights.map(\.identity))
            comparison.newInsights = headScenario.insights.filter { !known.contains($0.identity) && !accepted.identities.contains($0.identity) }
            let (timing, p) = self.timing(baseScenario, headScenario, reason: timingReason)
            comparison.timing = timing
            if let p { pValues.append((scenarios.count, p)) }
            scenarios.append(comparison)
        }
        for baseScenario in base.scenarios where !head.scenarios.contains(where: { $0.name == baseScenario.name }) {
            scenarios.append(.init(name: baseScenario.name, status: "only in base", counters: [], statements: [], newInsights: [], timing: nil))
        }
        // Holm's correction over every scenario whose timing was tested.
        let adjusted = HolmCorrection.adjust(pValues.map(\.1))
        for ((index, _), p) in zip(pValues, adjusted) {
            guard var timing = scenarios[index].timing else { continue }
            timing.adjustedPValue = p
            timing.verdict = verdict(timing, adjustedP: p, scenario: scenarios[index].name)
            scenarios[index].timing = timing
        }
        let regression = scenarios.contains { scenario in
            scenario.counters.contains { $0.verdict == "regression" } || !scenario.newInsights.isEmpty || scenario.timing?.verdict == "slower"
                || scenario.status.hasPrefix("head failed")
        }
        return ReportComparison(
            base: basePath, head: headPath, countersNotComparable: counterReason, timingsNotComparable: timingReason,
            scenarios: scenarios, hasRegression: regression)
    }

    static func counterIncomparability(_ base: Report, _ head: Report) -> String? {
        var reasons: [String] = []
        if base.configuration.scale != head.configuration.scale {
            reasons.append("scale \(base.configuration.scale) against \(head.configuration.scale)")
        }
        if base.configuration.seed != head.configuration.seed { reasons.append("seed \(base.configuration.seed) against \(head.configuration.seed)") }
        if base.configuration.store != head.configuration.store {
            reasons.append("store \(base.configuration.store) against \(head.configuration.store)")
        }
        if base.environment.sqliteVersion != head.environment.sqliteVersion {
            reasons.append("SQLite \(base.environment.sqliteVersion) against \(head.environment.sqliteVersion)")
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: ", ")
    }

    static func timingIncomparability(_ base: Report, _ head: Report) -> String? {
        var reasons: [String] = []
        if base.environment.cpuModel != head.environment.cpuModel { reasons.append("CPU \(base.environment.cpuModel) against \(head.environment.cpuModel)") }
        if base.environment.swiftVersion != head.environment.swiftVersion {
            reasons.append("Swift \(base.environment.swiftVersion) against \(head.environment.swiftVersion)")
        }
        if base.environment.buildConfiguration != head.environment.buildConfiguration {
            reasons.append("\(base.environment.buildConfiguration) build against \(head.environment.buildConfiguration)")
        }
        if base.configuration.scale != head.configuration.scale { reasons.append("another scale") }
        return reasons.isEmpty ? nil : reasons.joined(separator: ", ")
    }

    private func counters(_ base: ScenarioReport, _ head: ScenarioReport) -> [ReportComparison.CounterComparison] {
        let advisory = Set(base.advisoryCounters + head.advisoryCounters + Array(Counters.advisoryByNature))
        return Counters.names.compactMap { name in
            guard let b = base.counters[name], let h = head.counters[name] else { return nil }
            let verdict: String
            if b == h {
                verdict = "same"
            } else if advisory.contains(name) {
                verdict = "advisory"
            } else if h > b {
                verdict = !exactCounters && thresholds.allowance(name, in: head.name)?.allows(base: b, head: h) == true ? "allowed" : "regression"
            } else {
                verdict = exactCounters ? "regression" : "improvement"
            }
            return .init(name: name, base: b, head: h, verdict: verdict)
        }
    }

    private func statementChanges(_ base: ScenarioReport, _ head: ScenarioReport) -> [ReportComparison.StatementChange] {
        let before = Dictionary(base.statements.map { ($0.shape, $0.count) }, uniquingKeysWith: +)
        let after = Dictionary(head.statements.map { ($0.shape, $0.count) }, uniquingKeysWith: +)
        var changes: [ReportComparison.StatementChange] = []
        for (shape, count) in after.sorted(by: { $0.key < $1.key }) {
            if let old = before[shape] {
                if count > old { changes.append(.init(shape: shape, change: "grew", baseCount: old, headCount: count)) }
            } else {
                changes.append(.init(shape: shape, change: "added", baseCount: 0, headCount: count))
            }
        }
        for (shape, count) in before.sorted(by: { $0.key < $1.key }) where after[shape] == nil {
            changes.append(.init(shape: shape, change: "removed", baseCount: count, headCount: 0))
        }
        return changes
    }

    private func timing(_ base: ScenarioReport, _ head: ScenarioReport, reason: String?) -> (ReportComparison.TimingComparison?, Double?) {
        let b = base.samples.map(\.wallSeconds)
        let h = head.samples.map(\.wallSeconds)
        guard !b.isEmpty, !h.isEmpty else { return (nil, nil) }
        let baseMedian = Statistics(b).median
        let headMedian = Statistics(h).median
        var timing = ReportComparison.TimingComparison(
            baseMedian: baseMedian, headMedian: headMedian, ratio: baseMedian == 0 ? .infinity : headMedian / baseMedian,
            ratioLow: nil, ratioHigh: nil, pValue: nil, adjustedPValue: nil, verdict: "not comparable", reason: reason)
        if reason != nil { return (timing, nil) }
        guard b.count >= minimumSamples, h.count >= minimumSamples else {
            timing.verdict = "inconclusive"
            timing.reason = "fewer than \(minimumSamples) samples a side (\(b.count) and \(h.count))"
            return (timing, nil)
        }
        let interval = BootstrapRatio.medianRatio(base: b, head: h)
        timing.ratioLow = interval.low
        timing.ratioHigh = interval.high
        let p = MannWhitneyU.test(b, h).pValue
        timing.pValue = p
        timing.verdict = "unchanged"
        return (timing, p)
    }

    private func verdict(_ timing: ReportComparison.TimingComparison, adjustedP: Double, scenario: String) -> String {
        guard adjustedP < alpha, let low = timing.ratioLow, let high = timing.ratioHigh else { return "unchanged" }
        let change = abs(timing.headMedian - timing.baseMedian)
        let aboveFloor = change > noiseFloor.absolute && change > noiseFloor.relative(for: scenario) * timing.baseMedian
        guard aboveFloor else { return "unchanged" }
        if low > 1 { return "slower" }
        if high < 1 { return "faster" }
        return "unchanged"
    }
}
