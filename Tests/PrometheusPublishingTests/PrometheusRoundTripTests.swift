import Foundation
import PrometheusPublishing
import Reporting
import TestSupport
import Testing

/// perf-run publish and run --pushgateway against a real Pushgateway and a
/// real Prometheus, started on loopback by each test and stopped by PID at
/// its end: two commits published one after the other, scraped, and read
/// through Prometheus' query API exactly; the group's series stay the same
/// series whatever the commit; a group deleted, by name and by age.
@Suite struct PrometheusRoundTripTests {
    static let commitA = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
    static let commitB = "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"
    /// A scenario name that is hostile in every format it passes through:
    /// the exposition format's label quoting, PromQL, a terminal.
    static let hostile = "Hostile<script>alert(\"x\")</script>\\ & 'q' \u{1B}[31m"
    /// A branch with a slash and a space: the Pushgateway's grouping key
    /// must carry it whole.
    static let branch = "feature/trend chart"

    static func perfRun(_ arguments: [String]) throws -> CommandResult { try PerfRunProcess.run(arguments) }

    /// Two reports of two commits: FetchAll's statements go from 3 to 4 and
    /// its median from 2 ms to 5 ms; SingleFault stays as it was.
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

    /// `text` as a PromQL string literal.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    @Test func twoCommitsPublishedAreTheSameSeriesAndTheInfoMetricNamesTheLatest() throws {
        let servers = try PrometheusServers()
        defer { servers.stop() }
        let started = Date().timeIntervalSince1970
        let reportA = try Self.write(
            Self.report(commit: Self.commitA, fetchAllStatements: 3, fetchAllWall: [0.0015, 0.002, 0.0025]), in: servers.directory, name: "a.json")
        let reportB = try Self.write(
            Self.report(commit: Self.commitB, fetchAllStatements: 4, fetchAllWall: [0.0045, 0.005, 0.0055]), in: servers.directory, name: "b.json")
        let labels = ["--label", "runner=ci-small", "--label", "branch=\(Self.branch)"]
        let group = #"{job="faultline",runner="ci-small",scale="0.02"}"#

