import Insights
import Probes

/// The judging of a fix measured: from the scenario reports of the run as
/// it is and with the fix, with the statistics of their wall times.
extension WhatIfOutcome.Side {
    public init(counters: [String: Int], samples: [Double]) {
        self.init(counters: counters, samples: samples, medianSeconds: Statistics(samples).median)
    }

    /// A scenario's side: its cost counters and wall times.
    public init(report: ScenarioReport) {
        var counters: [String: Int] = [:]
        for counter in WhatIfOutcome.counters { counters[counter] = report.counters[counter] }
        self.init(counters: counters, samples: report.samples.map(\.wallSeconds))
    }
}

extension WhatIfOutcome {
    /// The fix measured: `after` is the scenario's report with the fix
    /// applied, nil when no report came; `before` the run's.
    public static func judge(_ fix: InsightFix, before: ScenarioReport, after: ScenarioReport) -> WhatIfOutcome {
        let beforeSide = Side(report: before)
        guard after.status == .passed else {
            return WhatIfOutcome(
                fix: fix, before: beforeSide, after: nil, ratio: nil, ratioLow: nil, ratioHigh: nil, verdict: .failed,
                reason: "the run with the fix \(after.status.rawValue): \(after.error ?? "no reason given")")
        }
        let afterSide = Side(report: after)
        let ratio = afterSide.medianSeconds / beforeSide.medianSeconds
        let changes = counters.compactMap { counter -> String? in
            let (b, a) = (beforeSide.counters[counter] ?? 0, afterSide.counters[counter] ?? 0)
            return b == a ? nil : "\(counter.rawValue) \(b) → \(a)"
        }
        let changed = changes.isEmpty ? "no counter changed" : changes.joined(separator: ", ")
        var outcome = WhatIfOutcome(
            fix: fix, before: beforeSide, after: afterSide, ratio: ratio.isFinite ? ratio : nil, ratioLow: nil, ratioHigh: nil,
            verdict: .inconclusive, reason: "")
        let times = "median \(TimeText.seconds(beforeSide.medianSeconds)) → \(TimeText.seconds(afterSide.medianSeconds))"
        guard beforeSide.samples.count >= minimumSamples, afterSide.samples.count >= minimumSamples else {
            outcome.reason = "\(fix.summary): \(changed); \(times), too few iterations to judge the time (at least \(minimumSamples) a side)"
            return outcome
        }
        let interval = BootstrapRatio.medianRatio(base: beforeSide.samples, head: afterSide.samples)
        if interval.low.isFinite, interval.high.isFinite {
            outcome.ratioLow = interval.low
            outcome.ratioHigh = interval.high
        }
        outcome.verdict = interval.high < 1 ? .faster : interval.low > 1 ? .slower : .noGain
        let range = outcome.ratioLow.map { low in " (\(Self.ratio(ratio))x, 95% interval \(Self.ratio(low))x–\(Self.ratio(outcome.ratioHigh!))x)" }
            ?? " (\(Self.ratio(ratio))x)"
        let judged = switch outcome.verdict {
        case .faster: "faster"
        case .slower: "slower: the advice would hurt here"
        default: "no gain the measurement can tell from noise"
        }
        outcome.reason = "\(fix.summary): \(changed); \(times)\(range): \(judged)"
        return outcome
    }

    private static func ratio(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return value >= 10 ? String(Int(value.rounded())) : "\((value * 100).rounded() / 100)"
    }

}
