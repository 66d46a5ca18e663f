import Probes

/// How long one statement shape's executions took, over every measured
/// iteration of a scenario: percentiles by nearest rank of all its
/// executions (the recorder's ``DurationHistogram``: within 0.1%, exact
/// under 2 µs), the longest exactly, and each iteration's p90 on its own,
/// which `perf-run compare` judges as samples (schema 5).
public struct StatementDurations: Codable, Equatable, Sendable {
    /// Executions over the measured iterations (the shape's `count` is one
    /// iteration's).
    public var executions: Int
    public var p50Seconds: Double
    public var p90Seconds: Double
    public var p99Seconds: Double
    /// The longest execution of any measured iteration.
    public var maxSeconds: Double
    /// The p90 of each measured iteration that ran the shape, in order:
    /// the samples a comparison of two reports judges.
    public var iterationP90Seconds: [Double]

    public init(executions: Int, p50Seconds: Double, p90Seconds: Double, p99Seconds: Double, maxSeconds: Double, iterationP90Seconds: [Double]) {
        self.executions = executions
        self.p50Seconds = p50Seconds
        self.p90Seconds = p90Seconds
        self.p99Seconds = p99Seconds
        self.maxSeconds = maxSeconds
        self.iterationP90Seconds = iterationP90Seconds
    }

    /// The figures of `histogram` (every measured execution's time), with
    /// the p90 of each iteration.
    public init(_ histogram: DurationHistogram, iterationP90Nanoseconds: [UInt64]) {
        func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
        self.init(
            executions: Int(clamping: histogram.count), p50Seconds: seconds(histogram.nanoseconds(atPercentile: 50)),
            p90Seconds: seconds(histogram.nanoseconds(atPercentile: 90)), p99Seconds: seconds(histogram.nanoseconds(atPercentile: 99)),
            maxSeconds: seconds(histogram.maxNanoseconds), iterationP90Seconds: iterationP90Nanoseconds.map(seconds))
    }
}
