import Foundation
import Reporting
import Testing

/// The order-statistic interval of a median, against the binomial worked by hand.
@Suite struct MedianIntervalTests {
    @Test func tenSamplesTakeTheSecondAndNinth() throws {
        // P(B ≤ 1) = 11/1024 ≤ 0.025 < P(B ≤ 2) = 56/1024: ranks 2 and 9.
        let interval = try #require(MedianInterval([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]))
        #expect(interval.median == 5.5)
        #expect(interval.low == 2)
        #expect(interval.high == 9)
        #expect(abs(interval.confidence - (1 - 22.0 / 1024)) < 1e-12)
        #expect(interval.samples == 10)
    }

    @Test func fewSamplesGiveTheRangeAndSayHowMuchItHolds() throws {
        let five = try #require(MedianInterval([5, 1, 4, 2, 3]))
        #expect((five.low, five.median, five.high) == (1, 3, 5))
        #expect(abs(five.confidence - 0.9375) < 1e-12)
        let three = try #require(MedianInterval([3, 1, 2]))
        #expect(abs(three.confidence - 0.75) < 1e-12)
        let one = try #require(MedianInterval([7]))
        #expect((one.low, one.median, one.high, one.confidence) == (7, 7, 7, 0))
        #expect(MedianInterval([]) == nil)
        #expect(MedianInterval([.nan, .infinity]) == nil)
    }

    @Test func oneOutlierMovesTheIntervalByOneRankAtMost() throws {
        let quiet = (1...20).map(Double.init)
        var noisy = quiet
        noisy[19] = 1_000
        let a = try #require(MedianInterval(quiet))
        let b = try #require(MedianInterval(noisy))
        #expect(a == b)  // the 20th value is beyond the interval's ranks either way
        // 20 samples: P(B ≤ 5) = 0.0207 ≤ 0.025 < P(B ≤ 6) = 0.0577: ranks 6 and 15.
        #expect((a.low, a.high) == (6, 15))
    }

    @Test func thousandsOfSamplesDoNotUnderflow() throws {
        let values = (0..<5_000).map { Double($0) }
        let interval = try #require(MedianInterval(values))
        #expect(interval.low < interval.median && interval.median < interval.high)
        #expect(interval.confidence >= 0.95 && interval.confidence < 0.96)
        // About ±1.96·√n/2 ranks around the middle.
        #expect(abs((interval.high - interval.low) / 2 - 1.96 * 5_000.0.squareRoot() / 2) < 3)
    }
}
