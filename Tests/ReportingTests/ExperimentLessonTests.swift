import Foundation
import Insights
import Probes
@testable import Reporting
import Testing

/// The book's lessons as a reader takes them: which way is faster and by
/// how much, from which cost per statement the recommended way wins, and
/// the chart of book against measured ratios.
@Suite struct ExperimentLessonTests {
    static func side(_ label: String, median: Double, sqlite: Double, statements: Int) -> ExperimentReport.Side {
        ExperimentReport.Side(label: label, sourceSeconds: 1, medianSeconds: median, sqliteSeconds: sqlite, counters: ["sqlStatements": statements])
    }

    static let singleFault = side("SingleFault", median: 0.192, sqlite: 0.0547, statements: 2_001)
    static let prefetch = side("Prefetch", median: 0.203, sqlite: 0.0596, statements: 5)

    @Test func prefetchingWinsOnceAStatementCostsMoreThanTheBreakEven() throws {
        let breakEven = try #require(StatementBreakEven(baseline: Self.singleFault, treatment: Self.prefetch, sourceRatio: 10))
        #expect(breakEven.fewerStatements == 1_996)
        #expect(breakEven.statementSeconds == 0.0547 / 2_001)
        // At the break-even both sides take the same time, each statement
        // costing that much more than here.
        let added = breakEven.breakEvenSeconds - breakEven.statementSeconds
        #expect(abs((0.192 + 2_001 * added) - (0.203 + 5 * added)) < 1e-12)
        #expect(!breakEven.winsHere)
        // The book's 10x: the baseline ten times the treatment.
        let needed = try #require(breakEven.sourceRatioSeconds) - breakEven.statementSeconds
        #expect(abs((0.192 + 2_001 * needed) - 10 * (0.203 + 5 * needed)) < 1e-12)
        var experiment = ExperimentReport(
            name: "SingleFault vs Prefetch", lesson: "", source: "", sourceSetting: "", baseline: Self.singleFault, treatment: Self.prefetch,
            sourceRatio: 10, measuredRatio: 0.192 / 0.203, ratioInterval: [0.93, 0.97], verdict: .inverted, reason: "", breakEven: breakEven)
        #expect(experiment.breakEvenSentence == "A statement costs about 27.3 µs of SQLite here; Prefetch runs 1,996 fewer and would win once a "
            + "statement costs more than 32.8 µs (the book's 10x at about 969 µs a statement).")
        #expect(experiment.mechanism == "Prefetch takes 11.0 ms longer than SingleFault (1.06x its time): 4.90 ms more in SQLite and "
            + "6.10 ms more outside it; SingleFault runs 2,001 statements, Prefetch 5.")
        // A report written before the break-even gets the one its sides give.
        let said = experiment.breakEvenSentence
        experiment.breakEven = nil
        #expect(experiment.statementBreakEven == breakEven && experiment.breakEvenSentence == said)
        experiment.sourceRatio = 0.97
        #expect(experiment.breakEvenSentence == nil)
    }

    @Test func aRecommendedWayAlreadyFasterSaysWhereItWins() throws {
        // Fewer statements and faster here: from 300 µs a statement, which a statement costs more than here.
        let slow = Self.side("OneByOne", median: 1.0, sqlite: 0.5, statements: 1_000)
        let fast = Self.side("Batch", median: 0.9, sqlite: 0.2, statements: 500)
        let wins = try #require(StatementBreakEven(baseline: slow, treatment: fast, sourceRatio: 2))
        #expect(abs(wins.breakEvenSeconds - 0.0003) < 1e-12 && wins.winsHere)
        let experiment = ExperimentReport(
            name: "x", lesson: "", source: "", sourceSetting: "", baseline: slow, treatment: fast, sourceRatio: 2, measuredRatio: 1.11,
            verdict: .weaker, reason: "", breakEven: wins)
        #expect(try #require(experiment.breakEvenSentence).contains("Batch runs 500 fewer and wins once a statement costs more than 300 µs, as it does here"))
        // Faster even with no statement cost: at any cost.
        let cold = Self.side("Cache: cold", median: 0.0347, sqlite: 0.0259, statements: 1_001)
        let warm = Self.side("Cache: warm", median: 0.00152, sqlite: 0.00023, statements: 1)
        let always = try #require(StatementBreakEven(baseline: cold, treatment: warm, sourceRatio: 6.67))
        #expect(always.breakEvenSeconds == 0 && always.winsHere)
        var cache = ExperimentReport(
            name: "Cache", lesson: "", source: "", sourceSetting: "", baseline: cold, treatment: warm, sourceRatio: 6.67, measuredRatio: 23,
            verdict: .reproduced, reason: "", breakEven: always)
        #expect(try #require(cache.breakEvenSentence).contains("Cache: warm runs 1,000 fewer and wins at any cost per statement"))
        // Faster by a difference the measurement cannot tell from noise: not a win.
        cache.verdict = .absent
        #expect(try #require(cache.breakEvenSentence).contains("takes the same time here within the noise"))
    }

    @Test func aRatioNoStatementCostGivesIsSaid() throws {
        // Every refault a round trip: prefetching saves 2,496 of 501,501
        // statements, and no cost per statement makes that 10x.
        let single = Self.side("SingleFaultStaleness0", median: 1.53, sqlite: 0.499, statements: 501_501)
        let prefetch = Self.side("PrefetchStaleness0", median: 1.44, sqlite: 0.496, statements: 499_005)
        let breakEven = try #require(StatementBreakEven(baseline: single, treatment: prefetch, sourceRatio: 10))
        #expect(breakEven.sourceRatioSeconds == nil && breakEven.fewerStatements == 2_496)
        let experiment = ExperimentReport(
            name: "x", lesson: "", source: "", sourceSetting: "", baseline: single, treatment: prefetch, sourceRatio: 10, measuredRatio: 1.06,
            verdict: .weaker, reason: "", breakEven: breakEven)
        #expect(try #require(experiment.breakEvenSentence).hasSuffix(
            "wins at any cost per statement; no cost per statement gives the book's 10x: PrefetchStaleness0 still runs 499,005 statements of its own."))
    }

    @Test func noBreakEvenWhereTheAdviceSavesNoStatements() {
        // The book says the treatment is slower, or it runs as many or more statements, or nothing was timed in SQLite.
        #expect(StatementBreakEven(baseline: Self.singleFault, treatment: Self.prefetch, sourceRatio: 0.97) == nil)
        #expect(StatementBreakEven(baseline: Self.side("a", median: 1, sqlite: 0.5, statements: 10),
                                   treatment: Self.side("b", median: 1, sqlite: 0.5, statements: 10), sourceRatio: 2) == nil)
        #expect(StatementBreakEven(baseline: Self.prefetch, treatment: Self.singleFault, sourceRatio: 10) == nil)
        #expect(StatementBreakEven(baseline: Self.side("a", median: 1, sqlite: 0, statements: 10),
                                   treatment: Self.side("b", median: 1, sqlite: 0, statements: 1), sourceRatio: 2) == nil)
        // The book's ratio out of reach: the treatment's own statements grow as fast.
        let reach = StatementBreakEven(baseline: Self.side("a", median: 1, sqlite: 0.5, statements: 10),
                                       treatment: Self.side("b", median: 2, sqlite: 0.5, statements: 5), sourceRatio: 3)
        #expect(reach?.sourceRatioSeconds == nil && reach != nil)
    }

    @Test func theAnalysisWorksItOutAndSaysDifferencesWithoutSigns() throws {
        let reference = ExperimentReference(
            name: "Slow vs Fast", lesson: "Fast is 10x faster.", source: "A book", sourceSetting: "a phone",
            kind: .timing(baseline: .init(scenario: "Slow", sourceSeconds: 30, sourceWords: "just under 30 s"),
                          treatment: .init(scenario: "Fast", sourceSeconds: 3)))
        let slow = ExperimentAnalysisTests.scenario("Slow", seconds: [1, 1, 1], sqlite: 0.1, counters: ["sqlStatements": 10, "rowsRead": 10])
        let fast = ExperimentAnalysisTests.scenario("Fast", seconds: [2, 2, 2], sqlite: 1.5, counters: ["sqlStatements": 2, "rowsRead": 5_000])
        let experiment = try #require(ExperimentAnalysis.analyze([reference], scenarios: [slow, fast]).first)
        #expect(experiment.reason.contains("Fast takes 1.00 s longer than Slow (2.00x its time): 1.40 s more in SQLite and 400 ms less outside it."))
        #expect(!experiment.reason.contains("−") && !experiment.reason.contains("+"))
        #expect(experiment.breakEven?.fewerStatements == 8)
        #expect(experiment.baseline?.sourceText == "just under 30 s" && experiment.treatment?.sourceText == nil)
        #expect(experiment.sidesText == "book: Slow just under 30 s, Fast 3 s; here: 1.00 s and 2.00 s (medians)")
        // A report written before the break-even reads as it was.
        var json = try JSONEncoder().encode(experiment)
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        object["breakEven"] = nil
        json = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(ExperimentReport.self, from: json).breakEven == nil)
    }

    /// The terminal's table says under each experiment what the page and
    /// the Markdown say: the mechanism, then the break-even cost per
    /// statement where there is one; a behaviour, what the scenario showed.
    @Test func theTerminalSaysTheMechanismAndTheBreakEvenUnderEachRow() throws {
        let breakEven = try #require(StatementBreakEven(baseline: Self.singleFault, treatment: Self.prefetch, sourceRatio: 10))
        let timed = ExperimentReport(
            name: "SingleFault vs Prefetch", lesson: "About 10x faster.", source: "the book", sourceSetting: "a phone",
            baseline: Self.singleFault, treatment: Self.prefetch, sourceRatio: 10, measuredRatio: 0.95, ratioInterval: [0.93, 0.97],
            verdict: .inverted, reason: "why", breakEven: breakEven)
        let behaviour = ExperimentReport(
            name: "Uniquing", lesson: "One object per row.", source: "the book", sourceSetting: "a phone", expectation: "the same object",
            verdict: .reproduced, reason: "passed")
        var report = TimeBreakdownTests.report([])
        report.experiments = [timed, behaviour]
        let table = try #require(ReportText.experimentTable(report))
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("experiment ") && lines[0].hasSuffix("verdict"))
        #expect(lines[1].hasPrefix("SingleFault vs Prefetch  10x") && lines[1].hasSuffix("inverted"))
        #expect(lines[2] == "  " + timed.mechanism)
        #expect(lines[2].contains("Prefetch takes 11.0 ms longer than SingleFault") && lines[2].contains("SingleFault runs 2,001 statements, Prefetch 5."))
        #expect(lines[3] == "  " + (timed.breakEvenSentence ?? ""))
        #expect(lines[3].contains("A statement costs about 27.3 µs of SQLite here; Prefetch runs 1,996 fewer and would win once a statement "
            + "costs more than 32.8 µs"))
        // A behaviour has a mechanism and no break-even: the ratio note follows.
        #expect(lines[4].hasPrefix("Uniquing ") && lines[4].hasSuffix("reproduced"))
        #expect(lines[5] == "  Seen here: the same object.")
        #expect(lines[6] == ExperimentReport.ratioNote && lines.count == 7)
        // The run's summary holds the table; the Markdown says the same sentences.
        #expect(ReportText.console(report).contains(table))
        #expect(ReportMarkdown.render(report).contains(escapeMarkdown(timed.lessonSentences.joined(separator: " "))))
        #expect(timed.lessonSentences == [timed.mechanism, try #require(timed.breakEvenSentence)] && behaviour.lessonSentences.count == 1)
    }

    @Test func thePageChartsBookAgainstMeasuredOnALogScale() throws {
        let timed = ExperimentReport(
            name: "SingleFault vs Prefetch", lesson: "About 10x faster.", source: "the book", sourceSetting: "a phone",
            baseline: Self.singleFault, treatment: Self.prefetch, sourceRatio: 10, measuredRatio: 0.95, ratioInterval: [0.93, 0.97],
            verdict: .inverted, reason: "why", breakEven: StatementBreakEven(baseline: Self.singleFault, treatment: Self.prefetch, sourceRatio: 10))
        let behaviour = ExperimentReport(
            name: "Uniquing <x>", lesson: "One object per row.", source: "the book", sourceSetting: "a phone", expectation: "the same object",
            verdict: .reproduced, reason: "passed")
        var report = TimeBreakdownTests.report([])
        report.experiments = [timed, behaviour]
        let html = HTMLReport.render(report)
        let axis = HTMLExperiments.Axis([timed, behaviour])
        // From 0.1x to 100x: every ratio and 1 on it.
        #expect(axis.low == 0.1 && axis.high == 100)
        // 1x a third of the way along: one decade of three.
        let span = HTMLExperiments.plot.right - HTMLExperiments.plot.left
        #expect(axis.x(1) == HTMLExperiments.plot.left + SVGChart.position(1.0 / 3, across: span))
        #expect(axis.x(10) > axis.x(1) && axis.x(0.95) < axis.x(1) && axis.x(.nan) == HTMLExperiments.plot.left)
        #expect(html.contains("<polygon class=\"book\" points=\"\(axis.x(10)),4 "))
        #expect(html.contains("<circle class=\"measured\" cx=\"\(axis.x(0.95))\" cy=\"11\" r=\"5\" fill=\"#b02a2a\">"))
        #expect(html.contains("class=\"interval\" x1=\"\(axis.x(0.93))\""))
        // Under the row, the mechanism and the break-even; the behaviour's name escaped.
        #expect(html.contains("<p class=\"mechanism\">\(escapeHTML(timed.mechanism))</p><p class=\"break-even\">"))
        #expect(html.contains("Uniquing &lt;x&gt;") && !html.contains("Uniquing <x>"))
        #expect(html.contains("<p class=\"mechanism\">Seen here: the same object.</p>"))
        // The figures and reasons stay, folded.
        #expect(html.contains("<details class=\"experiment-details\"><summary>Figures and reasons</summary>"))
        #expect(html.contains("book: SingleFault 1 s, Prefetch 1 s; here: 192 ms and 203 ms (medians)"))
    }
}
