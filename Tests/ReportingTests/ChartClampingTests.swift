import Foundation
@testable import Reporting
import Testing

/// Values that are finite in JSON but overflow a chart's or a ratio's
/// arithmetic: charts clamp, ratios that are not finite are "n/a".
@Suite struct ChartClampingTests {
    static let huge = [1e308, 1.7e308, 1e308, 1.7e308, 1e308, 1.7e308, 1e308, 1.7e308, 1e308, 1.7e308]

    @Test func barsAndDotsClampWhatOverflows() {
        for items in [[("a", 1e308), ("b", 1.7e308)], [("a", 0.1), ("b", 1.7e308)], [("a", -1.0), ("b", 2.0)],
                      [("a", Double.nan), ("b", 1.0)], [("a", Double.infinity), ("b", 1.0)]] {
            let svg = SVGChart.bars(items.map { (label: $0.0, value: $0.1) })
            #expect(svg.hasPrefix("<svg"), "\(items)")
            #expect(!svg.contains("nan") && !svg.contains("inf\""), "\(items): \(svg)")
        }
        for values in [Self.huge, [0.1, 1.7e308], [Double.greatestFiniteMagnitude, 0], [0.1, Double.nan, 0.2]] {
            let svg = SVGChart.samples(values)
            #expect(svg.hasPrefix("<svg"), "\(values)")
            let xs = svg.components(separatedBy: "cx=\"").dropFirst().compactMap { Int($0.prefix { $0 != "\"" }) }
            #expect(xs.allSatisfy { (10...550).contains($0) }, "\(values): \(xs)")
        }
    }

    @Test func pagesOfHugeTimesRender() {
        let base = ReportComparisonTests.report([ReportComparisonTests.scenario(times: ReportComparisonTests.steady)])
        let huge = ReportComparisonTests.report([ReportComparisonTests.scenario(times: Self.huge)])
        #expect(HTMLReport.render(huge).contains("<svg class=\"chart samples\""))
        for (a, b) in [(base, huge), (huge, base), (huge, huge)] {
            let comparison = ReportComparer().compare(a, b)
            #expect(HTMLComparison.render(comparison).contains("<svg class=\"chart bars\""))
            #expect(throws: Never.self) { try ComparisonFormat.json.render(comparison) }
        }
    }

    @Test func aRatioOverABaseOfZeroIsNotApplicable() throws {
        let zero = ReportComparisonTests.report([ReportComparisonTests.scenario(times: [Double](repeating: 0, count: 10))])
        let base = ReportComparisonTests.report([ReportComparisonTests.scenario(times: ReportComparisonTests.steady)])
        let comparison = ReportComparer().compare(zero, base)
        let json = try ComparisonFormat.json.render(comparison)
        #expect(json.contains("\"ratio\" : null"), "\(json)")
        #expect(try ComparisonFormat.text.render(comparison).contains("0 s → 99.2 ms ×n/a"))
        #expect(try ComparisonFormat.markdown.render(comparison).contains("×n/a"))
        #expect(HTMLComparison.render(comparison).contains("×n/a"))
        // The JSON reads back (a noise floor may be an A/A comparison).
        #expect(try JSONDecoder().decode(ReportComparison.self, from: Data(json.utf8)).scenarios[0].timing?.verdict == comparison.scenarios[0].timing?.verdict)
    }
}
