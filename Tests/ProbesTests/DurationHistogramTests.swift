import Foundation
import ObjectGraph
@_spi(FastPath) import Probes
import Testing

/// A statement shape's execution times: percentiles by nearest rank,
/// against sets of times whose percentiles are known.
@Suite struct DurationHistogramTests {
    /// The time at `percentile` of `values` by nearest rank: the value at
    /// rank ⌈p/100 · n⌉ of the sorted values.
    static func nearestRank(_ values: [UInt64], _ percentile: Double) -> UInt64 {
        let sorted = values.sorted()
        let rank = max(1, Int((percentile / 100 * Double(sorted.count)).rounded(.up)))
        return sorted[rank - 1]
    }

    /// Under 2,048 ns every time is its own bucket: the percentiles are the
    /// exact times, sub-microsecond ones included.
    @Test func subMicrosecondTimesAreExact() {
        let values = (1...1_000).map { UInt64($0) }
        let histogram = DurationHistogram(values.shuffled())
        #expect(histogram.count == 1_000)
        #expect(histogram.nanoseconds(atPercentile: 50) == 500)
        #expect(histogram.nanoseconds(atPercentile: 90) == 900)
        #expect(histogram.nanoseconds(atPercentile: 99) == 990)
        #expect(histogram.maxNanoseconds == 1_000)
        let odd: [UInt64] = [120, 135, 140, 155, 180, 240, 310, 990, 1_800, 2_040]
        let few = DurationHistogram(odd)
        for percentile in [50.0, 90, 99] {
            #expect(few.nanoseconds(atPercentile: percentile) == Self.nearestRank(odd, percentile))
        }
        #expect(few.nanoseconds(atPercentile: 50) == 180)
        #expect(few.nanoseconds(atPercentile: 90) == 1_800)
    }

    /// From microseconds to seconds a percentile is within 0.1% of the
    /// time at that rank, and in its bucket; the longest time is exact.
    @Test func longerTimesAreWithinATenthOfAPercent() {
        // Spread evenly on a log scale from 2 µs to 2 s, in a scrambled
        // order, and two outliers.
        var values = (0..<5_000).map { UInt64(pow(10, 3.3 + 6 * Double(($0 * 7_919) % 5_000) / 5_000)) }
        values += [3_000_000_017, 12_345_678]
        let histogram = DurationHistogram(values)
        for percentile in [50.0, 90, 99] {
            let expected = Self.nearestRank(values, percentile)
            let found = histogram.nanoseconds(atPercentile: percentile)
            #expect(histogram.areEquivalent(found, expected), "p\(percentile): \(found) for \(expected)")
            #expect(abs(Double(found) - Double(expected)) / Double(expected) <= 0.001)
        }
        #expect(histogram.maxNanoseconds == 3_000_000_017)
        #expect(histogram.nanoseconds(atPercentile: 100) == 3_000_000_017)
    }

    /// Histograms added up hold what one histogram of every time holds.
    @Test func addedHistogramsAreOneOfEveryTime() {
        let first: [UInt64] = [900, 1_200, 40_000, 41_000]
        let second: [UInt64] = [700, 5_000_000, 52_000]
        var merged = DurationHistogram(first)
        merged.add(DurationHistogram(second))
        #expect(merged == DurationHistogram(first + second))
        #expect(merged.count == 7)
        #expect(merged.maxNanoseconds == 5_000_000)
        #expect(merged.nanoseconds(atPercentile: 50) == DurationHistogram(first + second).nanoseconds(atPercentile: 50))
        #expect(DurationHistogram().isEmpty && DurationHistogram().nanoseconds(atPercentile: 90) == 0)
    }

    /// The memory a shape's histogram takes grows with the range of its
    /// times, as its documentation says: a block of 2 KB for its first
    /// time, none more for times near it, one more for a time far from it, the blocks of a range for
    /// times spread over it (about 30 KB from 10 µs to 100 µs).
    @Test func theFootprintGrowsWithTheRangeOfTimes() {
        let one = DurationHistogram([40_000])
        let near = DurationHistogram([40_000, 40_100, 40_500])
        let apart = DurationHistogram([300, 1_000_000])
        let spread = DurationHistogram(stride(from: 10_000, through: 100_000, by: 50).map { UInt64($0) })
        #expect(one.footprintBytes >= 2_048 && one.footprintBytes < 2_300)
        // No block more: the arrays' capacities follow the allocator's
        // size classes, which can differ by a few bytes from one histogram
        // to the next (2,112 against 2,128 in one run).
        #expect(abs(near.footprintBytes - one.footprintBytes) < 256)
        #expect(apart.footprintBytes >= 4_096 && apart.footprintBytes < 4_700)
        #expect(spread.footprintBytes > 28_000 && spread.footprintBytes < 70_000)
        // Held in blocks, read as one: the percentiles of the spread times.
        let values = stride(from: 10_000, through: 100_000, by: 50).map { UInt64($0) }
        for percentile in [50.0, 90, 99] {
            #expect(spread.areEquivalent(spread.nanoseconds(atPercentile: percentile), Self.nearestRank(values, percentile)))
        }
    }

    /// The recorder keeps each shape's times (one per execution, whichever
    /// path counted it) and its first statement's text; a shape's
    /// aggregate made elsewhere keeps none.
    @Test func theRecorderKeepsEachShapesTimes() throws {
        let recorder = Recorder()
        let site = CallSite(file: "App/List.swift", line: 12)
        func statement(_ sql: String, shape: String, id: Int, nanoseconds: UInt64) -> SQLEvent {
            SQLEvent(
                start: 0, durationNanoseconds: nanoseconds, thread: 1, sql: sql, shape: shape, shapeID: id, arguments: [],
                rowsReturned: 1, rowsChanged: 0, fullScanSteps: 0, sorts: 0, autoIndexes: 0, vmSteps: 3, purpose: "fetch",
                queryPlan: nil, callSite: site)
        }
        let times: [UInt64] = (1...20).map { UInt64($0) * 100 }
        for time in times {
            recorder.receive(.sql(statement("SELECT * FROM Person WHERE id IN (?, ?)", shape: "SELECT * FROM Person WHERE id IN (…)", id: 901, nanoseconds: time)))
        }
        recorder.receive(.sql(statement("BEGIN", shape: "BEGIN", id: 902, nanoseconds: 50)))
        let snapshot = recorder.snapshot()
        let select = try #require(snapshot.statements.first { $0.shape.hasPrefix("SELECT") })
        #expect(select.count == 20)
        #expect(select.firstText == "SELECT * FROM Person WHERE id IN (?, ?)")
        let durations = try #require(select.durations)
        #expect(durations.count == 20)
        #expect(durations.nanoseconds(atPercentile: 50) == 1_000)
        #expect(durations.nanoseconds(atPercentile: 90) == 1_800)
        #expect(durations.maxNanoseconds == 2_000)
        #expect(snapshot.statements.first { $0.shape == "BEGIN" }?.durations?.count == 1)
        #expect(StatementAggregate(shape: "BEGIN", purpose: "", firstCallSite: site).durations == nil)
    }
}
