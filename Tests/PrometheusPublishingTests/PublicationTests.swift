import Foundation
import PrometheusPublishing
import Reporting
import TestSupport
import Testing

/// What a report becomes for a Pushgateway (no server needed), and the
/// commands' bad input: one line, exit 2.
@Suite struct PublicationTests {
    static let time = Date(timeIntervalSince1970: 1_780_000_000)

    static func report(commit: String? = "abc123") -> Report {
        PrometheusRoundTripTests.report(commit: commit ?? "", fetchAllStatements: 3, fetchAllWall: [0.0015, 0.002, 0.0025])
    }

    static func lines(_ publication: Publication) -> Set<String> {
        Set(String(decoding: publication.body, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    @Test func theBodyHasEachPassedScenariosExactCountersAndWallTimes() throws {
        let publication = try Publication(
            Self.report(), reportName: "r.json", labels: [MetricLabel(name: "runner", value: "ci")], environment: [:], time: Self.time)
        let lines = Self.lines(publication)
        let fetchAll = #"{scenario="FetchAll",commit="abc123"}"#
        for expected in [
            "faultline_sql_statements\(fetchAll) 3.0", "faultline_fetches\(fetchAll) 3.0", "faultline_rows_read\(fetchAll) 30.0",
            "faultline_faults_fired\(fetchAll) 0.0", "faultline_wall_median_seconds\(fetchAll) 0.002",
            "faultline_wall_min_seconds\(fetchAll) 0.0015", "faultline_wall_max_seconds\(fetchAll) 0.0025", "faultline_wall_samples\(fetchAll) 3.0",
            #"faultline_publish_time_seconds{commit="abc123"} 1780000000.0"#,
            "# TYPE faultline_sql_statements gauge", "# TYPE faultline_wall_median_seconds gauge",
            "# HELP faultline_sql_statements sqlStatements of one measured iteration of the scenario (exact; docs/report-schema.md)",
            // The exposition format's quoting of a hostile label value.
            #"faultline_sql_statements{scenario="Hostile<script>alert(\"x\")</script>\\ & 'q' "# + "\u{1B}" + #"[31m",commit="abc123"} 5.0"#,
        ] {
            #expect(lines.contains(expected), "\(expected) not in \(lines.sorted())")
        }
        // Counters the scenario did not report are not invented; advisory and failed ones are left out.
        #expect(!lines.contains { $0.hasPrefix("faultline_cache_hits") })
        #expect(!lines.contains { $0.contains("objects_registered") })
        #expect(!lines.contains { $0.contains("Broken") })
        #expect(publication.published == ["FetchAll", "SingleFault", PrometheusRoundTripTests.hostile])
        #expect(publication.leftOut == ["Broken"])
    }

    @Test func theGroupingKeyIsJobRunnerBranchScaleAndLabelsEachBase64() throws {
        let publication = try Publication(
            Self.report(), reportName: "r.json", job: "perf",
            labels: [MetricLabel(name: "branch", value: "feature/x y"), MetricLabel(name: "shard", value: "2")],
            environment: ["FAULTLINE_RUNNER": "big-box", "GITHUB_REF_NAME": "main"], time: Self.time)
        #expect(publication.grouping.map { "\($0.name)=\($0.value)" } == ["branch=feature/x y", "runner=big-box", "scale=0.02", "shard=2"])
        // job "perf", "feature/x y", "big-box", "0.02", "2" in base64url.
        #expect(publication.groupPath == "/metrics/job@base64/cGVyZg==/branch@base64/ZmVhdHVyZS94IHk=/runner@base64/YmlnLWJveA=="
            + "/scale@base64/MC4wMg==/shard@base64/Mg==")
        #expect(publication.commit == "abc123")
    }

    @Test(arguments: [
        ([:], nil, "host-not-used"),
        (["GITHUB_REF_NAME": "123/merge", "GITHUB_HEAD_REF": "topic", "RUNNER_NAME": "GitHub Actions 7"], "topic", "GitHub Actions 7"),
        (["GITHUB_HEAD_REF": "", "GITHUB_REF_NAME": "main", "FAULTLINE_RUNNER": "perf-1", "RUNNER_NAME": "x"], "main", "perf-1"),
        (["CI_COMMIT_REF_NAME": "dev", "CI_RUNNER_DESCRIPTION": "gitlab-perf"], "dev", "gitlab-perf"),
    ] as [([String: String], String?, String)])
    func branchAndRunnerComeFromTheEnvironmentWithoutLabels(environment: [String: String], branch: String?, runner: String) throws {
        let publication = try Publication(Self.report(), reportName: "r.json", labels: [], environment: environment, time: Self.time)
        let labels = Dictionary(uniqueKeysWithValues: publication.grouping.map { ($0.name, $0.value) })
        #expect(labels["branch"] == branch)
        #expect(labels["runner"] == runner)
    }

    @Test func aLabelReplacesTheCommitAndAReportWithoutOneIsRefused() throws {
        var report = Self.report()
        report.environment.gitCommit = nil
        #expect(throws: PublishError("r.json", "the report names no commit (environment.gitCommit): give --label commit=…")) {
            try Publication(report, reportName: "r.json", labels: [], environment: [:], time: Self.time)
        }
        let publication = try Publication(
            report, reportName: "r.json", labels: [MetricLabel(name: "commit", value: "v1.2")], environment: [:], time: Self.time)
        #expect(publication.commit == "v1.2")
        #expect(!publication.grouping.contains { $0.name == "commit" })
        report.scenarios = report.scenarios.filter { $0.status != .passed }
        #expect(throws: PublishError("r.json", "no scenario passed, so nothing to publish (1 in the report)")) {
            try Publication(report, reportName: "r.json", labels: [MetricLabel(name: "commit", value: "v1.2")], environment: [:], time: Self.time)
        }
    }

