import Probes

/// A fix measured (`perf-run run --what-if`): the scenario run again with
/// the fix applied (the key path prefetched at that fetch, the index
/// created on a copy of the data set), its figures beside the run's.
public struct WhatIfOutcome: Codable, Equatable, Sendable {
    /// What the measurement says of the fix.
    public enum Verdict: String, Codable, Sendable {
        /// Faster beyond the interval, with fewer statements or rows.
        case faster
        /// No change the measurement can tell from noise.
        case noGain = "no gain"
        /// Slower beyond the interval: the advice would hurt here.
        case slower
        /// The run with the fix failed (the reason says why).
        case failed
        /// Too few iterations on a side to tell (fewer than
        /// ``WhatIfOutcome/minimumSamples``): the counters are still shown.
        case inconclusive
    }

    /// The iterations a side needs for a verdict on time.
    public static let minimumSamples = 3
    /// The counters shown beside the time: what a fix is expected to change.
    public static let counters: [CounterName] = [.sqlStatements, .rowsRead, .faultsFired, .cacheMisses, .fullScanSteps]

    /// One side: the run as it was, or with the fix.
    public struct Side: Codable, Equatable, Sendable {
        /// The cost counters of one measured iteration (statements, rows
        /// read, faults, cache misses, full-scan steps).
        public var counters: [String: Int]
        /// The iterations' wall times.
        public var samples: [Double]
        public var medianSeconds: Double

        public init(counters: [String: Int], samples: [Double]) {
            self.counters = counters
            self.samples = samples
            self.medianSeconds = Statistics(samples).median
        }

        /// A scenario's side: its cost counters and wall times.
        public init(report: ScenarioReport) {
            var counters: [String: Int] = [:]
            for counter in WhatIfOutcome.counters { counters[counter] = report.counters[counter] }
            self.init(counters: counters, samples: report.samples.map(\.wallSeconds))
        }
    }

    public var fix: InsightFix
    public var before: Side
    /// Nil when the run with the fix failed.
    public var after: Side?
    /// After's median over before's, with its 95% bootstrap interval.
    public var ratio: Double?
    public var ratioLow: Double?
    public var ratioHigh: Double?
    public var verdict: Verdict
    /// The verdict in words, with the counters that changed.
    public var reason: String

    public init(
        fix: InsightFix, before: Side, after: Side?, ratio: Double?, ratioLow: Double?, ratioHigh: Double?, verdict: Verdict, reason: String
    ) {
        self.fix = fix
        self.before = before
        self.after = after
        self.ratio = ratio
        self.ratioLow = ratioLow
        self.ratioHigh = ratioHigh
        self.verdict = verdict
        self.reason = reason
    }

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

    /// Seconds saved per iteration (before's median minus after's); nil
    /// when the fix was not measured to help.
    public var gainSeconds: Double? {
        guard verdict == .faster, let after else { return nil }
        return before.medianSeconds - after.medianSeconds
    }
}
