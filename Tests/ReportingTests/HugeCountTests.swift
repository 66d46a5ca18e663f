import Foundation
@testable import Insights
import Probes
@testable import Reporting
@testable import SQLLogViewer
import Testing

/// Counts as large as a report or a log may hold (`Int.max`, which the
/// report reader accepts): every format, the comparison, the experiments
/// and the log analyzer add them up saturating, never trapping.
@Suite struct HugeCountTests {
    static let huge = Int.max

    /// A report in which every count is `Int.max`, the statements' rows
    /// and changes included, one shape listed twice.
    static func report() -> Report {
        let counters = Dictionary(uniqueKeysWithValues: Counters.names.map { ($0, huge) })
        let statement = StatementReport(
            shape: "UPDATE \"Selfie\" SET \"rating\" = ? WHERE pk = ?", purpose: "save", count: huge, totalSeconds: 1, maxSeconds: 1,
            rowsReturned: huge, rowsChanged: huge, fullScanSteps: huge, firstCallSite: "App/Save.swift:3", queryPlan: nil)
        var insight = Insight(
            rule: .fullScan, entity: "Selfie", keyPath: "rating", message: "full table scans of Selfie", evidence: statement.shape,
            callSite: "App/Save.swift:3", count: huge, fix: InsightFix(kind: .index, entity: "Selfie", keyPath: "rating"), costSeconds: 1)
        let side = WhatIfOutcome.Side(counters: counters, samples: [0.2, 0.2, 0.2])
        insight.whatIf = WhatIfOutcome(
            fix: insight.fix!, before: side, after: WhatIfOutcome.Side(counters: counters, samples: [0.1, 0.1, 0.1]), ratio: 0.5,
            ratioLow: 0.4, ratioHigh: 0.6, verdict: .faster, reason: "faster")
        var scenario = ScenarioReport(
            name: "Huge", description: "counts at their largest", dataSet: "selfies", status: .passed,
            samples: [0.1, 0.2, 0.3].map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: huge) },
            counters: counters, values: ["objects": Double(huge)], statements: [statement, statement], insights: [insight])
        scenario.phases = [PhaseReport(name: "cold", samples: [0.1, 0.2], sqliteSeconds: [0.05, 0.05], counters: counters)]
        scenario.traceCounters = counters
        scenario.droppedEvents = huge
        let experimentSide = ExperimentReport.Side(label: "Huge", sourceSeconds: 1, medianSeconds: 0.2, sqliteSeconds: 0.1, counters: counters)
        return Report(
            tool: .init(name: "perf-run", version: "0.1.0", commandLine: ["perf-run", "run"]),
            environment: .init(operatingSystem: "Debian", cpuModel: "CPU", cores: huge, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "release", gitCommit: nil, hostName: "ci"),
            configuration: .init(scale: 1, seed: UInt64.max, iterations: huge, warmup: huge, store: .file, timeoutSeconds: nil,
                                 insightThresholds: ["full-scan": huge]),
            scenarios: [scenario],
            experiments: [ExperimentReport(
                name: "Huge vs Huge", lesson: "none", source: "a test", sourceSetting: "here", baseline: experimentSide, treatment: experimentSide,
                sourceRatio: 1, measuredRatio: 1, ratioInterval: [0.9, 1.1], verdict: .absent, reason: "the same")])
    }

    /// The report is one `perf-run report` accepts: written and read back.
    @Test func theReportOfHugeCountsIsValid() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReportFile.json(Self.report()).write(to: URL(fileURLWithPath: path))
        #expect(try ReportFile.read(path) == Self.report())
    }

    @Test func everyFormatRendersHugeCounts() throws {
        let report = Self.report()
        let html = HTMLReport.render(report)
        // rowsReturned + rowsChanged, saturated; the scan its insight names marked.
        #expect(html.contains("<td data-value=\"\(Int.max)\">\(Int.max.groupedDigits)</td><td data-value=\"\(Int.max)\">\(Int.max.groupedDigits) ⚠</td>"))
        #expect(ReportMarkdown.render(report).contains("| Huge | passed |"))
        #expect(ReportText.summaryTable(report).contains(Int.max.groupedDigits))
        #expect(ReportText.experimentTable(report)?.contains("Huge vs Huge") == true)
        #expect(ReportText.fixFirst(report)?.contains("saves 100 ms per iteration (measured)") == true)
    }

    @Test func aComparisonOfHugeCountsAddsAShapeListedTwiceSaturating() throws {
        let report = Self.report()
        var smaller = report
        smaller.scenarios[0].statements = [smaller.scenarios[0].statements[0]]
        smaller.scenarios[0].statements[0].count = 1
        let comparison = ReportComparer().compare(smaller, report)
        let change = try #require(comparison.scenarios[0].statements.first)
        #expect(change.change == .grew)
        #expect(change.baseCount == 1)
        #expect(change.headCount == Int.max)
        #expect(HTMLComparison.render(comparison).contains("grew (1 → \(Int.max.groupedDigits))"))
        for format in [ComparisonFormat.text, .markdown, .json] {
            #expect(throws: Never.self) { try format.render(comparison) }
        }
    }

    @Test func experimentsOfHugeCountsGiveTheirReason() throws {
        let slow = ExperimentAnalysisTests.scenario("Slow", seconds: [0.66, 0.65, 0.67], sqlite: 0.04, counters: [
            "sqlStatements": Int.max, "rowsRead": Int.max, "faultsFired": Int.max, "cacheHits": Int.max,
        ])
        let fast = ExperimentAnalysisTests.scenario("Fast", seconds: [0.58, 0.57, 0.59], sqlite: 0.03, counters: [
            "sqlStatements": 5, "rowsRead": Int.max, "faultsFired": Int.max, "cacheHits": Int.max,
        ])
        let experiment = try #require(ExperimentAnalysis.analyze([ExperimentAnalysisTests.reference], scenarios: [slow, fast]).first)
        #expect(experiment.verdict == .weaker)
        // Twice the statements saved is more than Slow ran (saturated): no "still runs".
        #expect(experiment.reason.contains("\((Int.max - 5).groupedDigits) fewer here"))
        #expect(!experiment.reason.contains("still runs"))
        #expect(experiment.reason.hasSuffix("that in-memory work, the same on both sides, dominates."))
    }

    // MARK: Logs

    static func analyze(_ lines: [String]) -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer()
        for line in lines { analyzer.consume(line: Data(line.utf8)) }
        return analyzer.finish()
    }

    @Test func twoHugeRowCountsOfOneShapeAddUpToIntMax() throws {
        let statement = "faultline: sql: SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"rating\" < ?"
        let figures = "rows: \(Int.max), changed: 0, scanned: \(Int.max), sorts: \(Int.max), purpose: fetch Selfie"
        let analysis = Self.analyze([
            statement, "faultline: details: bind[0] = 3", "faultline: annotation: sql execution time: 0.000010s, \(figures)",
            statement, "faultline: details: bind[0] = 4", "faultline: annotation: sql execution time: 0.000010s, \(figures)",
        ])
        #expect(analysis.statements.count == 1)
        #expect(analysis.statements[0].count == 2)
        #expect(analysis.statements[0].rows == Int.max)
    }

    @Test func hugeRowsOfCoreDataFetchesAddUpToIntMax() {
        let analysis = Self.analyze([
            "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0", "CoreData: annotation: sql connection fetch time: 0.0001s",
            "CoreData: annotation: total fetch execution time: 0.0002s for \(Int.max) rows.",
            "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0", "CoreData: annotation: sql connection fetch time: 0.0001s",
            "CoreData: annotation: total fetch execution time: 0.0002s for \(Int.max) rows.",
        ])
        #expect(analysis.rowCountAnnotations == 2)
        #expect(analysis.rowsReported == Int.max)
        #expect(analysis.statements.map(\.rows) == [Int.max])
    }

    @Test func hugeFiguresOfScansSortsSavesAndPrefetchesSaturateInTheInsights() throws {
        let select = "faultline: sql: SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"name\" = ? ORDER BY t0.\"rating\""
        let figures = "rows: 1, changed: 0, scanned: \(Int.max), sorts: \(Int.max), purpose: fetch Selfie"
        var lines: [String] = []
        for value in 1...2 {
            lines += [select, "faultline: details: bind[0] = '\(value)'", "faultline: annotation: sql execution time: 0.000010s, \(figures)"]
        }
        for _ in 1...3 {
            lines.append("faultline: annotation: save of context main: \(Int.max) inserted, \(Int.max) updated, \(Int.max) deleted in 0.000100s at App/Save.swift:9")
            lines.append("faultline: annotation: prefetch of Selfie.people in context main: prefetched for \(Int.max) objects, read for 0, at App/List.swift:4")
            lines.append("faultline: annotation: fetch use of Selfie in context main: \(Int.max) runs, \(Int.max) objects, 1 read; \(Int.max) runs "
                + "read none, up to \(Int.max) objects; up to \(Int.max - 1) of \(Int.max) unread without batch size, at App/List.swift:6")
        }
        let analysis = Self.analyze(lines)
        #expect(analysis.insights.first { $0.rule == .fullScan }?.count == Int.max)
        #expect(analysis.insights.first { $0.rule == .sortWithoutIndex }?.count == Int.max)
        #expect(analysis.insights.first { $0.rule == .unusedPrefetch }?.count == Int.max)
        let saves = try #require(analysis.insights.first { $0.rule == .saveInLoop })
        #expect(saves.count == 3)
        #expect(saves.evidence == "3 saves, \(Int.max) objects in all, in context main first")
        let counting = try #require(analysis.insights.first { $0.rule == .countByFetch })
        #expect(counting.count == Int.max)
        #expect(counting.evidence == "\(Int.max) runs, \(Int.max) objects, 3 read; \(Int.max) runs read none, up to \(Int.max) objects")
        #expect(analysis.insights.first { $0.rule == .fetchWithoutBatchSize }?.count == Int.max - 1)
    }

    @Test func aLogAnalysisOfHugeCountsRendersEverywhere() throws {
        var analysis = SQLLogAnalysis()
        analysis.logLines = 2
        analysis.statements = [
            .init(shape: "SELECT 1", count: Int.max, duplicates: Int.max, totalSeconds: 1, maxSeconds: 1, rows: Int.max, firstLine: 1),
            .init(shape: "SELECT 2", count: Int.max, duplicates: 0, totalSeconds: 1, maxSeconds: 1, rows: Int.max, firstLine: 2),
        ]
        analysis.timeline = [.init(statements: Int.max, faults: 1, seconds: 1), .init(statements: 1, faults: Int.max, seconds: 1)]
        analysis.linesPerBucket = Int.max
        #expect(SQLLogText.render(analysis).contains("\(Int.max.groupedDigits) statements in 2 shapes"))
        let page = HTMLLogAnalysis.render(analysis, title: "huge")
        #expect(page.contains("\(Int.max.groupedDigits) statements in 2 shapes"))
        #expect(page.contains("<title>lines \(Int.max)–\(Int.max): \(Int.max.groupedDigits) faults</title>"))
    }

    @Test func saturatingArithmeticHoldsAtTheEnds() {
        #expect(Int.max.addingSaturated(1) == Int.max)
        #expect(Int.min.addingSaturated(-1) == Int.min)
        #expect(5.addingSaturated(-7) == -2)
        #expect(Int.max.multipliedSaturated(by: 2) == Int.max)
        #expect(Int.max.multipliedSaturated(by: -2) == Int.min)
        #expect((-3).multipliedSaturated(by: 4) == -12)
        #expect([Int.max, 1, 2].saturatedSum() == Int.max)
        #expect(Double.greatestFiniteMagnitude.addingSaturated(.greatestFiniteMagnitude) == .greatestFiniteMagnitude)
        #expect((-Double.greatestFiniteMagnitude).addingSaturated(-.greatestFiniteMagnitude) == -.greatestFiniteMagnitude)
        #expect(Double.infinity.addingSaturated(1) == .infinity)
        #expect(1.5.addingSaturated(2) == 3.5)
    }
}
