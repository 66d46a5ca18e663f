/// A bootstrap confidence interval of the ratio of two medians
/// (head / base), with a fixed seed so that a comparison is repeatable.
public enum BootstrapRatio {
    public struct Interval: Equatable, Sendable {
        public let low: Double
        public let high: Double
    }

    /// The interval of the ratio of two quantiles (head / base), and the
    /// two-sided p-value of "the ratio is 1": twice the share of resampled
    /// ratios on the far side of 1 (at least one resample's worth:
    /// 2 / (resamples + 1)).
    public static func quantileRatio(
        base: [Double], head: [Double], quantile q: Double, confidence: Double = 0.95, resamples: Int = 2_000,
        seed: UInt64 = 20_261_122
    ) -> (interval: Interval, p: Double) {
        guard !base.isEmpty, !head.isEmpty, resamples > 0 else { return (Interval(low: .nan, high: .nan), 1) }
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var drawn = [Double](repeating: 0, count: max(base.count, head.count))
        func resample(_ values: [Double]) -> Double {
            for index in 0..<values.count { drawn[index] = values[Int(next() % UInt64(values.count))] }
            return NoiseModel.quantile(drawn[0..<values.count].sorted(), q)
        }
        var ratios: [Double] = []
        ratios.reserveCapacity(resamples)
        var above = 0, below = 0
        for _ in 0..<resamples {
            let b = resample(base)
            let ratio = b == 0 ? Double.infinity : resample(head) / b
            if ratio > 1 { above += 1 } else if ratio < 1 { below += 1 }
            ratios.append(ratio)
        }
        ratios.sort()
        let alpha = (1 - confidence) / 2
        let low = ratios[max(0, Int((alpha * Double(resamples)).rounded(.down)))]
        let high = ratios[min(resamples - 1, Int(((1 - alpha) * Double(resamples)).rounded(.up)) - 1)]
        let far = resamples - max(above, below)
        let p = min(1, 2 * Double(far + 1) / Double(resamples + 1))
        return (Interval(low: low, high: high), p)
    }

    /// The interval of the ratio of two medians (head / base).
    public static func medianRatio(
        base: [Double], head: [Double], confidence: Double = 0.95, resamples: Int = 2_000, seed: UInt64 = 20_261_122
    ) -> Interval {
        quantileRatio(base: base, head: head, quantile: 0.5, confidence: confidence, resamples: resamples, seed: seed).interval
    }
}

/// Holm's step-down correction for many tests at once: adjusted p-values
/// (monotone, capped at 1), in the order given.
public enum HolmCorrection {
    public static func adjust(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(m - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
