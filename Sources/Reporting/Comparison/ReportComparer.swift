import Foundation
import Insights
import Probes

/// Compares two reports.
///
/// - Counters are exact. An increase of a counter where more means slower
///   (statements, rows, faults, misses, full-scan steps, writes:
///   ``CounterName/Direction/cost``) is a regression unless the thresholds
///   allow it, a decrease an improvement; a change of any other counter
///   (fetches, cache hits, saves, batch requests) is reported as a change.
///   With `exactCounters` any change is a regression. Advisory counters (in
///   either report) are shown, never gating. Counters compare only between
///   reports of the same scale, seed and SQLite version (and the same data
///   set per scenario); otherwise they are "not comparable" with the reason.
/// - An insight in head that base did not have, that the accepted list
///   does not hold, that the run did not mark accepted and that is not done
///   on purpose (``Insight/intended``) is a regression.
/// - What head lacks is a regression: a scenario that passed in base and is
///   missing or skipped in head, a counter of base that head does not have
///   (when counters compare). With `allowMissing` (a subset run on
///   purpose) they are shown, not gating. A scenario that failed in head is
///   a regression either way.
/// - Timings: each scenario's time (and each of its phases'), by default
///   the CPU time (``TimingMeasure``), is judged by ``NoiseModel``: a
///   Mann-Whitney U test (p-values corrected with Holm's method over every
///   timing compared), a bootstrap interval of the median ratio that
///   excludes 1, and a change beyond the minimum detectable effect the two
///   sides' spreads and the noise floor give. When the machine probes of
///   the two reports differ, a change the machine explains is
///   ``TimingVerdict/withheld``. A phase's verdict is shown, never gating:
///   phases are parts of the scenario's time, often a few hundred
///   microseconds, where a run-to-run shift (a write's phase moved by 40%
///   between two runs of one binary) passes every test; the scenario's
///   own time gates. With fewer than `minimumSamples` samples
///   a side the verdict is "inconclusive". Each statement shape's p90 is
///   judged the same way from the p90 of each iteration
///   (``judgeStatementTimings(_:_:in:reason:)``): a change beyond the noise
///   is shown, never gating. Reports from another CPU, Swift
///   version or build configuration still compare counters; their timings
///   are "not comparable".
/// - Nothing comparable (no scenario whose counters, timing or fits were
///   judged) is said (``ReportComparison/nothingComparable``), with why.
/// - Fits (`--scales`): each fit of head as it is against base's of the
///   same counter and shape, whatever the scales each ran at: a slope
///   steeper beyond the allowance (``Thresholds/slopes``, by default a
///   tenth or 1 per unit of scale) is a regression, and so is a new
///   statement shape whose slope is beyond it from 0. A report with fits
///   against one without says so (``ReportComparison/scalingNotComparable``).
public struct ReportComparer: Sendable {
    public var exactCounters = false
    public var thresholds = Thresholds()
    /// The floor under which a timing change is not reported: measured
    /// (an A/A comparison) or given; nil uses ``NoiseFloor/init()``'s
    /// defaults, and the comparison says that no floor was given.
    public var noiseFloor: NoiseFloor?
    /// The time judged: CPU time by default.
    public var measure = TimingMeasure.cpu
    public var accepted = AcceptedInsights(identities: [])
    public var minimumSamples = 9
    public var alpha = 0.05
    /// Scenarios and counters missing from head are intended (a subset run).
    public var allowMissing = false
    /// The smallest change of a statement shape's p90 that is reported, in
    /// seconds: 1 µs by default. The scenarios' absolute floor (100 µs) is
    /// longer than most statements take; under a microsecond, a cache
    /// miss or a clock reading moves a statement's time as much.
    public var statementFloor = 0.000_001

    public init() {}

