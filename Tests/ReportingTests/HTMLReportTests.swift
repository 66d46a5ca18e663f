import Foundation
import Insights
import Probes
import Reporting
import SQLLogViewer
import TestSupport
import Testing

/// The HTML report: escaping of hostile data, and a real browser (Debian's
/// chromium, headless) running its script without a console error.
@Suite struct HTMLReportTests {
    static let hostile = "<script>alert(\"x\")</script> & 'quotes'"

    static func report() -> Report {
        var scenario = ReportScenarios.scenario(name: hostile)
        scenario.statements = [StatementReport(
            shape: "SELECT t0.pk FROM \"<b>Selfie</b>\" t0 WHERE t0.\"name\" = ? -- & <img src=x onerror=alert(1)>", purpose: "fetch <i>",
            count: 3, totalSeconds: 0.002, maxSeconds: 0.001, rowsReturned: 30, rowsChanged: 0, fullScanSteps: 27,
            firstCallSite: "App/<x>.swift:1", queryPlan: nil)]
        scenario.insights = [Insight(rule: .fullScan, entity: "Selfie", keyPath: "name", message: "index <name> & more",
                                     evidence: "\"quoted\"", callSite: "App/<x>.swift:1")]
        scenario.values = ["<coldSeconds>": 0.5, "warmSeconds": 0.1]
        return Report(
            tool: .init(name: "perf-run", version: "0.1.0", commandLine: ["perf-run", "run", hostile]),
            environment: .init(operatingSystem: "Debian", cpuModel: "<cpu>", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "debug", gitCommit: nil, hostName: "ci"),
            configuration: .init(scale: 0.02, seed: 1, iterations: 3, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: [scenario, ReportScenarios.scenario(name: "SingleFault"), ReportScenarios.scenario(name: "Prefetch")])
    }

    @Test func everythingFromDataIsEscaped() {
        let html = HTMLReport.render(Self.report())
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<b>Selfie"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<cpu>"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;"))
        #expect(html.contains("index &lt;name&gt; &amp; more"))
        #expect(html.components(separatedBy: "<script>").count == 2)  // only the page's own
        #expect(html.contains("row cache (faults)"))
    }

    @Test func aHeadlessBrowserRendersItWithoutConsoleErrors() throws {
        let page = try Self.write(HTMLReport.render(Self.report()), named: "report.html")
        let (dom, errors) = try Self.dumpDOM(page)
        #expect(dom.contains("data-ready=\"1\""), "the page's script did not finish")
        #expect(dom.components(separatedBy: "<svg").count >= 4)  // samples and bars
        #expect(dom.contains("<table class=\"sortable\" id=\"scenarios\">"))
        #expect(dom.contains("class=\"sortable statements\""))
        let console = errors.split(separator: "\n").filter { $0.contains("CONSOLE") }
        #expect(console.isEmpty, "console output: \(console)")
        let screenshot = page.deletingLastPathComponent().appendingPathComponent("report.png")
        _ = try Self.run(try Self.chromium(), Self.headless + ["--window-size=1280,2000", "--screenshot=\(screenshot.path)", page.absoluteString])
        #expect(FileManager.default.fileExists(atPath: screenshot.path))
    }

    @Test func theComparisonPageAndTheTimelineRender() throws {
        let base = Self.report()
        var head = Self.report()
        head.scenarios[0].counters["sqlStatements"] = 9
        let comparison = ReportComparer().compare(base, head)
        let page = HTMLComparison.render(comparison)
        #expect(page.contains("regression"))
        #expect(!page.contains("<script>alert"))
        #expect(page.components(separatedBy: "<script>").count == 2)
        let (dom, errors) = try Self.dumpDOM(try Self.write(page, named: "comparison.html"))
        #expect(dom.contains("data-ready=\"1\""))
        #expect(!errors.contains("CONSOLE"))

        let site = CallSite(file: "App/A.swift", line: 1)
        let events: [Event] = [
            .fetch(FetchEvent(start: 1_000, durationNanoseconds: 5_000, thread: 1, context: "main", entity: "Selfie", predicate: "", sort: "",
                              resultType: "objects", resultCount: 3, fetchLimit: 0, fetchOffset: 0, fetchBatchSize: 0,
                              returnsObjectsAsFaults: true, includesPropertyValues: true, includesPendingChanges: true, prefetch: "",
                              callSite: site)),
            .fault(FaultEvent(start: 7_000, durationNanoseconds: 500, thread: 1, context: "main", entity: "Selfie", primaryKey: 1,
                              source: .database, callSite: site)),
        ]
        let withTimeline = HTMLReport.render(Self.report(), events: events)
        #expect(withTimeline.contains("Timeline of the last iterations"))
        #expect(withTimeline.components(separatedBy: "<rect").count == HTMLReport.render(Self.report()).components(separatedBy: "<rect").count + 2)
    }

    /// Writes a page to .build/test-output (kept for a look after the run).
    static func write(_ page: String, named name: String) throws -> URL { try HeadlessChromium.write(page, named: name) }

    static let headless = HeadlessChromium.options

    /// The page's DOM after its scripts ran in headless chromium, and what
    /// chromium wrote to standard error (console messages among it).
    static func dumpDOM(_ page: URL) throws -> (dom: String, errors: String) { try HeadlessChromium.dumpDOM(page) }

    static func chromium() throws -> String { try HeadlessChromium.program() }

    static func run(_ program: String, _ arguments: [String]) throws -> (String, String) { try HeadlessChromium.run(program, arguments) }
}

enum ReportScenarios {
    static func scenario(name: String) -> ScenarioReport {
        ScenarioReport(
            name: name, description: "what \(name) shows", dataSet: "selfies", status: .passed,
            samples: [0.010, 0.011, 0.012].map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: 1_000_000) },
            counters: ["sqlStatements": 3, "objectsRegisteredPeak": 10], advisoryCounters: ["objectsRegisteredPeak"],
            timeBreakdown: TimeBreakdown(sqliteSeconds: 0.004, rowCacheSeconds: 0.001, otherSeconds: 0.007))
    }
}

