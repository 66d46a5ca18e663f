import Foundation
import Insights
import Probes
@testable import Reporting
import Testing

/// How the report page leads a reader: failures first with their reasons,
/// the contents, the folds, the scans it warns of, the timelines per
/// scenario, and the insights on purpose folded away (HTML and Markdown).
/// ReportPageTests (ScenariosTests) reads a real run's page in a browser.
@Suite struct ReportPageLayoutTests {
    static func failedRun() -> Report {
        var report = HTMLReportTests.report()
        report.scenarios[1].status = .failed
        report.scenarios[1].error = "stopped: timed out after 0.3 s"
        report.scenarios[1].samples = []
        report.scenarios[1].counters = [:]
        report.scenarios[1].timeBreakdown = nil
        report.scenarios[2].insights = [Insight(
            rule: .nPlusOne, entity: "Selfie", keyPath: "people", message: "N+1 on people", evidence: "", callSite: "App/A.swift:3",
            costSeconds: 0.002)]
        return report
    }

    @Test func aFailureLeadsWithItsReasonAndItsRowSaysWhy() throws {
        let html = HTMLReport.render(Self.failedRun())
        let failures = try #require(html.range(of: "<section class=\"failures\"><h2>Failures <span class=\"count\">1</span></h2>"))
        let fixFirst = try #require(html.range(of: "<h2>What to fix first</h2>"))
        #expect(failures.lowerBound < fixFirst.lowerBound)
        #expect(html.contains("<li class=\"failed\"><a href=\"#scenario-SingleFault\">SingleFault</a> <span class=\"status failed\">failed</span>: "
            + "<span class=\"reason\">stopped: timed out after 0.3 s</span></li>"))
        #expect(html.contains("<td>failed</td><td colspan=\"5\" class=\"reason\">stopped: timed out after 0.3 s</td></tr>"))
        #expect(html.contains("<p class=\"headline failed\">3 scenarios: 2 passed, 1 failed;"))
        // The contents: every part's link, the failed scenario marked.
        #expect(html.contains("<a href=\"#part-failures\">Failures <span class=\"note\">1</span></a>"))
        #expect(html.contains("<a href=\"#scenario-SingleFault\" class=\"failed\">SingleFault <span class=\"note\">failed</span></a>"))
        for id in ["part-failures", "part-fix-first", "part-run", "part-scenarios", "scenario-SingleFault", "top"] {
            #expect(html.contains("id=\"\(id)\""), "no part \(id)")
        }
    }

    @Test func aRunThatPassedHasNoFailuresSection() {
        let html = HTMLReport.render(HTMLReportTests.report())
        #expect(!html.contains("class=\"failures\"") && !html.contains("#part-failures"))
        #expect(html.contains("<p class=\"headline\">3 scenarios: 3 passed;"))
        // A skipped scenario is said as such.
        var report = HTMLReportTests.report()
        report.scenarios[0].status = .skipped
        report.scenarios[0].error = "needs a file store: it saves"
        #expect(HTMLReport.render(report).contains("<h2>Skipped <span class=\"count\">1</span></h2>"))
    }

    @Test func everyTableScrollsInItsOwnBoxAndTheFilterStillFindsIt() {
        let html = HTMLReport.render(HTMLReportTests.report())
        let tables = html.components(separatedBy: "<table").count - 1
        #expect(tables > 3)
        #expect(html.components(separatedBy: "<div class=\"scroll\"><table").count - 1 == tables)
        #expect(html.components(separatedBy: "</table></div>").count - 1 == tables)
        #expect(html.contains("<input class=\"filter\" type=\"search\" placeholder=\"filter statements\"><div class=\"scroll\"><table"))
    }

    /// The report whose full-scan insight names its statement's shape.
    static func warned() -> Report {
        var report = HTMLReportTests.report()
        report.scenarios[0].insights[0].evidence = report.scenarios[0].statements[0].shape
        return report
    }

    @Test func longPartsAreFoldedUnderWhatTheyHold() {
        let html = HTMLReport.render(Self.warned())
        #expect(html.contains("<details class=\"fold\"><summary><h3>SQL statements</h3> <span class=\"inside\">1 shape, 3 executions, 1 full scan to fix</span></summary>"))
        #expect(html.contains("<details class=\"fold\"><summary><h3>Counters (one measured iteration)</h3> <span class=\"inside\">2 counters</span></summary>"))
    }

    /// A scan is a warning only where the full-scan rule advises against it.
    @Test func onlyScansTheRulesAdviseAgainstAreMarked() throws {
        let warned = HTMLReport.render(Self.warned())
        #expect(warned.contains("<tr class=\"full-scan\">") && warned.contains("<td data-value=\"27\">27 ⚠</td>"))
        // The rule said nothing of it (its insight is of another shape, or there is none).
        for asked in [HTMLReportTests.report(), { var report = Self.warned(); report.scenarios[0].insights = []; return report }()] {
            let unwarned = HTMLReport.render(asked)
            #expect(unwarned.contains("<tr class=\"scan-on-purpose\">") && unwarned.contains("<td data-value=\"27\">27</td>"))
            #expect(!unwarned.contains("⚠") && !unwarned.contains("class=\"full-scan\""))
        }
        var intended = Self.warned()
        intended.scenarios[0].insights[0].intended = "reads every row to show a scan"
        #expect(!HTMLReport.render(intended).contains("⚠"))
    }

    @Test func insightsOnPurposeAreFoldedAwayWithTheirCount() throws {
        var report = HTMLReportTests.report()
        var onPurpose = report.scenarios[0].insights[0]
        onPurpose.intended = "the scenario shows it"
        let other = Insight(rule: .nPlusOne, entity: "Selfie", keyPath: "people", message: "N+1 on people", evidence: "", callSite: "App/A.swift:3")
        report.scenarios[0].insights = [onPurpose, onPurpose, other]
        let html = HTMLReport.render(report)
        let folded = try #require(html.range(of: "<details class=\"fold on-purpose\"><summary>2 insights on purpose here"))
        let shown = try #require(html.range(of: "<strong>N+1 on people</strong>"))
        #expect(shown.lowerBound < folded.lowerBound)
        #expect(html[folded.lowerBound...].components(separatedBy: "on purpose here: the scenario shows it").count - 1 == 2)

        let markdown = ReportMarkdown.render(report)
        let lines = markdown.components(separatedBy: "\n")
        let details = try #require(lines.firstIndex(of: "<details><summary>2 insights on purpose here (the scenario does it to show it)</summary>"))
        let bullet = try #require(lines.firstIndex { $0.hasPrefix("- N+1 on people") })
        #expect(bullet < details)
        #expect(lines[(details + 1)...].prefix { $0 != "</details>" }.filter { $0.contains(": on purpose here, the scenario shows it") }.count == 2)
        // None on purpose: no fold.
        #expect(!ReportMarkdown.render(HTMLReportTests.report()).contains("<details>"))
    }

    static func scenarioEvents(_ name: String, from start: UInt64) -> [Event] {
        let site = CallSite(file: "App/A.swift", line: 1)
        return [
            .scenario(ScenarioEvent(start: start, thread: 1, scenario: name, phase: .iterationBegin, step: "", iteration: 1)),
            .fetch(FetchEvent(start: start + 1_000, durationNanoseconds: 5_000, thread: 1, context: "main", entity: "Selfie", predicate: "",
                              sort: "", resultType: "objects", resultCount: 3, fetchLimit: 0, fetchOffset: 0, fetchBatchSize: 0,
                              returnsObjectsAsFaults: true, includesPropertyValues: true, includesPendingChanges: true, prefetch: "", callSite: site)),
            .fault(FaultEvent(start: start + 7_000, durationNanoseconds: 500, thread: 1, context: "main", entity: "Selfie", primaryKey: 1,
                              source: .database, callSite: site)),
            .scenario(ScenarioEvent(start: start + 9_000, thread: 1, scenario: name, phase: .iterationEnd, step: "", iteration: 1)),
        ]
    }

    /// Two scenarios a second apart: each on its own axis, from the
    /// recorded events and from the trace file alike.
    @Test func eachScenarioHasItsOwnTimeline() throws {
        let events = Self.scenarioEvents("SingleFault", from: 1_000_000) + Self.scenarioEvents("Prefetch", from: 1_001_000_000)
        let timeline = Timeline(events: events)
        #expect(timeline.parts.map(\.scenario) == ["SingleFault", "Prefetch"])
        #expect(timeline.parts.map { $0.slices.filter { $0.kind == .fetch || $0.kind == .fault }.count } == [2, 2])
        let read = try Timeline(traceEvents: try TraceEventFile.render(events, processID: 1), path: "trace.json")
        #expect(read.parts.map(\.scenario) == ["SingleFault", "Prefetch"])
        #expect(read.parts.map { $0.slices.count } == [2, 2])

        let html = HTMLTimeline.render(timeline)
        #expect(html.components(separatedBy: "<details class=\"fold timeline\"").count - 1 == 2)
        #expect(html.contains("<summary><h3>SingleFault</h3> <span class=\"inside\">2 events over 6.50 µs</span></summary>"))
        #expect(html.contains("<summary><h3>Prefetch</h3> <span class=\"inside\">2 events over 6.50 µs</span></summary>"))
        // Each axis spans its own scenario: its fetch starts at 0 and its fault ends at 1,000.
        #expect(html.components(separatedBy: "<rect x=\"0.000\" y=\"3\" width=\"769.231\"").count - 1 == 2)
        #expect(html.components(separatedBy: "<rect x=\"923.077\" y=\"21\" width=\"76.923\"").count - 1 == 2)
        #expect(html.contains("data-zoom=\"in\"") && html.contains("class=\"pan\""))
    }

    /// Events no scenario event follows (a timeline from before scenarios
    /// were marked) are one timeline.
    @Test func eventsWithoutScenariosAreOneTimeline() {
        let events = Self.scenarioEvents("SingleFault", from: 1_000_000).filter { $0.kind != .scenario }
        let timeline = Timeline(events: events)
        #expect(timeline.parts.map(\.scenario) == [nil])
        #expect(HTMLTimeline.render(timeline).contains("<summary><h3>the run</h3>"))
    }
}
