import Foundation
import Probes
@testable import Reporting
import Testing
import ToolSupport

/// Plans and percentiles per statement shape in the report: the JSON
/// (schema 5, older reports still read), HTML, Markdown, and `compare`'s
/// p90 changes beyond the noise.
@Suite struct StatementShapeReportTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func shape(
        _ text: String, count: Int = 10, plan: [String]? = ["SEARCH Person USING INTEGER PRIMARY KEY (rowid=?)"], p90s: [Double]? = nil
    ) -> StatementReport {
        let durations = p90s.map { samples in
            StatementDurations(
                executions: count * samples.count, p50Seconds: samples.min()! / 2, p90Seconds: Statistics(samples).median,
                p99Seconds: samples.max()! * 1.5, maxSeconds: samples.max()! * 2, iterationP90Seconds: samples)
        }
        return StatementReport(
            shape: text, purpose: "fetch", count: count, totalSeconds: 0.001, maxSeconds: 0.0001, rowsReturned: count, rowsChanged: 0,
            fullScanSteps: 0, firstCallSite: "App/List.swift:41", queryPlan: plan, durations: durations)
    }

    static func scenario(_ statements: [StatementReport], name: String = "FetchAll") -> ScenarioReport {
        ReportComparisonTests.scenario(name, times: ReportComparisonTests.steady).with { $0.statements = statements }
    }

    /// Ten iterations' p90s around 12 µs, spread as a quiet machine spreads them.
    static let quiet = ReportComparisonTests.steady.map { $0 * 0.000_12 }

    // MARK: JSON

    @Test func theDurationsSurviveTheReportFileAtSchema5() throws {
        let report = ReportComparisonTests.report([Self.scenario([Self.shape("SELECT 1", p90s: Self.quiet)])])
        #expect(report.schemaVersion == 5)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shapes-\(UUID()).json").path
        try ReportFile.write(report, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"iterationP90Seconds\""))
        #expect(text.contains("\"p99Seconds\""))
        #expect(try ReportFile.read(path) == report)
        // A percentile that is not a time is named with its key path.
        try text.replacingOccurrences(of: "\"p90Seconds\" : ", with: "\"p90Seconds\" : -").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ReportError("\(path): scenarios[0].statements[0].durations.p90Seconds: -\(Statistics(Self.quiet).median) is negative (a time is 0 or more)")) {
            try ReportFile.read(path)
        }
    }

    /// The committed baseline (schema 5) has each shape's durations; the
    /// same report as schema 4 wrote it (no `durations`) reads, and the
    /// pages show no section of plans and percentiles.
    @Test func theCommittedBaselineReadsAsSchema4WroteIt() throws {
        let path = Self.repository.appendingPathComponent("Reports/baseline.json").path
        let baseline = try ReportFile.read(path)
        #expect(baseline.schemaVersion == 5)
        #expect(baseline.scenarios.flatMap(\.statements).contains { $0.durations != nil })
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        object["schemaVersion"] = 4
        object["scenarios"] = try #require(object["scenarios"] as? [[String: Any]]).map { scenario in
            var scenario = scenario
            scenario["statements"] = (scenario["statements"] as? [[String: Any]])?.map { statement in
                var statement = statement
                // Schema 4 had neither; its plans came with --sql-debug 4 only.
                statement["durations"] = nil
                statement["queryPlan"] = nil
                return statement
            }
            return scenario
        }
        let old = FileManager.default.temporaryDirectory.appendingPathComponent("baseline4-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: old) }
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: old))
        let read = try ReportFile.read(old)
        #expect(read.schemaVersion == 4)
        let statements = read.scenarios.flatMap(\.statements)
        #expect(!statements.isEmpty)
        #expect(statements.allSatisfy { $0.durations == nil })
        #expect(!HTMLReport.render(read).contains("Statement shapes: plans and percentiles"))
        #expect(!ReportMarkdown.render(read).contains("Statement shapes: plans and percentiles"))
    }

    /// A report of schema 4 (no `durations`) reads, and compares with one of
    /// schema 5 without a p90 judged.
    @Test func aReportOfSchema4WithoutDurationsReadsAndCompares() throws {
        let current = ReportComparisonTests.report([Self.scenario([Self.shape("SELECT 1", plan: nil, p90s: Self.quiet)])])
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(current)) as? [String: Any])
        object["schemaVersion"] = 4
        var scenarios = try #require(object["scenarios"] as? [[String: Any]])
        var statements = try #require(scenarios[0]["statements"] as? [[String: Any]])
        statements[0]["durations"] = nil
        scenarios[0]["statements"] = statements
        object["scenarios"] = scenarios
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("schema4-\(UUID()).json").path
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        let old = try ReportFile.read(path)
        #expect(old.schemaVersion == 4)
        #expect(old.scenarios[0].statements[0].durations == nil)
        #expect(old.scenarios[0].statements[0].shape == "SELECT 1")
        let comparison = ReportComparer().compare(old, current)
        #expect(comparison.scenarios[0].statementTimings.isEmpty)
        #expect(comparison.scenarios[0].timing?.verdict == .unchanged)
    }

    // MARK: HTML and Markdown

    static let sortingScan = Self.shape(
        "SELECT * FROM Person WHERE name LIKE ? ORDER BY age <script>", count: 3,
        plan: ["SCAN Person", "USE TEMP B-TREE FOR ORDER BY"], p90s: Self.quiet)
    static let lookup = Self.shape("SELECT * FROM Person WHERE Z_PK = ?", count: 40, p90s: Self.quiet)
    static let begin = Self.shape("BEGIN", count: 1, plan: nil, p90s: [0.000_000_2])

    @Test func thePageShowsEachShapesPercentilesAndMarkedPlan() throws {
        let html = HTMLReport.render(ReportComparisonTests.report([Self.scenario([Self.sortingScan, Self.lookup, Self.begin])]))
        #expect(html.contains("<h3>Statement shapes: plans and percentiles</h3>"))
        #expect(html.contains("<th>p50</th><th>p90</th><th>p99</th><th>max</th><th>plan</th>"))
        // The shape is escaped; its full scan and temporary B-tree are marked with what they mean.
        #expect(html.contains("ORDER BY age &lt;script&gt;</code>"))
        #expect(!html.contains("age <script>"))
        #expect(html.contains("<mark class=\"plan-full-scan\" title=\"full scan: SQLite reads every row of the table"))
        #expect(html.contains(">SCAN Person</mark> ← full scan<br>"))
        #expect(html.contains(">USE TEMP B-TREE FOR ORDER BY</mark> ← temporary B-tree</code>"))
        // The lookup's plan is shown unmarked.
        #expect(html.contains("<code class=\"plan\">SEARCH Person USING INTEGER PRIMARY KEY (rowid=?)</code>"))
        // p90 of the shape, in the unit that fits, on one line.
        let p90 = Statistics(Self.quiet).median
        func cell(_ seconds: Double) -> String {
            "<td data-value=\"\(seconds)\">\(TimeText.seconds(seconds).replacingOccurrences(of: " ", with: "&nbsp;"))</td>"
        }
        #expect(html.contains(cell(p90)))
        #expect(html.contains(cell(0.000_000_2)) && cell(0.000_000_2).contains("data-value=\"2e-07\""))
        #expect(html.contains("no plan (SQLite reads no table)"))
        #expect(!html.contains("more shapes"))
    }

    /// The page with a scenario's shapes runs its script in headless
    /// chromium without a console error; screenshots at 1400 and 390 px
    /// wide are kept in .build/test-output.
    @Test func aHeadlessBrowserShowsTheShapesAtBothWidths() throws {
        let nested = Self.shape(
            "SELECT * FROM Selfie WHERE pk IN (SELECT value FROM json_each(?)) GROUP BY rating", count: 2,
            plan: ["SEARCH Selfie USING INTEGER PRIMARY KEY (rowid=?)", "LIST SUBQUERY 1", "  SCAN json_each VIRTUAL TABLE INDEX 1:",
                   "USE TEMP B-TREE FOR GROUP BY"], p90s: Self.quiet.map { $0 * 4 })
        let page = try HTMLReportTests.write(
            HTMLReport.render(ReportComparisonTests.report([Self.scenario([Self.sortingScan, nested, Self.lookup, Self.begin])])),
            named: "statement-shapes.html")
        let (dom, errors) = try HTMLReportTests.dumpDOM(page)
        #expect(dom.contains("data-ready=\"1\""))
        #expect(dom.contains("class=\"sortable statement-shapes\""))
        let console = errors.split(separator: "\n").filter { $0.contains("CONSOLE") }
        #expect(console.isEmpty, "console output: \(console)")
        for (width, height) in [(1400, 2600), (390, 5200)] {
            let screenshot = page.deletingLastPathComponent().appendingPathComponent("statement-shapes-\(width).png")
            _ = try HTMLReportTests.run(
                try HTMLReportTests.chromium(), HTMLReportTests.headless + ["--window-size=\(width),\(height)", "--screenshot=\(screenshot.path)", page.absoluteString])
            #expect(FileManager.default.fileExists(atPath: screenshot.path))
        }
    }

    @Test func longListsAndLongPlansFoldAway() {
        let shapes = (1...13).map { Self.shape("SELECT \($0)", p90s: Self.quiet) }
            + [Self.shape("SELECT nested", plan: (1...8).map { "\(String(repeating: "  ", count: $0 % 3))SCAN t\($0)" }, p90s: Self.quiet)]
        let html = HTMLReport.render(ReportComparisonTests.report([Self.scenario(shapes)]))
        #expect(html.contains("<details class=\"more-shapes\"><summary>4 more shapes (less time in all)</summary>"))
        // The first ten shapes are in the table shown, the rest folded.
        let folded = html.components(separatedBy: "<details class=\"more-shapes\">")[1]
        #expect(folded.contains("<code>SELECT 11</code>") && !folded.contains("<code>SELECT 10</code>"))
        #expect(html.contains("<details class=\"plan\"><summary>8 rows: full scan</summary>"))
        // Nested rows are indented as SQLite nests them.
        #expect(html.contains("<br>&nbsp;&nbsp;&nbsp;&nbsp;<mark class=\"plan-full-scan\""))
    }

    @Test func theMarkdownHasATablePerScenarioWithMarkedPlans() {
        let markdown = ReportMarkdown.render(ReportComparisonTests.report([
            Self.scenario([Self.sortingScan, Self.lookup, Self.begin]), Self.scenario([Self.lookup], name: "Prefetch|*"),
        ]))
        #expect(markdown.contains("### Statement shapes: plans and percentiles"))
        #expect(markdown.contains("<details><summary>FetchAll: 3 shapes, 1 with a full scan, 1 with a temporary B-tree</summary>"))
        #expect(markdown.contains("<details><summary>Prefetch\\|\\*: 1 shape</summary>"))
        let p90 = TimeText.seconds(Statistics(Self.quiet).median)
        #expect(markdown.contains("| `SELECT * FROM Person WHERE name LIKE ? ORDER BY age <script>` | 3 | "))
        #expect(markdown.contains(" | \(p90) | "))
        #expect(markdown.contains("`SCAN Person` **full scan**<br>`USE TEMP B-TREE FOR ORDER BY` **temporary B-tree** |"))
        #expect(markdown.contains("| `BEGIN` | 1 | "))
        #expect(markdown.contains(" | no plan |"))
    }

    // MARK: compare

    /// A shape whose iterations' p90s tripled is reported slower, with its
    /// p90s and where head runs it, in every format; it does not gate.
    @Test func aP90BeyondTheNoiseIsReportedAndNeverGates() throws {
        let slower = Self.quiet.map { $0 * 3 }
        let base = ReportComparisonTests.report([Self.scenario([Self.lookup, Self.shape("SELECT 2", p90s: Self.quiet)])])
        let head = ReportComparisonTests.report([Self.scenario([
            Self.shape("SELECT * FROM Person WHERE Z_PK = ?", count: 40, p90s: slower), Self.shape("SELECT 2", p90s: Self.quiet),
        ])])
        let comparison = ReportComparer().compare(base, head)
        let timings = comparison.scenarios[0].statementTimings
        #expect(timings.map(\.shape) == ["SELECT * FROM Person WHERE Z_PK = ?"])
        let change = try #require(timings.first)
        #expect(change.timing.verdict == .slower)
        #expect(change.baseP90Seconds == Statistics(Self.quiet).median && change.headP90Seconds == Statistics(slower).median)
        #expect(abs((change.timing.ratio ?? 0) - 3) < 1e-9)
        #expect(change.callSite == "App/List.swift:41")
        #expect(!comparison.hasRegression)
        #expect(comparison.scenarios[0].outcome == .unchanged)
        let text = try ComparisonFormat.text.render(comparison)
        #expect(text.contains("  statement p90 \(TimeText.seconds(change.baseP90Seconds)) → \(TimeText.seconds(change.headP90Seconds)) (iterations' p90s: "))
        #expect(text.contains("slower; advisory) at App/List.swift:41: SELECT * FROM Person WHERE Z_PK = ?"))
        let markdown = try ComparisonFormat.markdown.render(comparison)
        #expect(markdown.contains("<details><summary>Statement shapes whose p90 changed beyond the noise (advisory, 1)</summary>"))
        #expect(HTMLComparison.render(comparison).contains("<h3>Statement shapes whose p90 changed beyond the noise (advisory)</h3>"))
        // JUnit gives it as the text does, in the test case's output, not as a failure.
        let junit = try comparison.render(.junit)
        #expect(try JUnitFormatTests.validate(junit) == nil)
        #expect(junit.contains("tests=\"1\" failures=\"0\""), "\(junit)")
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("  statement p90 ") }).dropFirst(2)
        #expect(junit.contains("<testcase name=\"FetchAll\" classname=\"perf-run compare\" time=\"0.100\">\n"
            + "      <system-out>Statement shapes whose p90 changed beyond the noise (advisory):\n\(JUnitFormat.escape(String(line)))</system-out>\n"
            + "    </testcase>"), "\(junit)")
        #expect(junit.contains("(iterations&#39; p90s: ") && junit.contains("slower; advisory) at App/List.swift:41: SELECT * FROM Person WHERE Z_PK = ?"))
        // Faster is reported the same way.
        let back = ReportComparer().compare(head, base)
        #expect(back.scenarios[0].statementTimings.map(\.timing.verdict) == [.faster])
        // The comparison's JSON keeps it, and one written before it reads without.
        let decoded = try JSONDecoder().decode(ReportComparison.self, from: Data(try ComparisonFormat.json.render(comparison).utf8))
        #expect(decoded == comparison)
    }

    /// A p90 change beside a regression: JUnit fails the test case for the
    /// regression alone and gives the p90 change as advice, its shape and
    /// call site escaped for XML.
    @Test func junitGivesP90ChangesAsAdviceBesideARegression() throws {
        let shape = "SELECT * FROM \"Person<&>\" WHERE name = 'a\u{1B}[2J' AND Z_PK = ?"
        let base = ReportComparisonTests.report([Self.scenario([Self.shape(shape, count: 40, p90s: Self.quiet)])])
        var grown = Self.scenario([Self.shape(shape, count: 40, p90s: Self.quiet.map { $0 * 3 })])
        grown.counters[.sqlStatements] = (grown.counters[.sqlStatements] ?? 0) + 2
        grown.statements[0].firstCallSite = "App/<List>.swift:41"
        let comparison = ReportComparer().compare(base, ReportComparisonTests.report([grown]))
        #expect(comparison.hasRegression)
        let change = try #require(comparison.scenarios[0].statementTimings.first)
        #expect(change.timing.verdict == .slower)
        let junit = try comparison.render(.junit)
        #expect(try JUnitFormatTests.validate(junit) == nil)
        #expect(junit.contains("tests=\"1\" failures=\"1\""), "\(junit)")
        // One failure: the counter; the p90 is not in it.
        #expect(junit.components(separatedBy: "<failure ").count == 2)
        let failure = try #require(junit.components(separatedBy: "<failure ").last?.components(separatedBy: "</failure>").first)
        #expect(failure.contains("sqlStatements") && !failure.contains("p90"))
        // The advice after it, escaped: no raw markup or control from the data.
        #expect(junit.contains("</failure>\n      <system-out>Statement shapes whose p90 changed beyond the noise (advisory):\nstatement p90 "))
        #expect(junit.contains("slower; advisory) at App/&lt;List&gt;.swift:41: SELECT * FROM &quot;Person&lt;&amp;&gt;&quot; WHERE name = &#39;a"))
        #expect(!junit.unicodeScalars.contains { $0.value == 0x1B })
    }

    /// Two runs of one binary (the same p90s, in another order and moved
    /// by a few percent) show no p90 change; nor does a change under 1 µs,
    /// nor one of fewer than 9 iterations a side.
    @Test func anAAPairShowsNoP90Change() throws {
        let again = Self.quiet.reversed().enumerated().map { $1 * ($0 % 2 == 0 ? 1.03 : 0.98) }
        let base = ReportComparisonTests.report([Self.scenario([Self.lookup, Self.sortingScan])])
        let head = ReportComparisonTests.report([Self.scenario([
            Self.shape("SELECT * FROM Person WHERE Z_PK = ?", count: 40, p90s: again), Self.shape(Self.sortingScan.shape, count: 3, p90s: again),
        ])])
        let comparison = ReportComparer().compare(base, head)
        #expect(comparison.scenarios[0].statementTimings.isEmpty)
        #expect(try !ComparisonFormat.text.render(comparison).contains("statement p90"))
        #expect(try !comparison.render(.junit).contains("<system-out>"))
        // Tripled, but by less than the 1 µs floor.
        let tiny = Self.quiet.map { $0 / 100 }
        let tinyBase = ReportComparisonTests.report([Self.scenario([Self.shape("SELECT 3", p90s: tiny)])])
        let tinyHead = ReportComparisonTests.report([Self.scenario([Self.shape("SELECT 3", p90s: tiny.map { $0 * 3 })])])
        #expect(ReportComparer().compare(tinyBase, tinyHead).scenarios[0].statementTimings.isEmpty)
        // Tripled, on too few iterations.
        let fewBase = ReportComparisonTests.report([Self.scenario([Self.shape("SELECT 4", p90s: Array(Self.quiet.prefix(5)))])])
        let fewHead = ReportComparisonTests.report([Self.scenario([Self.shape("SELECT 4", p90s: Self.quiet.prefix(5).map { $0 * 3 })])])
        #expect(ReportComparer().compare(fewBase, fewHead).scenarios[0].statementTimings.isEmpty)
    }
}

extension ScenarioReport {
    /// The scenario with `change` made.
    fileprivate func with(_ change: (inout ScenarioReport) -> Void) -> ScenarioReport {
        var copy = self
        change(&copy)
        return copy
    }
}
