import Foundation
import Reporting
import Testing

/// Statistics against reference values computed independently: SciPy 1.17's
/// `mannwhitneyu(x, y, alternative="two-sided", method="asymptotic")`
/// (Fixtures/mann-whitney-scipy.json), Holm's correction worked by hand.
@Suite struct StatisticsTests {
    struct Case: Decodable {
        let x: [Double]
        let y: [Double]
        let u: Double
        let p: Double
    }

    @Test func mannWhitneyMatchesSciPy() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/mann-whitney-scipy.json")
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: url))
        #expect(cases.count == 4)
        for reference in cases {
            let result = MannWhitneyU.test(reference.x, reference.y)
            #expect(result.u == reference.u)
            #expect(abs(result.pValue - reference.p) < 1e-12, "p \(result.pValue) against \(reference.p)")
        }
    }

    @Test func holmByHand() {
        // Sorted: 0.005 × 4 = 0.02, 0.01 × 3 = 0.03, 0.03 × 2 = 0.06, 0.04 × 1 = 0.04 → 0.06 (monotone).
        #expect(HolmCorrection.adjust([0.01, 0.04, 0.03, 0.005]) == [0.03, 0.06, 0.06, 0.02])
        #expect(HolmCorrection.adjust([0.5, 0.9]) == [1.0, 1.0])
        #expect(HolmCorrection.adjust([]) == [])
    }

    @Test func bootstrapIsRepeatableAndCoversTheRatio() {
        let base = [0.100, 0.101, 0.099, 0.102, 0.100, 0.098, 0.101, 0.100, 0.103]
        let head = base.map { $0 * 1.2 }
        let first = BootstrapRatio.medianRatio(base: base, head: head)
        let second = BootstrapRatio.medianRatio(base: base, head: head)
        #expect(first == second)
        #expect(first.low <= 1.2 && 1.2 <= first.high)
        #expect(first.low > 1.1 && first.high < 1.3)
        let same = BootstrapRatio.medianRatio(base: base, head: base)
        #expect(same.low <= 1 && 1 <= same.high)
    }

    @Test func summaryStatistics() {
        let statistics = Statistics([4, 1, 3, 2])
        #expect(statistics.min == 1)
        #expect(statistics.max == 4)
        #expect(statistics.median == 2.5)
        #expect(statistics.mean == 2.5)
        #expect(abs(statistics.standardDeviation - 1.2909944487358056) < 1e-12)  // numpy.std(ddof=1)
    }
}
