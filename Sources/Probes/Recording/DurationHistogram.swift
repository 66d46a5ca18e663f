import Histogram

/// The execution times of one statement shape, in nanoseconds, as an HDR
/// histogram (HdrHistogram's Swift implementation): recording a time is an
/// index computation and an addition, whatever the number of executions,
/// and any percentile can be read afterwards.
///
/// Three significant digits: a percentile is within 0.1% of the time it
/// stands for, and exact below 2,048 ns, so the sub-microsecond statements
/// of an in-process SQLite keep their precision. The histogram grows with
/// the slowest time it holds: 16 KB while every time is under 2 µs, and
/// 8 KB more each time the slowest doubles (about 90 KB for a shape whose
/// slowest execution takes a millisecond, 170 KB for a second). Only the
/// recorder keeps one per shape (``StatementAggregate/durations``); a SQL
/// log's thousands of shapes keep none.
public struct DurationHistogram: Equatable, Sendable {
    private var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)

    /// An empty histogram.
    public init() {}

    /// A histogram of `nanoseconds`, each recorded once.
    public init(_ nanoseconds: some Sequence<UInt64>) {
        for value in nanoseconds { record(value) }
    }

    /// Adds one execution's time.
    @inline(__always)
    public mutating func record(_ nanoseconds: UInt64) {
        histogram.record(nanoseconds)
    }

    /// Adds every time `other` holds.
    public mutating func add(_ other: DurationHistogram) {
        histogram.add(other.histogram)
    }

    /// How many times were recorded.
    public var count: UInt64 { histogram.totalCount }

    /// Whether no time was recorded.
    public var isEmpty: Bool { histogram.totalCount == 0 }

    /// The longest time recorded, exactly (0 for none).
    public var maxNanoseconds: UInt64 { histogram.maxRecorded }

    /// The time at `percentile` (0 to 100) by nearest rank: the smallest
    /// recorded time that at least `percentile`% of the times are at or
    /// below, to within the histogram's precision (never above the
    /// longest time recorded); 0 for an empty histogram.
    public func nanoseconds(atPercentile percentile: Double) -> UInt64 {
        isEmpty ? 0 : histogram.valueAtPercentile(percentile)
    }

    /// Whether two times are one to the histogram (they fall in one bucket).
    public func areEquivalent(_ a: UInt64, _ b: UInt64) -> Bool {
        histogram.valuesAreEquivalent(a, b)
    }

    /// The memory the histogram takes, about.
    public var footprintBytes: Int { histogram.estimatedFootprintInBytes }
}
