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
            return b == a ? nil : "\(counter.rawValue) \(CountText.count(b)) → \(CountText.count(a))"
        }
        let changed = changes.isEmpty ? "no counter changed" : changes.joined(separator: ", ")
        var outcome = WhatIfOutcome(
            fix: fix, before: beforeSide, after: afterSide, ratio: ratio.isFinite ? ratio : nil, ratioLow: nil, ratioHigh: nil,
            verdict: .inconclusive, reason: "")
        // The run as it is is shown once, beside the fixes: a reason gives
        // the fix's side and the ratio to it.
        let times = "median with the fix \(TimeText.seconds(afterSide.medianSeconds))"
        guard beforeSide.samples.count >= minimumSamples, afterSide.samples.count >= minimumSamples else {
            outcome.reason = "\(fix.summary): \(changed); \(times), too few iterations to judge the time (at least \(minimumSamples) a side)"
            return outcome
        }
        let interval = BootstrapRatio.medianRatio(base: beforeSide.samples, head: afterSide.samples)
        if interval.low.isFinite, interval.high.isFinite {
            outcome.ratioLow = interval.low
            outcome.ratioHigh = interval.high
        }
        let work = Work(before: beforeSide.counters, after: afterSide.counters)
        outcome.verdict = interval.low > 1 ? .slower : interval.high < 1 ? .faster : work.drops ? .lessWork : .noGain
        let range = outcome.ratioLow.map { low in
            " (\(Self.ratio(ratio))x the time as it is, 95% interval \(Self.ratio(low))x–\(Self.ratio(outcome.ratioHigh!))x)"
        } ?? " (\(Self.ratio(ratio))x the time as it is)"
        let judged = switch outcome.verdict {
        case .faster: "faster"
        case .slower: "slower: the advice would hurt here"
        case .lessWork: "\(work.saved); no time gain measurable here\(Self.perStatement(before))"
        default: "no less work, and no gain the measurement can tell from noise"
        }
        outcome.reason = "\(fix.summary): \(changed); \(times)\(range): \(judged)"
        return outcome
    }

    /// What a statement costs here, for a fix that saves statements but no
    /// measurable time: ` (a statement costs about 2.10 µs on this
    /// machine)`, the run's time in SQLite (the median over its
    /// iterations) over its statements; nothing when the run did not
    /// measure it.
    private static func perStatement(_ run: ScenarioReport) -> String {
        guard let statements = run.counters[.sqlStatements], statements > 0, let sqlite = run.timeBreakdown?.sqliteSeconds, sqlite > 0
        else { return "" }
        return " (a statement costs about \(TimeText.seconds(sqlite / Double(statements))) on this machine)"
    }

    /// A ratio as the experiments write one, without its `x`: `0.35`, `1.00`, `12`.
    private static func ratio(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return String(ExperimentReport.ratio(value).dropLast())
    }

}

/// The work a fix changes, from the cost counters of the two sides: it
/// drops when some counter falls and none rises by more than a tenth (a
/// prefetch's one query steps a little more than the lazy loads' each did:
/// 5,336 VM steps against 5,354 where 51 statements became 2; a prefetch
/// that reads 250,000 join rows where the faults read 1,000 is more work).
/// A counter a side lacks, as in a report from before it was counted, is
/// left out.
struct Work {
    let drops: Bool
    /// What fell, in words: `99 fewer statements, 52 fewer faults`.
    let saved: String

    init(before: [String: Int], after: [String: Int]) {
        var fell: [String] = []
        var rose = false
        for counter in WhatIfOutcome.counters {
            guard let b = before[counter], let a = after[counter] else { continue }
            if a < b { fell.append("\(CountText.count(b - a)) fewer \(Self.noun(counter, b - a))") }
            if Double(a) > Double(b) * 1.1 { rose = true }
        }
        drops = !fell.isEmpty && !rose
        saved = fell.isEmpty ? "no less work" : fell.joined(separator: ", ")
    }

    /// A cost counter as a noun, plural unless `count` is 1.
    private static func noun(_ counter: CounterName, _ count: Int) -> String {
        let (one, many) = switch counter {
        case .sqlStatements: ("statement", "statements")
        case .rowsRead: ("row read", "rows read")
        case .faultsFired: ("fault", "faults")
        case .cacheMisses: ("cache miss", "cache misses")
        case .fullScanSteps: ("full-scan step", "full-scan steps")
        case .vmSteps: ("VM step", "VM steps")
        default: (counter.rawValue, counter.rawValue)
        }
        return count == 1 ? one : many
    }
}
