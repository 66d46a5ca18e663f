import Foundation

/// How much a fit's slope (``ScalingFit``) may grow before a comparison
/// calls it a regression: the larger of a fraction of base's slope and
/// an absolute growth per unit of scale. The thresholds file's `slopes`.
///
/// The default, a tenth and 1: counts are exact, but a data set's entity
/// counts are rounded (`max(1, round(base × scale))`), so two runs at
/// other scales can give slopes a few percent apart for the same code; a
/// change of form (one statement per object instead of one per fetch)
/// moves a slope by far more than a tenth, and one statement per whole
/// data set is no change of form.
public struct SlopeAllowance: Codable, Equatable, Sendable {
    public var relative: Double
    public var absolute: Double

    public init(relative: Double = 0.1, absolute: Double = 1) {
        self.relative = relative
        self.absolute = absolute
    }

    /// Either may be left out, for its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        relative = try container.decodeIfPresent(Double.self, forKey: .relative) ?? 0.1
        absolute = try container.decodeIfPresent(Double.self, forKey: .absolute) ?? 1
    }

    /// The growth allowed from `base`.
    func margin(from base: Double) -> Double { max(absolute, relative * abs(base)) }
}

/// What a comparison says of one fit's slope.
public enum SlopeVerdict: String, Codable, Sendable, Hashable {
    /// Within the allowance either way.
    case same
    /// Steeper beyond the allowance: the work grows faster with the data,
    /// whatever the scales each report ran at. A regression.
    case grew
    /// Less steep beyond the allowance.
    case fell
    /// Only head has it (a new statement shape): a regression when its
    /// slope is beyond the allowance from 0.
    case added
    /// Only base has it.
    case removed
    /// Its counter depends on timing here: shown, never gating.
    case advisory

    /// Whether the verdict makes the scenario a regression (an added
    /// fit's: ``SlopeComparison/isRegression``).
    public var isRegression: Bool { self == .grew }
}

extension ReportComparison {
    /// One fit of base and head: the same counter (of the iteration, or of
    /// one statement shape), as it is; the slopes and lines of both.
    public struct SlopeComparison: Codable, Equatable, Sendable {
        /// The counter, with the shape's site for a statement's
        /// (``ScalingFit/subject``).
        public var subject: String
        public var counter: String
        public var shape: String?
        public var baseSlope: Double?
        public var headSlope: Double?
        /// Each side's line (``ScalingFit/equation``), nil where it has none.
        public var baseLine: String?
        public var headLine: String?
        public var verdict: SlopeVerdict

        /// Whether it makes the scenario a regression: a slope that grew,
        /// or a new fit whose slope is beyond the allowance from 0 (a new
        /// statement that runs once per object).
        public var isRegression: Bool { verdict == .grew || grewFromNothing == true }
        /// An added fit steeper than the allowance from 0.
        public var grewFromNothing: Bool?
    }

    /// The as-it-is fits of two reports' scenario compared by counter and
    /// shape: a slope that grows beyond `allowance` is `grew` (a
    /// regression), whatever scales each ran at. The fixes' fits are the
    /// runs' advice, not the code's: not compared.
    static func slopes(_ base: ScalingFits, _ head: ScalingFits, allowance: SlopeAllowance) -> [SlopeComparison] {
        let before = Dictionary(base.fits.filter { $0.fix == nil }.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let after = head.fits.filter { $0.fix == nil }
        var comparisons: [SlopeComparison] = []
        for fit in after {
            let old = before[fit.key]
            let baseSlope = old?.slope ?? 0
            let verdict: SlopeVerdict
            if fit.advisory == true || old?.advisory == true {
                verdict = .advisory
            } else if old == nil {
                verdict = .added
            } else if fit.slope > baseSlope + allowance.margin(from: baseSlope) {
                verdict = .grew
            } else if fit.slope < baseSlope - allowance.margin(from: baseSlope) {
                verdict = .fell
            } else {
                verdict = .same
            }
            var comparison = SlopeComparison(
                subject: fit.subject, counter: fit.counter, shape: fit.shape, baseSlope: old?.slope, headSlope: fit.slope,
                baseLine: old?.equation, headLine: fit.equation, verdict: verdict)
            if verdict == .added, fit.slope > allowance.margin(from: 0) { comparison.grewFromNothing = true }
            comparisons.append(comparison)
        }
        let keys = Set(after.map(\.key))
        for fit in base.fits where fit.fix == nil && !keys.contains(fit.key) {
            comparisons.append(SlopeComparison(
                subject: fit.subject, counter: fit.counter, shape: fit.shape, baseSlope: fit.slope, headSlope: nil,
                baseLine: fit.equation, headLine: nil, verdict: .removed))
        }
        return comparisons
    }
}
