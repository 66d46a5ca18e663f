import Probes

/// A fix measured (`perf-run run --what-if`): the scenario run again with
/// the fix applied (the key path prefetched at that fetch, the index
/// created on a copy of the data set), its figures beside the run's.
/// Plain data here; Reporting judges a fix from two scenario reports
/// (`WhatIfOutcome.judge`).
public struct WhatIfOutcome: Codable, Equatable, Sendable {
    /// What the measurement says of the fix.
    ///
    /// Work decides first, time second: the counters are exact, and a fix
    /// that takes 99 statements away may hide in one machine's noise yet be
    /// the whole difference on a slower device or a store across a network.
    public enum Verdict: String, Codable, Sendable {
        /// Faster beyond the interval, with fewer statements or rows.
        case faster
        /// Less work (fewer statements, rows, faults or VM steps, and none
        /// more by over a tenth), and no time change the measurement can
        /// tell from noise: the advice stands.
        case lessWork = "less work"
        /// No less work, and no change the measurement can tell from noise:
        /// the advice is withdrawn.
        case noGain = "no gain"
        /// Slower beyond the interval: the advice would hurt here (and is
        /// withdrawn, whatever the work).
        case slower
        /// The run with the fix failed (the reason says why).
        case failed
        /// Too few iterations on a side to tell (fewer than
        /// ``WhatIfOutcome/minimumSamples``): the counters are still shown.
        case inconclusive
    }

    /// The iterations a side needs for a verdict on time.
    public static let minimumSamples = 3
    /// The counters shown beside the time, and the work a fix is judged by
    /// first: what a fix is expected to change.
    public static let counters: [CounterName] = [.sqlStatements, .rowsRead, .faultsFired, .cacheMisses, .fullScanSteps, .vmSteps]

    /// Whether a fix withdrawn by its measurement: no less work and no
    /// faster, or slower.
    public var withdrawsTheAdvice: Bool { verdict == .noGain || verdict == .slower }

    /// One side: the run as it was, or with the fix.
    public struct Side: Codable, Equatable, Sendable {
        /// The cost counters of one measured iteration (statements, rows
        /// read, faults, cache misses, full-scan steps, VM steps).
        public var counters: [String: Int]
        /// The iterations' wall times.
        public var samples: [Double]
        public var medianSeconds: Double

        /// A side whose median is already known (``init(counters:samples:)``
        /// in Reporting computes it from the samples).
        public init(counters: [String: Int], samples: [Double], medianSeconds: Double) {
            self.counters = counters
            self.samples = samples
            self.medianSeconds = medianSeconds
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

    /// Seconds saved per iteration (before's median minus after's); nil
    /// when the fix was not measured to help.
    public var gainSeconds: Double? {
        guard verdict == .faster, let after else { return nil }
        return before.medianSeconds - after.medianSeconds
    }
}

extension WhatIfOutcome {
    private enum CodingKeys: String, CodingKey {
        case fix, before, after, ratio, ratioLow, ratioHigh, verdict, reason
    }

    /// `before` may be absent: a scenario's report (schema 4) writes the
    /// run as it is once, as the scenario's own figures, and its reader
    /// puts them back (``Side/unwritten`` until then).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fix = try container.decode(InsightFix.self, forKey: .fix)
        before = try container.decodeIfPresent(Side.self, forKey: .before) ?? .unwritten
        after = try container.decodeIfPresent(Side.self, forKey: .after)
        ratio = try container.decodeIfPresent(Double.self, forKey: .ratio)
        ratioLow = try container.decodeIfPresent(Double.self, forKey: .ratioLow)
        ratioHigh = try container.decodeIfPresent(Double.self, forKey: .ratioHigh)
        verdict = try container.decode(Verdict.self, forKey: .verdict)
        reason = try container.decode(String.self, forKey: .reason)
    }

    /// Leaves `before` out when it is ``Side/unwritten``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fix, forKey: .fix)
        if !before.isUnwritten { try container.encode(before, forKey: .before) }
        try container.encodeIfPresent(after, forKey: .after)
        try container.encodeIfPresent(ratio, forKey: .ratio)
        try container.encodeIfPresent(ratioLow, forKey: .ratioLow)
        try container.encodeIfPresent(ratioHigh, forKey: .ratioHigh)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(reason, forKey: .reason)
    }
}

extension WhatIfOutcome.Side {
    /// The side a scenario's report leaves out because it is the
    /// scenario's own figures: no counters, no samples.
    public static let unwritten = Self(counters: [:], samples: [], medianSeconds: 0)

    /// Whether this is ``unwritten``.
    public var isUnwritten: Bool { counters.isEmpty && samples.isEmpty }
}
