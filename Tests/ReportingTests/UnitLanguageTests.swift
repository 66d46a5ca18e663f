import Foundation
import Probes
@testable import Reporting
import Testing

/// One unit language: times in the unit that fits with three significant
/// digits, counts grouped by thousands, the book's figures as it gives
/// them, a definition per counter.
@Suite struct UnitLanguageTests {
    @Test func aTimeTakesTheUnitThatFitsWithThreeDigits() {
        #expect(TimeText.seconds(0.006799) == "6.80 ms")
        #expect(TimeText.seconds(0.000256) == "256 µs")
        #expect(TimeText.seconds(1.2449) == "1.24 s")
        #expect(TimeText.seconds(30) == "30.0 s")
        #expect(TimeText.seconds(123.4) == "123 s")
        #expect(TimeText.seconds(4_321) == "4,321 s")
        #expect(TimeText.seconds(1.5e-8) == "15.0 ns")
        #expect(TimeText.seconds(2e-10) == "0.20 ns")
        #expect(TimeText.seconds(0) == "0 s")
        #expect(TimeText.seconds(-0.0025) == "-2.50 ms")
        #expect(TimeText.seconds(.nan) == "n/a" && TimeText.seconds(.infinity) == "n/a")
    }

    @Test func roundingToAThousandMovesUpAUnit() {
        #expect(TimeText.seconds(0.0009997) == "1.00 ms")
        #expect(TimeText.seconds(0.9996) == "1.00 s")
        #expect(TimeText.seconds(9.9996e-7) == "1.00 µs")
        // Just below: stays.
        #expect(TimeText.seconds(0.000999) == "999 µs")
        #expect(TimeText.seconds(0.0099996) == "10.0 ms")
    }

    @Test func aSourcesFigureKeepsItsOwnDigits() {
        #expect(TimeText.asGiven(30) == "30 s")
        #expect(TimeText.asGiven(0.6) == "0.6 s")
        #expect(TimeText.asGiven(0.007) == "0.007 s")
        #expect(TimeText.asGiven(1.5) == "1.5 s")
        let side = ExperimentReport.Side(label: "SingleFault", sourceSeconds: 30, sourceText: "just under 30 s", medianSeconds: 1, sqliteSeconds: 0, counters: [:])
        #expect(side.sourceFigure == "just under 30 s")
        var exact = side
        exact.sourceText = nil
        #expect(exact.sourceFigure == "30 s")
    }

    @Test func countsAreGroupedByThousands() {
        #expect(CountText.count(501_501) == "501,501")
        #expect(CountText.count(999) == "999")
        #expect(CountText.count(-1_000) == "-1,000")
        #expect(CountText.count(nil as Int?) == "-")
        #expect(CountText.number(250_000) == "250,000")
        #expect(CountText.number(0.4123) == "0.4123")
        #expect(CountText.figure("coldSeconds", 0.0347) == "34.7 ms")
        #expect(CountText.figure("namesRead", 500_500) == "500,500")
    }

    @Test func chartLabelsSpeakTheSameUnits() {
        #expect(SVGChart.format(0.006799, "s") == "6.80 ms")
        #expect(SVGChart.format(501_501, "") == "501,501")
        #expect(SVGChart.format(.nan, "s") == "n/a")
    }

    @Test func everyCounterHasOneDefinitionShownAsATooltipAndALegend() {
        for counter in CounterName.allCases { #expect(!CounterGlossary.definition(counter).isEmpty) }
        #expect(Set(CounterName.allCases.map(CounterGlossary.definition)).count == CounterName.allCases.count)
        #expect(CounterGlossary.definition(named: "notACounter") == nil)
        #expect(HTMLCell.counterHeading(.cacheMisses) == "<th title=\"\(CounterGlossary.definition(.cacheMisses))\">cacheMisses</th>")
        #expect(HTMLCell.counterHeading(named: "other") == "<th>other</th>")
        #expect(HTMLCell.count(1_024) == "<td data-value=\"1024\">1,024</td>")
        #expect(HTMLCell.time(0.0021) == "<td data-value=\"0.0021\">2.10 ms</td>")
        #expect(CounterGlossary.legend([.sqlStatements, .fetches, .sqlStatements])
            == ["sqlStatements: \(CounterGlossary.definition(.sqlStatements))", "fetches: \(CounterGlossary.definition(.fetches))"])
    }
}
