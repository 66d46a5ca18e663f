import Probes

/// One insight rule: a pattern in the evidence of a run or a log, and the
/// advice it calls for. Each rule is one file in Insights/Rules/ that
/// declares its ``InsightRuleID`` and a type conforming to this protocol;
/// the build lists every such type (``InsightEngine/rules``), so adding a
/// rule is adding that file and its tests (README, "Adding an insight rule").
///
/// A rule reads only ``InsightEvidence``: what the engine attached to its
/// events (where an object came from, a statement's entity and filtered
/// columns), or what a log reader derived from a log. It never reads SQL
/// text, so a run, `Faultline.measure` and `perf-run log` of the same work
/// give the same insight with the same words.
public protocol InsightRule: Sendable {
    /// The rule's identity in insights, accepted lists and thresholds.
    var id: InsightRuleID { get }
    /// When the rule fires, in one line (for `--help` and the docs).
    var summary: String { get }
    /// What the rule's threshold counts, and its default.
    var threshold: InsightThreshold { get }
    /// The insights the evidence shows with `threshold` (the default, or
    /// one set per run, per measurement or in an insights file).
    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight]
    /// The insights with `threshold` and the other settings that are data
    /// (``InsightSettings/smallTableRowLimit``): for a rule that reads
    /// them; by default ``insights(in:threshold:)``.
    func insights(in evidence: InsightEvidence, threshold: Int, settings: InsightSettings) -> [Insight]
}

extension InsightRule {
    public func insights(in evidence: InsightEvidence, threshold: Int, settings: InsightSettings) -> [Insight] {
        insights(in: evidence, threshold: threshold)
    }
}

/// A rule's threshold: what it counts and the value used when none is set.
public struct InsightThreshold: Sendable, Equatable {
    /// The value used when none is set.
    public var defaultValue: Int
    /// What is compared with it (`lazy loads for the objects of one fetch`).
    public var counts: String

    public init(_ defaultValue: Int, counts: String) {
        self.defaultValue = defaultValue
        self.counts = counts
    }
}
