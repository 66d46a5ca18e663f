import Foundation

/// A change marked on a trend's line: at which commit, of what, from what
/// level to what, and what it means.
public struct TrendChange: Codable, Equatable, Sendable {
    /// The first commit at the new level.
    public var commit: String
    public var measure: TrendMeasure
    public var verdict: TrendVerdict
    /// The level before: the median time (seconds; CPU or wall, as the
    /// measure says) of the window of commits before, or the counter's
    /// value at the commit before.
    public var before: Double
    /// The level after: the median time of the commit and those after
    /// it in the window, or the counter's value at the commit.
    public var after: Double
    /// For a time: the two-sided Mann-Whitney p-value of the samples
    /// before against those after.
    public var pValue: Double?

    public init(commit: String, measure: TrendMeasure, verdict: TrendVerdict, before: Double, after: Double, pValue: Double? = nil) {
        self.commit = commit
        self.measure = measure
        self.verdict = verdict
        self.before = before
        self.after = after
        self.pValue = pValue
    }

    /// after / before (nil when before is 0).
    public var ratio: Double? { before == 0 ? nil : after / before }

    /// Whether the level went up: slower, or more of the counter.
    public var isIncrease: Bool { after > before }
}
