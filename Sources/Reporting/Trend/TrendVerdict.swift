/// What a change of a trend means for the code measured.
public enum TrendVerdict: String, Codable, Sendable {
    /// Slower, or more of a cost (statements, rows, faults…): fails
    /// `trend --fail-on regression`.
    case regression
    /// Faster, or less of a cost.
    case improvement
    /// A counter that is no cost by itself (fetches, saves, cache hits…)
    /// moved: said, not judged.
    case change
}
