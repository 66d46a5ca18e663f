import Foundation
import Insights

/// Two reports compared: counters exactly, insights by identity, timings as
/// samples. Encoded as JSON (schema version 1) by `perf-run compare --format json`.
public struct ReportComparison: Codable, Equatable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion = ReportComparison.currentSchemaVersion
    public var base: String
    public var head: String
    /// The commits the two reports measured, when they say.
    public var baseCommit: String?
    public var headCommit: String?
    /// The time judged (``TimingMeasure``); nil in comparisons written
    /// before it could be chosen (wall time).
    public var measure: TimingMeasure?
    /// Why counters cannot be compared (another data set scale, seed or SQLite), or nil.
    public var countersNotComparable: String?
    /// Why timings cannot be compared (another machine, Swift, build), or nil.
    public var timingsNotComparable: String?
    public var scenarios: [ScenarioComparison]
    /// Whether anything gates: a counter regression, a new insight, a timing regression.
    public var hasRegression: Bool
    /// Whether timings were judged against a noise floor that was given
    /// (`--noise-floor`); nil in comparisons written before this field.
    public var noiseFloorGiven: Bool?
    /// Why the fits of how work grows with the data (`--scales`) were not
    /// compared: one report has them and the other has not. Nil when both
    /// have them (``ScenarioComparison/slopes``) or neither has.
    public var scalingNotComparable: String?
    /// Why nothing could be compared: no scenario whose counters, timings
    /// or fits were judged (another scale or seed, no scenario in both).
    /// `perf-run compare` exits 2 then, unless `--allow-incomparable`.
    public var nothingComparable: String?

    /// How many scenarios regressed, improved, stayed the same, or could
    /// not be compared (``ScenarioComparison/outcome``).
    public var tally: [ScenarioOutcome: Int] {
        Dictionary(grouping: scenarios, by: \.outcome).mapValues(\.count)
    }

    public struct ScenarioComparison: Codable, Equatable, Sendable {
        public var name: String
        /// `compared`, `only in base`, `only in head`, or the head's
        /// failure or skip (`head failed: …`, `head skipped: …`).
        public var status: ComparisonStatus
        public var counters: [CounterComparison]
        public var statements: [StatementChange]
        public var newInsights: [Insight]
        public var timing: TimingComparison?
        /// The scenario's phases (``PhaseReport``) present in both reports,
        /// each compared as samples like the scenario's time.
        public var phases: [PhaseTiming]
        /// With fits in both reports (`--scales`): each fit's slope as it is,
        /// base against head (``SlopeComparison``).
        public var slopes: [SlopeComparison]
        /// The machine's speed while the scenario ran, base against head
        /// (``MachineComparison``); nil when either report has no probe.
        public var machine: MachineComparison?
        /// The statement shapes whose p90 got slower or faster beyond the
        /// noise (``StatementTiming``): advisory, never gating; empty in
        /// comparisons written before it was judged.
        public var statementTimings: [StatementTiming]
        /// Whether this scenario makes the comparison a regression (false
        /// when read from a comparison written before the field existed).
        public var regression: Bool

        init(
            name: String, status: ComparisonStatus, counters: [CounterComparison] = [], statements: [StatementChange] = [],
            newInsights: [Insight] = [], timing: TimingComparison? = nil, regression: Bool = false
        ) {
            self.name = name
            self.status = status
            self.counters = counters
            self.statements = statements
            self.newInsights = newInsights
            self.timing = timing
            self.phases = []
            self.slopes = []
            self.statementTimings = []
            self.regression = regression
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            status = try container.decode(ComparisonStatus.self, forKey: .status)
            counters = try container.decode([CounterComparison].self, forKey: .counters)
            statements = try container.decode([StatementChange].self, forKey: .statements)
            newInsights = try container.decode([Insight].self, forKey: .newInsights)
            timing = try container.decodeIfPresent(TimingComparison.self, forKey: .timing)
            phases = try container.decodeIfPresent([PhaseTiming].self, forKey: .phases) ?? []
            slopes = try container.decodeIfPresent([SlopeComparison].self, forKey: .slopes) ?? []
            machine = try container.decodeIfPresent(MachineComparison.self, forKey: .machine)
            statementTimings = try container.decodeIfPresent([StatementTiming].self, forKey: .statementTimings) ?? []
            regression = try container.decodeIfPresent(Bool.self, forKey: .regression) ?? false
        }
    }

    public struct CounterComparison: Codable, Equatable, Sendable {
        public var name: String
        public var base: Int
        /// Nil (JSON null) when head does not have the counter.
        public var head: Int?
        /// What the change means (``CounterVerdict``).
        public var verdict: CounterVerdict

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(base, forKey: .base)
            try container.encode(head, forKey: .head)  // null, not left out
            try container.encode(verdict, forKey: .verdict)
        }
    }

    /// One phase's time in base and head.
    public struct PhaseTiming: Codable, Equatable, Sendable {
        public var name: String
        public var timing: TimingComparison
    }

    /// One statement shape's p90 in base and head: each side's p90 of
    /// every measured execution, and the judgement of the p90s of each
    /// iteration as samples, exactly as a scenario's time is judged
    /// (``NoiseModel``; the Holm correction over every shape compared).
    /// Advisory, never gating: a shape's time is a part of its scenario's,
    /// whose own time gates.
    public struct StatementTiming: Codable, Equatable, Sendable {
        public var shape: String
        /// Where head ran the shape first.
        public var callSite: String
        public var baseP90Seconds: Double
        public var headP90Seconds: Double
        /// The iterations' p90s compared (their lower quartiles, their ratio,
        /// interval, p-value and verdict: `slower` or `faster`).
        public var timing: TimingComparison
    }

    public struct StatementChange: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable {
            case added, removed, grew
        }

        public var shape: String
        public var change: Kind
        public var baseCount: Int
        public var headCount: Int
        /// Where head ran the shape first (added and grown shapes).
        public var callSite: String?
    }

    /// Each side's time and their ratio (head / base). The time judged is
    /// the lower quartile of the iterations (``NoiseModel``); the medians
    /// are shown beside it. A ratio or interval bound that is not finite (a
    /// base of 0, an overflow) is nil: JSON null, "n/a" in text. Every
    /// number encoded is finite.
    public struct TimingComparison: Codable, Equatable, Sendable {
        public var baseMedian: Double
        public var headMedian: Double
        /// The lower quartile of each side's samples: the time judged. Nil
        /// in comparisons written before it was (the ratio was the medians').
        public var baseLowerQuartile: Double?
        public var headLowerQuartile: Double?
        /// Head's lower quartile over base's.
        public var ratio: Double?
        public var ratioLow: Double?
        public var ratioHigh: Double?
        public var pValue: Double?
        public var adjustedPValue: Double?
        /// The smallest relative change of the median judged a change
        /// (``NoiseModel``); nil when the timing was not tested.
        public var minimumDetectableEffect: Double?
        /// The ratio on the machine's speed: ``ratio`` over the machine
        /// probes' ratio (``MachineComparison``), which the verdict judges;
        /// nil when either report has no probe.
        public var machineAdjustedRatio: Double?
        /// The time compared, when not the comparison's own (a phase of a
        /// report without CPU times falls back to wall time).
        public var measure: TimingMeasure?
        public var verdict: TimingVerdict
        public var reason: String?

        public func encode(to encoder: any Encoder) throws {
            func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(finite(baseMedian) ?? .greatestFiniteMagnitude, forKey: .baseMedian)
            try container.encode(finite(headMedian) ?? .greatestFiniteMagnitude, forKey: .headMedian)
            try container.encodeIfPresent(finite(baseLowerQuartile), forKey: .baseLowerQuartile)
            try container.encodeIfPresent(finite(headLowerQuartile), forKey: .headLowerQuartile)
            try container.encode(finite(ratio), forKey: .ratio)  // null, not left out
            try container.encodeIfPresent(finite(ratioLow), forKey: .ratioLow)
            try container.encodeIfPresent(finite(ratioHigh), forKey: .ratioHigh)
            try container.encodeIfPresent(finite(pValue), forKey: .pValue)
            try container.encodeIfPresent(finite(adjustedPValue), forKey: .adjustedPValue)
            try container.encodeIfPresent(finite(minimumDetectableEffect), forKey: .minimumDetectableEffect)
            try container.encodeIfPresent(finite(machineAdjustedRatio), forKey: .machineAdjustedRatio)
            try container.encodeIfPresent(measure, forKey: .measure)
            try container.encode(verdict, forKey: .verdict)
            try container.encodeIfPresent(reason, forKey: .reason)
        }
    }
}

extension ReportComparison.ScenarioComparison {
    /// The scenario in one word: a regression; else an improvement when a
    /// cost counter fell or its time got faster (a phase's is shown, never
    /// counted); else unchanged when its
    /// counters, timing or fits were judged; else not comparable.
    public var outcome: ScenarioOutcome {
        if regression { return .regression }
        if counters.contains(where: { $0.verdict == .improvement }) || timing?.verdict == .faster
            || slopes.contains(where: { $0.verdict == .fell }) {
            return .improvement
        }
        return isJudged ? .unchanged : .notComparable
    }

    /// Whether anything of the scenario was judged: a scenario both reports
    /// ran, with counters, a timing tested, or fits.
    public var isJudged: Bool {
        let judged: Set<TimingVerdict> = [.slower, .faster, .unchanged]
        guard status == .compared else { return false }
        return !counters.isEmpty || !slopes.isEmpty || timing.map { judged.contains($0.verdict) } == true
            || phases.contains { judged.contains($0.timing.verdict) }
    }
}
