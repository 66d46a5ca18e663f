import Foundation

/// A distribution-free confidence interval of a median: two order
/// statistics of the samples, chosen from the binomial distribution so that
/// the true median lies between them with at least the confidence asked
/// (the sign-test interval, as in Conover's *Practical Nonparametric
/// Statistics*, §3.2). It assumes nothing of the samples' shape, so one slow
/// outlier widens it by at most one rank.
///
/// With too few samples for the confidence asked (5 or fewer for 95%), the
/// interval is the whole range, min to max, and ``confidence`` says how much
/// that range holds (93.75% for 5 samples, 75% for 3).
public struct MedianInterval: Codable, Equatable, Sendable {
    public var median: Double
    public var low: Double
    public var high: Double
    /// The probability that the interval holds the true median (what the
    /// binomial gives for the order statistics taken, not what was asked).
    public var confidence: Double
    /// How many samples it was taken from.
    public var samples: Int

    public init(median: Double, low: Double, high: Double, confidence: Double, samples: Int) {
        self.median = median
        self.low = low
        self.high = high
        self.confidence = confidence
        self.samples = samples
    }

    /// The median of `values` and its interval; nil when no value is finite.
    public init?(_ values: [Double], confidence asked: Double = 0.95) {
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty else { return nil }
        let n = sorted.count
        // The largest rank r (1-based) with P(B < r) ≤ (1 − asked) / 2 for
        // B ~ Binomial(n, ½): [x₍ᵣ₎, x₍ₙ₋ᵣ₊₁₎] then holds the median with
        // probability 1 − 2·P(B < r) ≥ asked. At least rank 1.
        let tail = (1 - asked) / 2
        var rank = 1
        var below = Self.binomialHalfProbability(0, of: n)  // P(B < 1)
        while rank < (n + 1) / 2 {
            let next = below + Self.binomialHalfProbability(rank, of: n)  // P(B < rank + 1)
            guard next <= tail else { break }
            below = next
            rank += 1
        }
        self.init(
            median: Statistics.median(ofSorted: sorted), low: sorted[rank - 1], high: sorted[n - rank], confidence: 1 - 2 * below, samples: n)
    }

    /// P(B = k) for B ~ Binomial(n, ½), in logarithms so that thousands of
    /// samples do not underflow.
    static func binomialHalfProbability(_ k: Int, of n: Int) -> Double {
        let logChoose = lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
        return exp(logChoose - Double(n) * M_LN2)
    }
}
