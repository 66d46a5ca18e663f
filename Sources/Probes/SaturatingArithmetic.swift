/// Counts and times that saturate instead of trapping.
///
/// A count read from outside (a report, a SQL debug log) can be anything
/// up to `Int.max`; adding two of them must not end the process. Counts
/// are 0 or more, so a sum that would overflow is `Int.max` (and one that
/// would underflow `Int.min`); a sum of finite times that would be
/// infinite is the largest finite `Double`, which JSON can still hold.
extension Int {
    /// The sum, or `Int.max` (`Int.min`) where it would overflow.
    @inlinable
    public func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }

    /// The product, or `Int.max` (`Int.min`) where it would overflow.
    @inlinable
    public func multipliedSaturated(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) != (other < 0) ? .min : .max) : product
    }

    /// Adds `other` in place, saturating.
    @inlinable
    public mutating func addSaturated(_ other: Int) {
        self = addingSaturated(other)
    }
}

extension Sequence where Element == Int {
    /// The sum of the elements, saturating at `Int.max` (`Int.min`).
    @inlinable
    public func saturatedSum() -> Int {
        reduce(0) { $0.addingSaturated($1) }
    }
}

extension Double {
    /// The sum, held at `±greatestFiniteMagnitude` where two finite values
    /// would add up to an infinity. A value that is not finite stays so.
    @inlinable
    public func addingSaturated(_ other: Double) -> Double {
        let sum = self + other
        guard !sum.isFinite, isFinite, other.isFinite else { return sum }
        return sum > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude
    }
}