    public func compare(_ base: Report, _ head: Report, basePath: String = "base", headPath: String = "head") -> ReportComparison {
        let counterReason = Self.counterIncomparability(base, head)
        // Enough resamples that the smallest p-value a bootstrap gives
        // survives Holm's correction over every scenario.
        let resamples = max(2_000, 50 * head.scenarios.count)
        let timingReason = Self.timingIncomparability(base, head)
        var scenarios: [ReportComparison.ScenarioComparison] = []
        // Every tested timing: a scenario's (phase nil) or one of its phases'.
        var tested: [(index: Int, phase: Int?, p: Double, interval: BootstrapRatio.Interval)] = []
        let baseByName = Dictionary(base.scenarios.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for headScenario in head.scenarios {
            guard let baseScenario = baseByName[headScenario.name] else {
                scenarios.append(.init(name: headScenario.name, status: .onlyInHead))
                continue
            }
            let status: ComparisonStatus = switch headScenario.status {
            case .passed: .compared
            case .failed: .headFailed(headScenario.error ?? "")
            case .skipped: .headSkipped(headScenario.error ?? "")
            }
            var comparison = ReportComparison.ScenarioComparison(name: headScenario.name, status: status)
            if counterReason == nil, baseScenario.dataSet == headScenario.dataSet {
                comparison.counters = counters(baseScenario, headScenario)
                comparison.statements = statementChanges(baseScenario, headScenario)
            }
            if baseScenario.dataSet == headScenario.dataSet, let before = baseScenario.scaling, let after = headScenario.scaling {
                comparison.slopes = ReportComparison.slopes(before, after, allowance: thresholds.slopes ?? SlopeAllowance())
            }
            let known = Set(baseScenario.insights.map(\.identity))
            // Done on purpose, or accepted when the run was made: no regression.
            comparison.newInsights = headScenario.insights.filter {
                !known.contains($0.identity) && !accepted.accepts($0) && $0.intended == nil && $0.accepted != true
            }
            if timingReason == nil {
                comparison.machine = MachineComparison.compare(
                    baseScenario.machineProbe?.samples(measure), headScenario.machineProbe?.samples(measure),
                    syncs: (baseScenario.machineProbe?.syncSeconds, headScenario.machineProbe?.syncSeconds), alpha: alpha)
            }
            let (timing, test) = self.timing(
                baseScenario.samples.map(measure == .cpu ? \.cpuSeconds : \.wallSeconds),
                headScenario.samples.map(measure == .cpu ? \.cpuSeconds : \.wallSeconds), reason: timingReason,
                floor: floor.relative(for: headScenario.name), resamples: resamples)
            comparison.timing = timing
            if let test { tested.append((scenarios.count, nil, test.p, test.interval)) }
            let basePhases = Dictionary((baseScenario.phases ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            for phase in headScenario.phases ?? [] {
                guard let before = basePhases[phase.name] else { continue }
                // A report without the phases' CPU times compares their wall times.
                let (b, h) = (before.samples(measure), phase.samples(measure))
                let fallback = b == nil || h == nil
                let (timing, test) = self.timing(
                    b ?? before.samples, fallback ? phase.samples : h!, reason: timingReason, floor: floor.relative(for: headScenario.name),
                    resamples: resamples)
                guard var timing else { continue }
                if fallback, measure != .wall { timing.measure = .wall }
                if let test { tested.append((scenarios.count, comparison.phases.count, test.p, test.interval)) }
                comparison.phases.append(.init(name: phase.name, timing: timing))
            }
            let missing = headScenario.status == .skipped && baseScenario.status == .passed
            comparison.regression = headScenario.status == .failed || (missing && !allowMissing)
            scenarios.append(comparison)
        }
        let headNames = Set(head.scenarios.map(\.name))
        for baseScenario in base.scenarios where !headNames.contains(baseScenario.name) {
            scenarios.append(.init(name: baseScenario.name, status: .onlyInBase, regression: baseScenario.status == .passed && !allowMissing))
        }
        // Holm's correction over the scenarios' timings, which gate; the
        // phases' (shown, never gating) are a family of their own.
        let scenarioTests = tested.filter { $0.phase == nil }, phaseTests = tested.filter { $0.phase != nil }
        let adjusted = HolmCorrection.adjust(scenarioTests.map(\.p)) + HolmCorrection.adjust(phaseTests.map(\.p))
        for (test, p) in zip(scenarioTests + phaseTests, adjusted) {
            let machine = scenarios[test.index].machine
            if let phase = test.phase {
                var timing = scenarios[test.index].phases[phase].timing
                timing.adjustedPValue = p
                judge(&timing, interval: test.interval, machine: machine)
                scenarios[test.index].phases[phase].timing = timing
            } else if var timing = scenarios[test.index].timing {
                timing.adjustedPValue = p
                judge(&timing, interval: test.interval, machine: machine)
                scenarios[test.index].timing = timing
            }
        }
        judgeStatementTimings(base, head, in: &scenarios, reason: timingReason)
        for index in scenarios.indices {
            let scenario = scenarios[index]
            scenarios[index].regression = scenario.regression
                || scenario.counters.contains { $0.verdict.isRegression }
                || scenario.slopes.contains { $0.isRegression }
                || !scenario.newInsights.isEmpty || scenario.timing?.verdict == .slower
        }
        var comparison = ReportComparison(
            base: basePath, head: headPath, baseCommit: base.environment.gitCommit, headCommit: head.environment.gitCommit,
            measure: measure, countersNotComparable: counterReason, timingsNotComparable: timingReason,
            scenarios: scenarios, hasRegression: scenarios.contains { $0.regression }, noiseFloorGiven: noiseFloor != nil,
            scalingNotComparable: Self.scalingIncomparability(base, head, basePath: basePath, headPath: headPath))
        comparison.nothingComparable = Self.nothingComparable(comparison)
        return comparison
    }

    /// The floor in force: the one given, or the documented default.
    var floor: NoiseFloor { noiseFloor ?? NoiseFloor() }

    /// Why nothing was judged, or nil when a scenario's counters, timing
    /// or fits were.
    static func nothingComparable(_ comparison: ReportComparison) -> String? {
        guard !comparison.scenarios.contains(where: \.isJudged) else { return nil }
        let shared = comparison.scenarios.filter { $0.status != .onlyInBase && $0.status != .onlyInHead }
        var reasons: [String] = []
        if shared.isEmpty { reasons.append("no scenario is in both reports") }
        if let reason = comparison.countersNotComparable { reasons.append("counters: \(reason)") }
        if let reason = comparison.timingsNotComparable {
            reasons.append("timings: \(reason)")
        } else if !shared.isEmpty {
            reasons.append("timings: too few samples to judge")
        }
        return reasons.joined(separator: "; ")
    }

    /// Why fits cannot be compared: one report has fits (`--scales`) and
    /// the other has none.
    static func scalingIncomparability(_ base: Report, _ head: Report, basePath: String, headPath: String) -> String? {
        let (inBase, inHead) = (base.scenarios.contains { $0.scaling != nil }, head.scenarios.contains { $0.scaling != nil })
        guard inBase != inHead else { return nil }
        let (with, without) = inBase ? (basePath, headPath) : (headPath, basePath)
        return "\(with) has fits of how the work grows with the data and \(without) has none (run both with --scales): slopes not compared"
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
        if let baseClock = base.environment.clock, let headClock = head.environment.clock, baseClock != headClock {
            reasons.append("timed by \(baseClock) against \(headClock)")
        }
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
            guard let b = base.counters[name] else { return nil }
            guard let h = head.counters[name] else {
                let verdict: CounterVerdict = advisory.contains(name) ? .advisory : allowMissing ? .allowed : .missing
                return .init(name: name, base: b, head: nil, verdict: verdict)
            }
            let isCost = CounterName(rawValue: name)?.direction == .cost
            let verdict: CounterVerdict
            if b == h {
                verdict = .same
            } else if advisory.contains(name) {
                verdict = .advisory
            } else if exactCounters {
                verdict = .regression
            } else if !isCost {
                verdict = .changed
            } else if h > b {
                verdict = thresholds.allowance(name, in: head.name)?.allows(base: b, head: h) == true ? .allowed : .regression
            } else {
                verdict = .improvement
            }
            return .init(name: name, base: b, head: h, verdict: verdict)
        }
    }

    private func statementChanges(_ base: ScenarioReport, _ head: ScenarioReport) -> [ReportComparison.StatementChange] {
        // A shape listed twice adds up, saturating: a report's counts may be anything up to Int.max.
        let before = Dictionary(base.statements.map { ($0.shape, $0.count) }, uniquingKeysWith: { $0.addingSaturated($1) })
        let after = Dictionary(head.statements.map { ($0.shape, $0.count) }, uniquingKeysWith: { $0.addingSaturated($1) })
        let sites = Dictionary(head.statements.map { ($0.shape, $0.firstCallSite) }, uniquingKeysWith: { a, _ in a })
        var changes: [ReportComparison.StatementChange] = []
        for (shape, count) in after.sorted(by: { $0.key < $1.key }) {
            if let old = before[shape] {
                if count > old { changes.append(.init(shape: shape, change: .grew, baseCount: old, headCount: count, callSite: sites[shape])) }
            } else {
                changes.append(.init(shape: shape, change: .added, baseCount: 0, headCount: count, callSite: sites[shape]))
            }
        }
        for (shape, count) in before.sorted(by: { $0.key < $1.key }) where after[shape] == nil {
            changes.append(.init(shape: shape, change: .removed, baseCount: count, headCount: 0, callSite: nil))
        }
        return changes
    }

    /// The timing comparison, and for a tested one its p-value and the
    /// bootstrap interval (whose bounds may be infinite: a base of 0), both
    /// of the lower quartiles' ratio (``NoiseModel``).
    func timing(
        _ b: [Double], _ h: [Double], reason: String?, floor relativeFloor: Double, resamples: Int
    ) -> (ReportComparison.TimingComparison?, (p: Double, interval: BootstrapRatio.Interval)?) {
        // A time that is negative or not finite is not a time (ReportFile
        // refuses such reports; a report built in code may hold one).
        guard !b.isEmpty, !h.isEmpty, (b + h).allSatisfy({ $0.isFinite && $0 >= 0 }) else { return (nil, nil) }
        let baseMedian = Statistics(b).median
        let headMedian = Statistics(h).median
        let (baseQuartile, headQuartile) = (NoiseModel.lowerQuartile(b), NoiseModel.lowerQuartile(h))
        let ratio = headQuartile / baseQuartile
        var timing = ReportComparison.TimingComparison(
            baseMedian: baseMedian, headMedian: headMedian, baseLowerQuartile: baseQuartile, headLowerQuartile: headQuartile,
            ratio: ratio.isFinite ? ratio : nil,
            ratioLow: nil, ratioHigh: nil, pValue: nil, adjustedPValue: nil, minimumDetectableEffect: nil, machineAdjustedRatio: nil, measure: nil,
            verdict: .notComparable, reason: reason)
        if reason != nil { return (timing, nil) }
        guard b.count >= minimumSamples, h.count >= minimumSamples else {
            timing.verdict = .inconclusive
            timing.reason = "fewer than \(minimumSamples) samples a side (\(b.count) and \(h.count))"
            return (timing, nil)
        }
        let (interval, p) = BootstrapRatio.quantileRatio(base: b, head: h, quantile: 0.25, resamples: resamples)
        timing.ratioLow = interval.low.isFinite ? interval.low : nil
        timing.ratioHigh = interval.high.isFinite ? interval.high : nil
        timing.pValue = p
        timing.minimumDetectableEffect = NoiseModel.minimumDetectableEffect(base: b, head: h, floor: relativeFloor)
        timing.verdict = .unchanged
        return (timing, (p, interval))
    }

    /// The verdict of a tested timing (``NoiseModel``), on the machine's
    /// speed: the ratio and its interval divided by the machine probes'
    /// ratio. Slower or faster when significant after Holm, with an
    /// interval beyond 1 and a change beyond the minimum detectable effect
    /// and the absolute floor. When the machines differ beyond the floor,
    /// a change within it is withheld, not called unchanged; when the disks
    /// differ (a scenario that writes), every change is withheld. A change
    /// of `absolute` seconds or less (the floor's by default) is none.
    func judge(
        _ timing: inout ReportComparison.TimingComparison, interval: BootstrapRatio.Interval, machine: MachineComparison?,
        absolute: Double? = nil
    ) {
        if let machine, machine.syncDiffers == true, let summary = machine.syncSummary {
            timing.verdict = .withheld
            timing.reason = "\(summary): the disks differ, so the time is not judged"
            return
        }
        // Machines that differ by probes that were not steady cannot be
        // divided out: every change is withheld. A probe that was not
        // steady within the floor measured no machine: the time is judged
        // as it is.
        if let machine, machine.differs, machine.steady == false {
            timing.verdict = .withheld
            timing.reason = "\(machine.summary), and unsteadily: the time is not judged"
            return
        }
        let speed = machine?.steady == false ? 1 : machine?.ratio ?? 1
        if let machine, machine.steady != false, let ratio = timing.ratio { timing.machineAdjustedRatio = ratio / speed }
        let effect = timing.minimumDetectableEffect ?? floor.relative
        func notJudged() -> TimingVerdict {
            guard let machine, machine.differs else { return .unchanged }
            timing.reason = "\(machine.summary): a change it explains is not judged"
            return .withheld
        }
        guard let p = timing.adjustedPValue, p < alpha, !interval.low.isNaN, !interval.high.isNaN, let ratio = timing.ratio,
            abs((timing.headLowerQuartile ?? timing.headMedian) - (timing.baseLowerQuartile ?? timing.baseMedian)) > (absolute ?? floor.absolute)
        else {
            timing.verdict = notJudged()
            return
        }
        let adjusted = ratio / speed
        if interval.low / speed > 1, adjusted > 1 + effect {
            timing.verdict = .slower
        } else if interval.high / speed < 1, adjusted < 1 / (1 + effect) {
            timing.verdict = .faster
        } else {
            timing.verdict = notJudged()
            return
        }
        if let machine, machine.differs { timing.reason = "beyond what the machine explains (\(machine.summary))" }
    }
}