@Suite struct HTMLLogAnalysisTests {
    static func analysis() -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer()
        var lines = ["faultline: sql: SELECT '<script>alert(1)</script>' FROM \"T&<b>\" WHERE x = ?"]
        for pk in 1...300 {
            lines.append("faultline: sql: SELECT t0.pk FROM \"Person\" t0 WHERE t0.pk = ?")
            lines.append("faultline: details: bind[0] = \(pk)")
            lines.append("faultline: annotation: fault fulfilled from database for Person/p\(pk) in 0.0001s "
                + "(absent; from fetch 1 of Team at App/<Teams>.swift:3 through members; read at App/<Teams>.swift:4)")
        }
        for line in lines { analyzer.consume(line: Data(line.utf8)) }
        return analyzer.finish()
    }

    @Test func timelineBucketsStayBoundedAndAddUp() {
        let analysis = Self.analysis()
        // 901 lines: 64 lines per bucket fit them in 15 buckets.
        #expect(analysis.linesPerBucket == 64)
        #expect(analysis.timeline.count == 15)
        #expect(analysis.timeline.map(\.statements).reduce(0, +) == 301)
        #expect(analysis.timeline.map(\.faults).reduce(0, +) == 300)
        var analyzer = SQLLogAnalyzer()
        for _ in 0..<100_000 { analyzer.consume(line: Data("faultline: sql: COMMIT".utf8)) }
        let long = analyzer.finish()
        #expect(long.timeline.count <= SQLLogAnalyzer.maximumBuckets)
        #expect(long.linesPerBucket == 1_024)
        #expect(long.timeline.map(\.statements).reduce(0, +) == 100_000)
    }

    @Test func aHeadlessBrowserRendersTheLogPage() throws {
        let page = HTMLLogAnalysis.render(Self.analysis(), title: "<app>.log")
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("FROM &quot;T&amp;&lt;b&gt;&quot;"))  // the literal is folded; the name is escaped
        #expect(page.contains("SQL debug log: &lt;app&gt;.log"))
        #expect(page.components(separatedBy: "<script>").count == 2)
        let (dom, errors) = try HTMLReportTests.dumpDOM(try HTMLReportTests.write(page, named: "log.html"))
        #expect(dom.contains("data-ready=\"1\""), "the page's script did not finish")
        #expect(dom.contains("class=\"sortable statements\""))
        #expect(dom.contains("<svg class=\"chart timeline\""))
        #expect(dom.contains("n-plus-one"))
        #expect(dom.contains("App/&lt;Teams&gt;.swift:3"))
        #expect(!errors.contains("CONSOLE"), "console output: \(errors)")
    }
}
