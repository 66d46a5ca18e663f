import Foundation
import PrometheusPublishing
import Reporting
import TestSupport
import Testing

/// perf-run publish and run --pushgateway against a real Pushgateway and a
/// real Prometheus, started on loopback by each test and stopped by PID at
/// its end: two commits published, scraped and read back through the query
/// API, exactly; `perf-run trend` refuses Prometheus as its source.
@Suite struct PrometheusRoundTripTests {
    static let commitA = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
    static let commitB = "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"
    /// A scenario name that is hostile in every format it passes through:
    /// the exposition format's label quoting, PromQL, HTML, Markdown, a terminal.
    static let hostile = "Hostile<script>alert(\"x\")</script>\\ & 'q' \u{1B}[31m"
    /// A branch with a slash and a space: the Pushgateway's grouping key
    /// must carry it whole.
    static let branch = "feature/trend chart"

    static func perfRun(_ arguments: [String]) throws -> CommandResult { try PerfRunProcess.run(arguments) }

    /// Two reports of two commits: FetchAll's statements go from 3 to 4 and
    /// its median from 2 ms to 5 ms, beyond the first commit's 1.5–2.5 ms;
    /// SingleFault stays as it was, its median within the spread.
    static func report(commit: String, fetchAllStatements: Int, fetchAllWall: [Double]) -> Report {
        func scenario(_ name: String, counters: [String: Int], wall: [Double]) -> ScenarioReport {
            var scenario = ScenarioReport(
                name: name, description: "what \(name) shows", dataSet: "selfies", status: .passed,
                samples: wall.map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: nil) },
                counters: counters.merging(["objectsRegisteredPeak": 77]) { $1 }, advisoryCounters: ["objectsRegisteredPeak"])
            scenario.summary = Summary(wallSeconds: Statistics(wall), cpuSeconds: Statistics(wall))
            return scenario
        }
        var failed = ScenarioReport(name: "Broken", description: "fails", dataSet: "selfies", status: .failed, error: "boom")
        failed.counters = ["sqlStatements": 99]
        return Report(
            tool: .init(name: "perf-run", version: "0.1.0", commandLine: ["perf-run", "run"]),
            environment: .init(operatingSystem: "Debian", cpuModel: "cpu", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "debug", gitCommit: commit, hostName: "host-not-used"),
            configuration: .init(scale: 0.02, seed: 1, iterations: 3, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: [
                scenario("FetchAll", counters: ["fetches": 3, "sqlStatements": fetchAllStatements, "rowsRead": 30, "faultsFired": 0], wall: fetchAllWall),
                scenario("SingleFault", counters: ["fetches": 1, "sqlStatements": 41, "rowsRead": 230, "faultsFired": 210],
                         wall: [0.0125, 0.0122, 0.0131]),
                scenario(hostile, counters: ["sqlStatements": 5], wall: [0.001, 0.001, 0.001]),
                failed,
            ])
    }

    static func write(_ report: Report, in directory: URL, name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try ReportFile.write(report, to: path)
        return path
    }

    @Test func twoCommitsPublishedComeBackExactlyThroughTheQueryAPIAndTrend() throws {
        let servers = try PrometheusServers()
        defer { servers.stop() }
        let reportA = try Self.write(
            Self.report(commit: Self.commitA, fetchAllStatements: 3, fetchAllWall: [0.0015, 0.002, 0.0025]), in: servers.directory, name: "a.json")
        let reportB = try Self.write(
            Self.report(commit: Self.commitB, fetchAllStatements: 4, fetchAllWall: [0.0045, 0.005, 0.0055]), in: servers.directory, name: "b.json")
        let labels = ["--label", "runner=ci-small", "--label", "branch=\(Self.branch)"]

        // The first commit, scraped before the second replaces it in the
        // Pushgateway's group (as two CI runs a while apart are).
        let first = try Self.perfRun(["publish", reportA, "--pushgateway", servers.pushgatewayURL] + labels)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("published 3 scenarios of commit \(Self.commitA) to \(servers.pushgatewayURL) "
            + "{job=faultline branch=\(Self.branch) runner=ci-small scale=0.02}; not published (failed or skipped): Broken"), "\(first.stdout)")
        try servers.waitFor("faultline_sql_statements{commit=\"\(Self.commitA)\"}", count: 3)
        let second = try Self.perfRun(["publish", reportB, "--pushgateway", servers.pushgatewayURL] + labels)
        #expect(second.status == 0, "\(second.stderr)")
        try servers.waitFor("faultline_sql_statements{commit=\"\(Self.commitB)\"}", count: 3)

        // Through the query API: a series per commit, exact values, the labels.
        let statements = try servers.query("last_over_time(faultline_sql_statements{scenario=\"FetchAll\"}[1h])")
        #expect(statements.count == 2)
        for series in statements {
            #expect(series.labels["job"] == "faultline")
            #expect(series.labels["runner"] == "ci-small")
            #expect(series.labels["branch"] == Self.branch)
            #expect(series.labels["scale"] == "0.02")
        }
        let byCommit = Dictionary(uniqueKeysWithValues: statements.map { ($0.labels["commit"] ?? "", $0.value) })
        #expect(byCommit == [Self.commitA: "3", Self.commitB: "4"])
        let medians = try servers.query("last_over_time(faultline_wall_median_seconds{scenario=\"FetchAll\"}[1h])")
        #expect(Dictionary(uniqueKeysWithValues: medians.map { ($0.labels["commit"] ?? "", $0.value) }) == [Self.commitA: "0.002", Self.commitB: "0.005"])
        let samples = try servers.query("faultline_wall_samples{scenario=\"SingleFault\"}")
        #expect(samples.map(\.value) == ["3"])
        let hostile = try servers.query("faultline_rows_read{scenario=\(PrometheusQuery.literal(Self.hostile))}")
        #expect(hostile.isEmpty)  // it has no rowsRead: nothing invented
        let hostileStatements = try servers.query("faultline_sql_statements{scenario=\(PrometheusQuery.literal(Self.hostile))}")
        #expect(hostileStatements.map(\.value) == ["5"])
        // Advisory counters and failed scenarios are not published.
        #expect(try servers.query("{__name__=~\"faultline_objects_registered.*\"}").isEmpty)
        #expect(try servers.query("faultline_sql_statements{scenario=\"Broken\"}").isEmpty)

        // perf-run trend reads the history store, not Prometheus: said in one line.
        let trend = try Self.perfRun(["trend", "--prometheus", servers.prometheusURL, "--since", "1h"])
        #expect(trend.status == 2)
        #expect(trend.stderr.hasPrefix("--prometheus: trend reads the history store (--history)"), "\(trend.stderr)")
    }

    @Test func runPushesItsReportAtTheEnd() throws {
        let servers = try PrometheusServers()
        defer { servers.stop() }
        let json = servers.directory.appendingPathComponent("run.json").path
        let result = try Self.perfRun([
            "run", "FetchAll", "--scale", "0.02", "--iterations", "2", "--warmup", "1", "--json", json,
            "--pushgateway", servers.pushgatewayURL, "--job", "ci-perf", "--label", "runner=test-runner", "--label", "commit=c0ffee",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("published 1 scenario of commit c0ffee to \(servers.pushgatewayURL) {job=ci-perf "), "\(result.stdout)")
        let report = try ReportFile.read(json)
        let counters = report.scenarios[0].counters
        // Exact after a warm-up (a first iteration can differ, and its counters are then advisory: not published).
        #expect(!report.scenarios[0].advisoryCounters.contains("sqlStatements"))
        let scraped = try servers.waitFor("faultline_sql_statements{job=\"ci-perf\",commit=\"c0ffee\"}", count: 1)
        #expect(scraped[0].labels["scenario"] == "FetchAll")
        #expect(scraped[0].labels["runner"] == "test-runner")
        #expect(scraped[0].value == String(try #require(counters["sqlStatements"])))
        let rows = try servers.query("faultline_rows_read{job=\"ci-perf\"}")
        #expect(rows.map(\.value) == [String(try #require(counters["rowsRead"]))])
        let median = try servers.query("faultline_wall_median_seconds{job=\"ci-perf\"}")
        #expect(median.count == 1 && Double(median[0].value) == report.scenarios[0].summary?.wallSeconds.median)
    }

    /// .build/test-output, kept for a look after the run (ignored by git).
    static func testOutput() -> URL {
        let output = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-output")
        try? FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        return output
    }
}
