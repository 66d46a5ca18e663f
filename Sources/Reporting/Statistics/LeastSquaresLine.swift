import Foundation

/// The least-squares line `y = intercept + slope·x` through points, with
/// what it leaves over at each point (the residuals).
///
/// Made for counts, which are exact: two points give the line through
/// them, with nothing left over; three or more give the line that leaves
/// the least (the sum of squared residuals), and its residuals say whether
/// the counts lie on a line at all. A residual within a billionth of the
/// largest count (at least 10⁻⁹) is floating point's rounding, not the
/// data's, and is 0; so is a slope within that of 0 (counts that are all
/// the same give exactly 0).
public struct LeastSquaresLine: Equatable, Sendable {
    public let intercept: Double
    public let slope: Double
    /// `y − (intercept + slope·x)` at each point, in order.
    public let residuals: [Double]

    /// The line through `points` (at least two, with at least two
    /// distinct `x`); nil otherwise.
    public init?(_ points: [(x: Double, y: Double)]) {
        let xs = Set(points.map(\.x))
        guard points.count >= 2, xs.count >= 2, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let n = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.x } / n
        let meanY = points.reduce(0) { $0 + $1.y } / n
        let sxy = points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) }
        let sxx = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }
        let rounding = max(1e-9, 1e-9 * (points.map { abs($0.y) }.max() ?? 0))
        var slope = sxy / sxx
        if abs(slope) <= rounding { slope = 0 }
        var intercept = meanY - slope * meanX
        if abs(intercept) <= rounding { intercept = 0 }
        // Counts on a line give a slope and an intercept that are whole or
        // short decimals: floating point's last digit is rounding.
        slope = Self.snapped(slope)
        intercept = Self.snapped(intercept)
        self.slope = slope
        self.intercept = intercept
        residuals = points.map { point in
            let residual = point.y - (intercept + slope * point.x)
            return abs(residual) <= rounding ? 0 : residual
        }
    }

    /// Whether the points lie on the line (every residual 0).
    public var isExact: Bool { residuals.allSatisfy { $0 == 0 } }

    /// `value` rounded to 6 decimal places when that moves it by no more
    /// than floating point's rounding (a billionth of it): 99.99999999999999
    /// is 100, 36/7 stays as it is.
    private static func snapped(_ value: Double) -> Double {
        let rounded = (value * 1e6).rounded() / 1e6
        return abs(rounded - value) <= 1e-9 * max(1, abs(value)) ? rounded : value
    }
}
