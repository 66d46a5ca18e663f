import Foundation

/// How far a run reproduces a published effect, judged on the ratio of
/// medians (baseline over treatment) and its bootstrap interval.
///
/// Effects are compared on a log scale, so that "10x faster" and "10x
/// slower" are equally far from "no difference":
/// - **absent**: the interval contains 1, or the measured change is under
///   5% (``noiseFloor``): nothing a reader would act on;
/// - **inverted**: the interval lies wholly on the other side of 1 from the
///   source's ratio;
/// - **reproduced**: the same direction, and at least half the source's
///   effect on a log scale (a 10x speed-up needs 3.16x or more);
/// - **weaker**: the same direction, less than that.
public enum ExperimentVerdict: String, Codable, Sendable, CaseIterable {
    case reproduced, weaker, absent, inverted

    /// Measured changes closer to 1 than this are no effect.
    public static let noiseFloor = 1.05

    public static func judge(sourceRatio: Double, measuredRatio: Double, interval: BootstrapRatio.Interval) -> Self {
        guard measuredRatio.isFinite, measuredRatio > 0, sourceRatio > 0 else { return .absent }
        if interval.low <= 1, interval.high >= 1 { return .absent }
        let measured = log(measuredRatio)
        guard abs(measured) >= log(noiseFloor) else { return .absent }
        let expected = log(sourceRatio)
        if (measured > 0) != (expected > 0) { return .inverted }
        return abs(measured) >= abs(expected) / 2 ? .reproduced : .weaker
    }
}
