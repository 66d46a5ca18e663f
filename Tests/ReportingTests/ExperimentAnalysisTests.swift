import Foundation
@testable import Reporting
import Testing

/// The verdicts on published experiments and the reasons built from counters.
@Suite struct ExperimentAnalysisTests {
    static func interval(_ low: Double, _ high: Double) -> BootstrapRatio.Interval { .init(low: low, high: high) }

    @Test func eachVerdictFollowsTheRatioAndItsInterval() {
        // The book: 10x faster.
        #expect(ExperimentVerdict.judge(sourceRatio: 10, measuredRatio: 4, interval: Self.interval(3.5, 4.5)) == .reproduced)
        #expect(ExperimentVerdict.judge(sourceRatio: 10, measuredRatio: 3.1, interval: Self.interval(3, 3.2)) == .weaker)
        #expect(ExperimentVerdict.judge(sourceRatio: 10, measuredRatio: 1.14, interval: Self.interval(1.1, 1.2)) == .weaker)
        #expect(ExperimentVerdict.judge(sourceRatio: 10, measuredRatio: 1.1, interval: Self.interval(0.98, 1.2)) == .absent)
        #expect(ExperimentVerdict.judge(sourceRatio: 10, measuredRatio: 1.03, interval: Self.interval(1.01, 1.05)) == .absent)
        #expect(ExperimentVerdict.judge(sourceRatio: 10, measuredRatio: 0.8, interval: Self.interval(0.7, 0.9)) == .inverted)
        // The book: a little slower (BatchFault against SingleFault).
        #expect(ExperimentVerdict.judge(sourceRatio: 0.97, measuredRatio: 0.33, interval: Self.interval(0.3, 0.36)) == .reproduced)
        #expect(ExperimentVerdict.judge(sourceRatio: 0.5, measuredRatio: 0.8, interval: Self.interval(0.75, 0.85)) == .weaker)
        #expect(ExperimentVerdict.judge(sourceRatio: 0.97, measuredRatio: 1.5, interval: Self.interval(1.4, 1.6)) == .inverted)
        #expect(ExperimentVerdict.judge(sourceRatio: 10, measuredRatio: .infinity, interval: Self.interval(1, .infinity)) == .absent)
    }