        let first = try Self.perfRun(["publish", reportA, "--pushgateway", servers.pushgatewayURL] + labels)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "published 3 scenarios of commit \(Self.commitA) to \(servers.pushgatewayURL) "
            + "{job=faultline branch=\(Self.branch) runner=ci-small scale=0.02}; not published (failed or skipped): Broken\n", "\(first.stdout)")
        try servers.waitFor("faultline_report_info{commit=\"\(Self.commitA)\"}", count: 1)
        // Every series of the group, once scraped.
        let seriesA = try servers.query("count({__name__=~\"faultline_.*\",job=\"faultline\"})")
        let second = try Self.perfRun(["publish", reportB, "--pushgateway", servers.pushgatewayURL] + labels)
        #expect(second.status == 0, "\(second.stderr)")
        try servers.waitFor("faultline_report_info{commit=\"\(Self.commitB)\"}", count: 1)
        try servers.waitFor("faultline_scenario_sql_statements{scenario=\"FetchAll\"} == 4", count: 1)

        // No series carries the commit: the second push replaced the
        // values of the same series, and added one series in all (the
        // info metric of the new commit; the first's went stale).
        #expect(try servers.query("{__name__=~\"faultline_.*\",commit!=\"\"}").map(\.labels["__name__"]) == ["faultline_report_info"])
        let seriesB = try servers.query("count({__name__=~\"faultline_.*\",job=\"faultline\"})")
        #expect(seriesA.map(\.value) == seriesB.map(\.value))
        let everSeen = try servers.series("{__name__=~\"faultline_.*\",job=\"faultline\"}", withinLast: 3_600)
        #expect(everSeen.count == (Int(seriesA.first?.value ?? "") ?? -1) + 1)
        #expect(everSeen.filter { $0["commit"] != nil }.map { $0["__name__"] } == ["faultline_report_info", "faultline_report_info"])

        // The latest values, exactly, with the group's labels.
        let statements = try servers.query("faultline_scenario_sql_statements\(group)")
        #expect(Set(statements.map { $0.labels["scenario"] ?? "" }) == ["FetchAll", "SingleFault", Self.hostile])
        for series in statements {
            #expect(series.labels["branch"] == Self.branch)
            #expect(series.labels["commit"] == nil)
        }
        #expect(try servers.query("faultline_scenario_sql_statements{scenario=\"FetchAll\"}").map(\.value) == ["4"])
        #expect(try servers.query("faultline_scenario_wall_median_seconds{scenario=\"FetchAll\"}").map(\.value) == ["0.005"])
        #expect(try servers.query("faultline_scenario_wall_samples{scenario=\"SingleFault\"}").map(\.value) == ["3"])
        #expect(try servers.query("faultline_scenario_rows_read{scenario=\(Self.literal(Self.hostile))}").isEmpty)  // nothing invented
        #expect(try servers.query("faultline_scenario_sql_statements{scenario=\(Self.literal(Self.hostile))}").map(\.value) == ["5"])
        #expect(try servers.query("faultline_scenario_sql_statements{scenario=\"Broken\"}").isEmpty)
        // The peak of registered objects is advisory: published apart.
        #expect(try servers.query("faultline_scenario_objects_registered_peak").isEmpty)
        #expect(try servers.query("faultline_scenario_advisory_objects_registered_peak{scenario=\"FetchAll\"}").map(\.value) == ["77"])
        // The info metric: the commit and the tool, value 1.
        let info = try servers.query("faultline_report_info\(group)")
        #expect(info.count == 1)
        #expect(info.first?.value == "1")
        #expect(info.first?.labels["commit"] == Self.commitB)
        #expect(info.first?.labels["perf_run_version"] == "0.1.0")
        #expect(info.first?.labels["sqlite_version"] == "3.40.1")
        // Values by commit, joined through the info metric.
        let joined = try servers.query(
            "faultline_scenario_sql_statements{scenario=\"FetchAll\"} * on(job, runner, branch, scale) group_left(commit) faultline_report_info")
        #expect(joined.map { $0.labels["commit"] } == [Self.commitB])
        let pushed = try #require(Double(try servers.query("faultline_report_pushed_timestamp_seconds\(group)").first?.value ?? ""))
        #expect(pushed >= started.rounded(.down) && pushed <= Date().timeIntervalSince1970)

        // publish --delete removes the group: its series go stale.
        let deleted = try Self.perfRun(["publish", reportB, "--pushgateway", servers.pushgatewayURL, "--delete"] + labels)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "deleted {job=faultline branch=\(Self.branch) runner=ci-small scale=0.02} from \(servers.pushgatewayURL)\n")
        try servers.waitFor("faultline_report_info", count: 0)
        #expect(try servers.groups().isEmpty)
    }

    /// publish --delete-older-than deletes the job's groups pushed longer
    /// ago, and only those: another job's and a fresh one stay.
    @Test func groupsOlderThanAnAgeAreDeleted() throws {
        let servers = try PrometheusServers()
        defer { servers.stop() }
        let report = try Self.write(
            Self.report(commit: Self.commitA, fetchAllStatements: 3, fetchAllWall: [0.001, 0.002, 0.003]), in: servers.directory, name: "a.json")
        for (runner, job) in [("old-box", "faultline"), ("other-job-box", "elsewhere")] {
            let pushed = try Self.perfRun(["publish", report, "--pushgateway", servers.pushgatewayURL, "--label", "runner=\(runner)", "--job", job])
            #expect(pushed.status == 0, "\(pushed.stderr)")
        }
        Thread.sleep(forTimeInterval: 2.2)
        let fresh = try Self.perfRun(["publish", report, "--pushgateway", servers.pushgatewayURL, "--label", "runner=new-box", "--label", "branch=main"])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(try servers.groups().count == 3)

        // A label narrows the clean-up: no group of branch main is that old.
        let narrowed = try Self.perfRun(["publish", "--pushgateway", servers.pushgatewayURL, "--delete-older-than", "2s", "--label", "branch=main"])
        #expect(narrowed.status == 0, "\(narrowed.stderr)")
        #expect(narrowed.stdout == "deleted 0 groups of job faultline last pushed more than 2s ago from \(servers.pushgatewayURL)\n")
        let cleaned = try Self.perfRun(["publish", "--pushgateway", servers.pushgatewayURL, "--delete-older-than", "2s"])
        #expect(cleaned.status == 0, "\(cleaned.stderr)")
        let lines = cleaned.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(cleaned.stdout)")
        #expect(lines.first?.hasPrefix("deleted {job=faultline runner=old-box scale=0.02}, last pushed ") == true, "\(cleaned.stdout)")
        #expect(lines.last == "deleted 1 group of job faultline last pushed more than 2s ago from \(servers.pushgatewayURL)")
        let left = try servers.groups().map { $0["runner"] ?? "" }.sorted()
        #expect(left == ["new-box", "other-job-box"])
    }

    /// A run without warm-up: its first iteration counts as the others
    /// (every context begins its own read transaction), so sqlStatements is
    /// exact and published as such; an advisory counter (the registered
    /// objects' peak) goes out as advisory; nothing is dropped.
    @Test func runPushesItsReportAtTheEndWithAdvisoryCountersApart() throws {
        let servers = try PrometheusServers()
        defer { servers.stop() }
        let json = servers.directory.appendingPathComponent("run.json").path
        let result = try Self.perfRun([
            "run", "FetchAll", "--scale", "0.02", "--iterations", "2", "--warmup", "0", "--json", json,
            "--pushgateway", servers.pushgatewayURL, "--job", "ci-perf", "--label", "runner=test-runner", "--label", "commit=c0ffee",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("published 1 scenario of commit c0ffee to \(servers.pushgatewayURL) {job=ci-perf "), "\(result.stdout)")
        let report = try ReportFile.read(json)
        let scenario = try #require(report.scenarios.first)
        let counters = scenario.counters
        #expect(scenario.advisoryCounters == ["objectsRegisteredPeak"])
        #expect(!result.stdout.contains("advisory in this report"), "\(result.stdout)")
        let advisory = try servers.waitFor("faultline_scenario_advisory_objects_registered_peak{job=\"ci-perf\"}", count: 1)
        #expect(advisory[0].labels["scenario"] == "FetchAll")
        #expect(advisory[0].labels["runner"] == "test-runner")
        #expect(advisory[0].value == String(try #require(counters["objectsRegisteredPeak"])))
        #expect(try servers.query("faultline_scenario_sql_statements{job=\"ci-perf\"}").map(\.value) == [String(try #require(counters["sqlStatements"]))])
        #expect(try servers.query("faultline_scenario_rows_read{job=\"ci-perf\"}").map(\.value) == [String(try #require(counters["rowsRead"]))])
        #expect(try servers.query("faultline_report_info{job=\"ci-perf\"}").map { $0.labels["commit"] } == ["c0ffee"])
        let median = try servers.query("faultline_scenario_wall_median_seconds{job=\"ci-perf\"}")
        #expect(median.count == 1 && Double(median[0].value) == scenario.summary?.wallSeconds.median)
    }
}
