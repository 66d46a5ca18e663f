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
/// path cannot pay.
///
/// The counts are kept in blocks of 256 buckets (2 KB), each made the
/// first time a time falls in it: a shape's first statement makes one
/// block, and a shape whose times spread over a range makes the blocks of
/// that range only (a quarter of a doubling each above 2 µs: about 30 KB
/// for times spread evenly from 10 µs to 100 µs, 4 KB for two far apart).
/// Only the recorder keeps one per shape (``StatementAggregate/durations``);
/// a SQL log's thousands of shapes keep none.
public struct DurationHistogram: Sendable {
    /// log2 of the sub-buckets of the first bucket (2,048: three digits).
    private static let subBucketBits = 11
    private static let subBucketCount = 1 << subBucketBits
    private static let halfCount = subBucketCount / 2
    /// log2 of the buckets of a block of counts.
    private static let blockBits = 8
    private static let blockSize = 1 << blockBits

    /// The counts of the blocks made so far, one block after another in
    /// the order they were made.
    private var counts: [UInt64] = []
    /// For each block of indexes (``index(of:)`` >> ``blockBits``), where
    /// its counts start in ``counts``, in blocks, plus one; 0 for a block
    /// not made.
    private var blocks: [UInt16] = []
    /// The lowest and highest indexes counted (empty: `Int.max`, -1): adding
    /// and reading percentiles walk only these.
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

    /// The bucket of `value` (0 for values under 2,048) and its index.
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

    /// Where the count of `index` is in ``counts``, making its block if
    /// it has none.
    @inline(__always)
    private mutating func position(making index: Int) -> Int {
        let block = index &>> Self.blockBits
        if block >= blocks.count || blocks[block] == 0 { make(block: block) }
        return (Int(blocks[block]) &- 1) &<< Self.blockBits | index & (Self.blockSize - 1)
    }

    /// The count at `index` (0 in a block not made).
    @inline(__always)
    private func tally(atIndex index: Int) -> UInt64 {
        let block = index &>> Self.blockBits
        guard block < blocks.count, blocks[block] != 0 else { return 0 }
        return counts[(Int(blocks[block]) &- 1) &<< Self.blockBits | index & (Self.blockSize - 1)]
    }

    /// Makes the counts of `block`, zero.
    @inline(never)
    private mutating func make(block: Int) {
        if block >= blocks.count { blocks += repeatElement(0, count: block + 1 - blocks.count) }
        counts.append(contentsOf: repeatElement(0, count: Self.blockSize))
        blocks[block] = UInt16(counts.count >> Self.blockBits)
    }

    /// Adds one execution's time.
    @inline(__always)
    public mutating func record(_ nanoseconds: UInt64) {
        let index = Self.index(of: nanoseconds)
        counts[position(making: index)] &+= 1
        if index < lowest { lowest = index }
        if index > highest { highest = index }
        count &+= 1
        if nanoseconds > maxNanoseconds { maxNanoseconds = nanoseconds }
    }

    /// Calls `body` with each index from ``lowest`` to ``highest`` whose
    /// block was made and its count (0 included), in order.
    private func forEachCount(_ body: (Int, UInt64) -> Void) {
        guard count > 0 else { return }
        for block in (lowest >> Self.blockBits)...(highest >> Self.blockBits) where blocks[block] != 0 {
            let start = (Int(blocks[block]) - 1) << Self.blockBits
            let first = max(lowest, block << Self.blockBits)
            let last = min(highest, (block << Self.blockBits) + Self.blockSize - 1)
            for index in first...last { body(index, counts[start + index & (Self.blockSize - 1)]) }
        }
    }

    /// Adds every time `other` holds.
    public mutating func add(_ other: DurationHistogram) {
        guard other.count > 0 else { return }
        other.forEachCount { index, value in
            if value != 0 { counts[position(making: index)] &+= value }
        }
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
        for block in (lowest >> Self.blockBits)...(highest >> Self.blockBits) where blocks[block] != 0 {
            let start = (Int(blocks[block]) - 1) << Self.blockBits
            let first = max(lowest, block << Self.blockBits)
            let last = min(highest, (block << Self.blockBits) + Self.blockSize - 1)
            for index in first...last where counts[start + index & (Self.blockSize - 1)] != 0 {
                seen &+= counts[start + index & (Self.blockSize - 1)]
                if seen >= rank { return min(Self.range(ofIndex: index).upperBound, maxNanoseconds) }
            }
        }
        return maxNanoseconds
    }

    /// Whether two times are one to the histogram (they fall in one bucket).
    public func areEquivalent(_ a: UInt64, _ b: UInt64) -> Bool {
        Self.index(of: a) == Self.index(of: b)
    }

    /// The memory the histogram's counts take: its arrays' capacities,
    /// which the allocator's size classes round (a few bytes apart between
    /// two histograms of the same blocks).
    public var footprintBytes: Int {
        counts.capacity * MemoryLayout<UInt64>.stride + blocks.capacity * MemoryLayout<UInt16>.stride
    }
}

extension DurationHistogram: Equatable {
    /// The same times recorded, however the counts grew.
    public static func == (a: DurationHistogram, b: DurationHistogram) -> Bool {
        guard a.count == b.count, a.maxNanoseconds == b.maxNanoseconds, a.lowest == b.lowest, a.highest == b.highest else { return false }
        guard a.count > 0 else { return true }
        return (a.lowest...a.highest).allSatisfy { a.tally(atIndex: $0) == b.tally(atIndex: $0) }
    }
}