    static func scenario(
        _ name: String, seconds: [Double], sqlite: Double, counters: [String: Int], status: ScenarioReport.Status = .passed,
        phases: [PhaseReport]? = nil, values: [String: Double] = [:]
    ) -> ScenarioReport {
        var report = ScenarioReport(
            name: name, description: "", dataSet: "selfies", status: status,
            samples: seconds.map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: nil) }, counters: counters,
            values: values, timeBreakdown: TimeBreakdown(sqliteSeconds: sqlite, rowCacheSeconds: 0, otherSeconds: 0))
        report.phases = phases
        return report
    }

    static let reference = ExperimentReference(
        name: "Slow vs Fast", lesson: "Fast is 10x faster.", source: "A book", sourceSetting: "a phone",
        kind: .timing(baseline: .init(scenario: "Slow", sourceSeconds: 30), treatment: .init(scenario: "Fast", sourceSeconds: 3)))

    @Test func aRoundTripEffectLostInMemoryWorkIsWeakerAndSaysWhy() throws {
        let slow = Self.scenario("Slow", seconds: [0.66, 0.65, 0.67], sqlite: 0.04, counters: [
            "sqlStatements": 1_502, "rowsRead": 2_001, "faultsFired": 500_500, "cacheHits": 499_000,
        ])
        let fast = Self.scenario("Fast", seconds: [0.58, 0.57, 0.59], sqlite: 0.03, counters: [
            "sqlStatements": 5, "rowsRead": 2_001, "faultsFired": 500_000, "cacheHits": 500_000,
        ])
        let experiments = ExperimentAnalysis.analyze([Self.reference], scenarios: [slow, fast])
        let experiment = try #require(experiments.first)
        #expect(experiment.sourceRatio == 10)
        #expect(abs((experiment.measuredRatio ?? 0) - 0.66 / 0.58) < 1e-12)
        #expect(experiment.verdict == .weaker)
        #expect(experiment.baseline?.counters["sqlStatements"] == 1_502)
        #expect(experiment.reason.hasPrefix("Slow ran 1,502 statements reading 2,001 rows, SQLite 40.0 ms of 660 ms (6%); "
            + "Fast ran 5 statements reading 2,001 rows, SQLite 30.0 ms of 580 ms (5%). "
            + "Slow takes 80.0 ms longer than Fast (1.14x its time): 10.0 ms more in SQLite and 70.0 ms more outside it."))
        #expect(experiment.reason.contains("1,497 fewer here"))
        #expect(experiment.reason.contains("Both sides fire at least 500,000 object faults (499,000 and 500,000 from the row cache)"))
        #expect(experiment.reason.contains("1,497 fewer here, at about 6.68 µs of SQLite time each"))
        #expect(experiment.reason.hasSuffix("that in-memory work, the same on both sides, dominates."))
        #expect(!experiment.reason.contains("still runs"))
    }

    @Test func roundTripsTheTreatmentKeepsAreSaid() throws {
        let slow = Self.scenario("Slow", seconds: [1.56, 1.55, 1.57], sqlite: 0.47, counters: [
            "sqlStatements": 501_501, "rowsRead": 1_001_000, "faultsFired": 500_500, "cacheHits": 0,
        ])
        let fast = Self.scenario("Fast", seconds: [1.33, 1.32, 1.34], sqlite: 0.44, counters: [
            "sqlStatements": 499_005, "rowsRead": 1_000_500, "faultsFired": 499_000, "cacheHits": 0,
        ])
        let experiment = try #require(ExperimentAnalysis.analyze([Self.reference], scenarios: [slow, fast]).first)
        #expect(experiment.verdict == .weaker)
        #expect(experiment.reason.contains("Fast still runs 499,005 statements, 100% of Slow's."))
        #expect(experiment.reason.hasSuffix(
            "the engine's side of each round trip (binding, reading the row, filling the object), the same on both sides."))
    }

    @Test func anEffectFromSQLIsReproducedAndNamedSo() throws {
        let slow = Self.scenario("Slow", seconds: [3, 3.1, 2.9], sqlite: 2.8, counters: ["sqlStatements": 1_000, "rowsRead": 1_000])
        let fast = Self.scenario("Fast", seconds: [0.3, 0.31, 0.29], sqlite: 0.1, counters: ["sqlStatements": 1, "rowsRead": 1_000])
        let experiment = try #require(ExperimentAnalysis.analyze([Self.reference], scenarios: [slow, fast]).first)
        #expect(experiment.verdict == .reproduced)
        #expect(experiment.reason.hasSuffix("As in the source, the difference is SQL work (999 fewer statements)."))
    }

    @Test func aSlowerTreatmentIsInvertedWithWhereItLostTime() throws {
        let slow = Self.scenario("Slow", seconds: [1, 1, 1], sqlite: 0.1, counters: ["sqlStatements": 10, "rowsRead": 10])
        let fast = Self.scenario("Fast", seconds: [2, 2, 2], sqlite: 1.5, counters: ["sqlStatements": 2, "rowsRead": 5_000])
        let experiment = try #require(ExperimentAnalysis.analyze([Self.reference], scenarios: [slow, fast]).first)
        #expect(experiment.verdict == .inverted)
        #expect(experiment.reason.hasSuffix("Fast is slower in SQLite (1.40 s more, for 5,000 rows in 2 statements against 10 in 10)."))
        // Slower on both counts: both are said.
        let both = Self.scenario("Fast", seconds: [2, 2, 2], sqlite: 0.8, counters: ["sqlStatements": 2, "rowsRead": 10])
        let twice = try #require(ExperimentAnalysis.analyze([Self.reference], scenarios: [slow, both]).first)
        #expect(twice.reason.hasSuffix(
            "Fast is slower in SQLite (700 ms more, for 10 rows in 2 statements against 10 in 10) and outside it, "
                + "in the engine's own work (300 ms more)."))
    }

    @Test func phasesAreSidesAndMissingOrFailedScenariosAreNotJudged() throws {
        let phases = [
            PhaseReport(name: "cold", samples: [0.6, 0.62], sqliteSeconds: [0.5, 0.5], counters: ["sqlStatements": 51]),
            PhaseReport(name: "warm", samples: [0.09, 0.1], sqliteSeconds: [0.001, 0.001], counters: ["sqlStatements": 1]),
        ]
        let cache = Self.scenario("Cache", seconds: [0.7], sqlite: 0.5, counters: [:], phases: phases)
        let reference = ExperimentReference(
            name: "Cache", lesson: "", source: "", sourceSetting: "",
            kind: .timing(baseline: .init(scenario: "Cache", phase: "cold", sourceSeconds: 0.6),
                          treatment: .init(scenario: "Cache", phase: "warm", sourceSeconds: 0.09)))
        let experiment = try #require(ExperimentAnalysis.analyze([reference], scenarios: [cache]).first)
        #expect(experiment.baseline?.label == "Cache: cold")
        #expect(experiment.baseline?.medianSeconds == 0.61)
        #expect(experiment.treatment?.sqliteSeconds == 0.001)
        #expect(experiment.reason.hasPrefix("Cache: cold ran 51 statements"))
        #expect(ExperimentAnalysis.analyze([Self.reference], scenarios: [Self.scenario("Slow", seconds: [1], sqlite: 0, counters: [:])]).isEmpty)
        let failed = Self.scenario("Fast", seconds: [], sqlite: 0, counters: [:], status: .failed)
        #expect(ExperimentAnalysis.analyze([Self.reference], scenarios: [Self.scenario("Slow", seconds: [1], sqlite: 0, counters: [:]), failed]).isEmpty)
    }

    @Test func aBehaviourIsReproducedOnlyWithItsFigures() throws {
        let reference = ExperimentReference(
            name: "DidFault", lesson: "", source: "", sourceSetting: "",
            kind: .behaviour(scenario: "DidFault", expectation: "a fault, then not", figures: ["before": 1, "afterRead": 0]))
        let right = Self.scenario("DidFault", seconds: [0.01], sqlite: 0, counters: ["fetches": 1, "sqlStatements": 3],
                                  values: ["before": 1, "afterRead": 0])
        let shown = try #require(ExperimentAnalysis.analyze([reference], scenarios: [right]).first)
        #expect(shown.verdict == .reproduced)
        #expect(shown.reason == "DidFault passed its checks; it recorded afterRead = 0, before = 1; it ran 1 fetch and 3 statements, "
            + "read 0 rows and fired 0 object faults.")
        let wrong = Self.scenario("DidFault", seconds: [0.01], sqlite: 0, counters: [:], values: ["before": 0, "afterRead": 0])
        let missed = try #require(ExperimentAnalysis.analyze([reference], scenarios: [wrong]).first)
        #expect(missed.verdict == .absent)
        #expect(missed.reason.hasSuffix("Expected before = 1."))
    }

    @Test func markdownAndHTMLShowTheExperimentsEscaped() throws {
        let slow = Self.scenario("Slow", seconds: [3, 3.1, 2.9], sqlite: 2.8, counters: ["sqlStatements": 1_000])
        let fast = Self.scenario("Fast", seconds: [0.3, 0.31, 0.29], sqlite: 0.1, counters: ["sqlStatements": 1])
        var reference = Self.reference
        reference.lesson = "<b>Fast</b> | wins"
        let report = Report(
            tool: .init(name: "perf-run", version: "0", commandLine: []),
            environment: .init(operatingSystem: "Linux", cpuModel: "cpu", cores: 2, swiftVersion: "6", sqliteVersion: "3",
                               buildConfiguration: "debug", gitCommit: nil, hostName: "h"),
            configuration: .init(scale: 1, seed: 1, iterations: 3, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: [slow, fast], experiments: ExperimentAnalysis.analyze([reference], scenarios: [slow, fast]))
        let markdown = ReportMarkdown.render(report)
        #expect(markdown.contains("| Slow vs Fast | 10x | 10x ("))
        #expect(markdown.contains("| reproduced | book: Slow 30 s, Fast 3 s; here: 3.00 s and 300 ms (medians). "
            + "Slow takes 2.70 s longer than Fast (10x its time): 2.70 s more in SQLite; "
            + "Slow runs 1,000 statements, Fast 1. A statement costs about 2.80 ms of SQLite here; Fast runs 999 fewer and "
            + "wins once a statement costs more than 97.3 µs, as it does here (the book's 10x at about 2.80 ms a statement). |"))
        let html = HTMLReport.render(report)
        #expect(html.contains("<h2>The book's experiments</h2>"))
        #expect(html.contains("&lt;b&gt;Fast&lt;/b&gt; | wins"))
        #expect(!html.contains("<b>Fast</b>"))
    }
}
