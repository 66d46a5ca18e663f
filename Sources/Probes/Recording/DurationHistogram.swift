/// The execution times of one statement shape, in nanoseconds, as an HDR
/// (high dynamic range) histogram: recording a time is an index
/// computation and an addition, whatever the number of executions, and any
/// percentile can be read afterwards.
///
/// Three significant digits: a time falls in a bucket whose width is at
/// most 1/1,024 of its value, so a percentile is within 0.1% of the time it
/// stands for, and exact below 2,048 ns (every nanosecond its own bucket),
/// so the sub-microsecond statements of an in-process SQLite keep their
/// precision. The layout is HdrHistogram's (2,048 sub-buckets, each
/// further bucket twice as wide); it is written here rather than taken
/// from the HdrHistogram package because that package grows its counts
/// through an unspecialized generic append, about 40 million instructions
/// for a shape's first slow statement, which the recorder's per-statement
/// path cannot pay. The counts grow with the slowest time held: 16 KB while
/// every time is under 2 µs, and 8 KB more each time the slowest doubles
/// (about 90 KB for a shape whose slowest execution takes a millisecond,
/// 170 KB for a second). Only the recorder keeps one per shape
/// (``StatementAggregate/durations``); a SQL log's thousands of shapes keep
/// none.
public struct DurationHistogram: Sendable {
    /// log2 of the sub-buckets of the first bucket (2,048: three digits).
    private static let subBucketBits = 11
    private static let subBucketCount = 1 << subBucketBits
    private static let halfCount = subBucketCount / 2

    /// Counts by index (``index(of:)``), grown as slower times come.
    private var counts: [UInt64] = []
    /// The lowest and highest indexes counted (empty: `Int.max`, -1): adding
    /// and reading percentiles walk only these, not the whole array.
    private var lowest = Int.max
    private var highest = -1
    public private(set) var count: UInt64 = 0
    /// The longest time recorded, exactly (0 for none).
    public private(set) var maxNanoseconds: UInt64 = 0

    /// An empty histogram.
    public init() {}

    /// A histogram of `nanoseconds`, each recorded once.
    public init(_ nanoseconds: some Sequence<UInt64>) {
        for value in nanoseconds { record(value) }
    }

    /// The bucket of `value` (0 for values under 2,048) and its index in
    /// ``counts``.
    @inline(__always)
    private static func index(of value: UInt64) -> Int {
        let bucket = max(0, 64 - (value | UInt64(subBucketCount - 1)).leadingZeroBitCount - subBucketBits)
        let subBucket = Int(truncatingIfNeeded: value >> UInt64(bucket))
        return (bucket + 1) << (subBucketBits - 1) + subBucket - halfCount
    }

    /// The lowest and highest values of the index's bucket.
    private static func range(ofIndex index: Int) -> ClosedRange<UInt64> {
        var bucket = (index >> (subBucketBits - 1)) - 1
        var subBucket = (index & (halfCount - 1)) + halfCount
        if bucket < 0 {
            subBucket -= halfCount
            bucket = 0
        }
        let lowest = UInt64(subBucket) << UInt64(bucket)
        return lowest...(lowest + (UInt64(1) << UInt64(bucket)) - 1)
    }

    /// Adds one execution's time.
    @inline(__always)
    public mutating func record(_ nanoseconds: UInt64) {
        let index = Self.index(of: nanoseconds)
        if index >= counts.count { grow(toHold: index) }
        counts[index] &+= 1
        if index < lowest { lowest = index }
        if index > highest { highest = index }
        count &+= 1
        if nanoseconds > maxNanoseconds { maxNanoseconds = nanoseconds }
    }

    /// Counts up to `index`, in whole buckets.
    @inline(never)
    private mutating func grow(toHold index: Int) {
        let size = max(Self.subBucketCount, (index / Self.halfCount + 1) * Self.halfCount)
        counts += [UInt64](repeating: 0, count: size - counts.count)
    }

    /// Adds every time `other` holds.
    public mutating func add(_ other: DurationHistogram) {
        guard other.count > 0 else { return }
        if other.highest >= counts.count { grow(toHold: other.highest) }
        for index in other.lowest...other.highest { counts[index] &+= other.counts[index] }
        lowest = min(lowest, other.lowest)
        highest = max(highest, other.highest)
        count &+= other.count
        maxNanoseconds = max(maxNanoseconds, other.maxNanoseconds)
    }

    /// Whether no time was recorded.
    public var isEmpty: Bool { count == 0 }

    /// The time at `percentile` (0 to 100) by nearest rank: the smallest
    /// recorded time that at least `percentile`% of the times are at or
    /// below, to within the histogram's precision (the highest time of its
    /// bucket, never above the longest time recorded); 0 for an empty
    /// histogram.
    public func nanoseconds(atPercentile percentile: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let share = min(max(percentile, 0), 100) / 100
        let rank = max(1, UInt64((share * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for index in lowest...highest where counts[index] != 0 {
            seen &+= counts[index]
            if seen >= rank { return min(Self.range(ofIndex: index).upperBound, maxNanoseconds) }
        }
        return maxNanoseconds
    }

    /// Whether two times are one to the histogram (they fall in one bucket).
    public func areEquivalent(_ a: UInt64, _ b: UInt64) -> Bool {
        Self.index(of: a) == Self.index(of: b)
    }

    /// The memory the histogram's counts take.
    public var footprintBytes: Int { counts.capacity * MemoryLayout<UInt64>.stride }
}

extension DurationHistogram: Equatable {
    /// The same times recorded, however the counts grew.
    public static func == (a: DurationHistogram, b: DurationHistogram) -> Bool {
        guard a.count == b.count, a.maxNanoseconds == b.maxNanoseconds, a.lowest == b.lowest, a.highest == b.highest else { return false }
        return a.count == 0 || a.counts[a.lowest...a.highest] == b.counts[b.lowest...b.highest]
    }
}
