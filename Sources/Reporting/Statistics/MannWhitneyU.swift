import Foundation

/// The Mann-Whitney U test (two-sided), with the normal approximation, a
/// tie correction and a continuity correction: what SciPy's
/// `mannwhitneyu(x, y, alternative="two-sided", method="asymptotic")` computes.
public enum MannWhitneyU {
    public struct Result: Equatable, Sendable {
        /// U of the first sample.
        public let u: Double
        /// Two-sided p-value.
        public let pValue: Double
    }

    public static func test(_ x: [Double], _ y: [Double]) -> Result {
        let n1 = Double(x.count)
        let n2 = Double(y.count)
        guard n1 > 0, n2 > 0 else { return Result(u: 0, pValue: 1) }
        // Ranks of the pooled samples, ties sharing their mean rank.
        let pooled = (x.map { ($0, 0) } + y.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieTerm = 0.0
        var i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count, pooled[j + 1].0 == pooled[i].0 { j += 1 }
            let rank = Double(i + j) / 2 + 1
            for k in i...j { ranks[k] = rank }
            let t = Double(j - i + 1)
            tieTerm += t * t * t - t
            i = j + 1
        }
        let r1 = zip(pooled, ranks).filter { $0.0.1 == 0 }.reduce(0) { $0 + $1.1 }
        let u1 = r1 - n1 * (n1 + 1) / 2
        let n = n1 + n2
        let mean = n1 * n2 / 2
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return Result(u: u1, pValue: 1) }
        let u = max(u1, n1 * n2 - u1)
        let z = (u - mean - 0.5) / variance.squareRoot()
        let p = min(1, 2 * normalSurvival(z))
        return Result(u: u1, pValue: p)
    }

    /// P(Z > z) for a standard normal Z.
    static func normalSurvival(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }
}