    @Test(arguments: [
        ("x", "--label x: expected key=value"),
        ("=1", "--label =1: an empty label name"),
        ("9x=1", "--label 9x=1: 9x is not a Prometheus label name (letters, digits and _, not starting with a digit)"),
        ("a-b=1", "--label a-b=1: a-b is not a Prometheus label name (letters, digits and _, not starting with a digit)"),
        ("__x=1", "--label __x=1: names starting with __ are Prometheus' own"),
        ("branch=", "--label branch=: an empty value: give one, or leave the label out"),
        ("job=x", "--label job=x: job cannot be set: the job is --job's"),
        ("scale=1", "--label scale=1: scale cannot be set: scale comes from the report's configuration"),
    ])
    func badLabelsSayWhatIsWrong(argument: String, message: String) {
        #expect(throws: PublishError("--label \(argument)", String(message.dropFirst("--label \(argument): ".count)))) {
            try MetricLabel(argument: argument)
        }
    }

    @Test func durationsAreCheckedAndSelectorsQuoted() throws {
        for good in ["30d", "12h", "1w2d", "90m", "1y", "500ms", "1h30m"] { try TrendReader.checkDuration(good, option: "--since") }
        for bad in ["", "30", "d", "0d", "5x", "1d1w", "-1d", "1.5h", "30 d"] {
            #expect(throws: PublishError.self) { try TrendReader.checkDuration(bad, option: "--since") }
        }
        #expect(PrometheusQuery.literal("a\"b\\c\nd") == #""a\"b\\c\nd""#)
    }

    @Test func everyMetricIsInTheDocsTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/prometheus.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for metric in FaultlineMetric.all {
            #expect(text.contains("| `\(metric.name)` |"), "docs/prometheus.md lacks \(metric.name)")
        }
        #expect(FaultlineMetric.all.map(\.name).contains("faultline_sql_statements"))
    }
}

/// The commands' bad input and failed pushes, without servers: one line, exit 2.
@Suite struct PublishCommandTests {
    static func perfRun(_ arguments: [String]) throws -> CommandResult { try PerfRunProcess.run(arguments) }

    /// A port where nothing listens.
    static func closedAddress() throws -> String { "http://127.0.0.1:\(try PrometheusServers.freePort())" }

    @Test func badInputIsOneLineAndExitTwo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("publish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try PrometheusRoundTripTests.write(PublicationTests.report(), in: directory, name: "r.json")
        let closed = try Self.closedAddress()
        let cases: [([String], String)] = [
            (["publish", report, "--pushgateway", "ftp://x"], "--pushgateway: ftp://x is not an http:// or https:// address with a host"),
            (["publish", report, "--pushgateway", closed.replacingOccurrences(of: "//", with: "//user:secret@")],
             "--pushgateway: \(closed): cannot push: connection refused (is the server running there?)"),  // no credentials printed
            (["publish", report, "--pushgateway", closed], "--pushgateway: \(closed): cannot push: connection refused (is the server running there?)"),
            (["publish", report, "--pushgateway", closed, "--label", "a=1", "--label", "a=2"], "--label a=2: a is given twice"),
            (["publish", report, "--pushgateway", closed, "--job", ""], "--job: an empty job name"),
            (["publish", directory.path + "/none.json", "--pushgateway", closed], "\(directory.path)/none.json: cannot read the file: No such file or directory"),
            (["run", "FetchAll", "--label", "x=1"], "--job and --label name what --pushgateway publishes: add --pushgateway URL"),
        ]
        for (arguments, message) in cases {
            let result = try Self.perfRun(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("secret"))
            if !message.isEmpty { #expect(result.stderr == message + "\n") }
        }
    }

    /// A push that fails at the end of a run: one line, exit 2, the reports written.
    @Test func aFailedPushAfterARunKeepsTheReports() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("r.json").path
        let closed = try Self.closedAddress()
        let result = try Self.perfRun([
            "run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--quiet", "--json", json,
            "--pushgateway=\(closed.replacingOccurrences(of: "//", with: "//ci:secret@"))", "--label", "commit=abc",
        ])
        #expect(result.status == 2)
        #expect(result.stderr == "--pushgateway: \(closed): cannot push: connection refused (is the server running there?)\n")
        let report = try ReportFile.read(json)
        #expect(report.scenarios.map(\.name) == ["FetchAll"])
        // The report records the command line without the credentials.
        #expect(report.tool.commandLine.contains("--pushgateway=\(closed)"))
        #expect(!(try String(contentsOfFile: json, encoding: .utf8)).contains("secret"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.html").path))
    }
}
