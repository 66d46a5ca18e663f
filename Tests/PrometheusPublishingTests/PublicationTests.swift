import Foundation
import PrometheusPublishing
import Reporting
import TestSupport
import Testing
import ToolSupport

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

    @Test func theBodyHasEachPassedScenariosCountersAndWallTimesAndTheCommitOnlyInTheInfoMetric() throws {
        let publication = try Publication(
            Self.report(), reportName: "r.json", labels: [MetricLabel(name: "runner", value: "ci")], environment: [:], time: Self.time)
        let lines = Self.lines(publication)
        let fetchAll = #"{scenario="FetchAll"}"#
        for expected in [
            "faultline_scenario_sql_statements\(fetchAll) 3.0", "faultline_scenario_fetches\(fetchAll) 3.0",
            "faultline_scenario_rows_read\(fetchAll) 30.0", "faultline_scenario_faults_fired\(fetchAll) 0.0",
            "faultline_scenario_wall_median_seconds\(fetchAll) 0.002", "faultline_scenario_wall_min_seconds\(fetchAll) 0.0015",
            "faultline_scenario_wall_max_seconds\(fetchAll) 0.0025", "faultline_scenario_wall_samples\(fetchAll) 3.0",
            // The peak of registered objects is always advisory: published apart.
            "faultline_scenario_advisory_objects_registered_peak\(fetchAll) 77.0",
            #"faultline_report_info{commit="abc123",perf_run_version="0.1.0",build_configuration="debug",swift_version="6.3",sqlite_version="3.40.1"} 1.0"#,
            "faultline_report_pushed_timestamp_seconds 1780000000.0",
            "# TYPE faultline_scenario_sql_statements gauge", "# TYPE faultline_scenario_wall_median_seconds gauge", "# TYPE faultline_report_info gauge",
            "# HELP faultline_scenario_sql_statements sqlStatements of one measured iteration of the scenario (exact; docs/report-schema.md)",
            // The exposition format's quoting of a hostile label value.
            #"faultline_scenario_sql_statements{scenario="Hostile<script>alert(\"x\")</script>\\ & 'q' "# + "\u{1B}" + #"[31m"} 5.0"#,
        ] {
            #expect(lines.contains(expected), "\(expected) not in \(lines.sorted())")
        }
        // The commit is on the info metric only: a push of another commit makes no new series.
        #expect(lines.filter { $0.contains("abc123") }.count == 1)
        // Counters the scenario did not report are not invented; failed scenarios are left out.
        #expect(!lines.contains { $0.hasPrefix("faultline_scenario_cache_hits") })
        #expect(!lines.contains { $0.hasPrefix("faultline_scenario_objects_registered_peak") })
        #expect(!lines.contains { $0.contains("Broken") })
        #expect(publication.published == ["FetchAll", "SingleFault", PrometheusRoundTripTests.hostile])
        #expect(publication.leftOut == ["Broken"])
        // Only the peak was advisory, as in every report: nothing to say.
        #expect(publication.advisory.isEmpty)
        #expect(!publication.summary(to: try ServerAddress("http://gw:9091", option: "--pushgateway")).contains("advisory"))
    }

    /// A report whose first iteration made sqlStatements advisory (a run
    /// with --warmup 0): it is published as advisory, not as exact, and
    /// the summary names it; without that, it goes out as exact.
    @Test func aCounterAdvisoryInTheReportIsPublishedApartAndSaid() throws {
        var report = Self.report()
        report.scenarios[0].advisoryCounters.append("sqlStatements")
        let publication = try Publication(report, reportName: "r.json", labels: [], environment: [:], time: Self.time)
        let lines = Self.lines(publication)
        #expect(lines.contains(#"faultline_scenario_advisory_sql_statements{scenario="FetchAll"} 3.0"#))
        #expect(!lines.contains(#"faultline_scenario_sql_statements{scenario="FetchAll"} 3.0"#))
        #expect(lines.contains(#"faultline_scenario_sql_statements{scenario="SingleFault"} 41.0"#))
        #expect(publication.advisory == ["FetchAll sqlStatements"])
        let gateway = try ServerAddress("http://gw:9091", option: "--pushgateway")
        #expect(publication.summary(to: gateway) == "published 3 scenarios of commit abc123 to http://gw:9091 {job=faultline runner=host-not-used scale=0.02}"
            + "; not published (failed or skipped): Broken"
            + "; advisory in this report, so published as faultline_scenario_advisory_*, not as exact: FetchAll sqlStatements")
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
        // The group of --delete is the group of the push.
        let group = Publication.group(
            of: Self.report(), job: "perf", labels: [MetricLabel(name: "branch", value: "feature/x y"), MetricLabel(name: "shard", value: "2"),
                                                    MetricLabel(name: "commit", value: "other")],
            environment: ["FAULTLINE_RUNNER": "big-box"])
        #expect(group == publication.group)
        // An empty value, as a group listed by the Pushgateway can have, is `=`.
        #expect(PushGroup(job: "j", labels: [MetricLabel(name: "branch", value: "")]).path == "/metrics/job@base64/ag==/branch@base64/=")
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
        ("perf_run_version=2", "--label perf_run_version=2: perf_run_version cannot be set: perf_run_version comes from the report (faultline_report_info)"),
    ])
    func badLabelsSayWhatIsWrong(argument: String, message: String) {
        #expect(throws: PublishError("--label \(argument)", String(message.dropFirst("--label \(argument): ".count)))) {
            try MetricLabel(argument: argument)
        }
    }

    @Test func durationsAreCheckedAndCounted() throws {
        for (good, seconds) in [("30d", 2_592_000.0), ("12h", 43_200), ("1w2d", 777_600), ("90m", 5_400), ("1y", 31_536_000), ("500ms", 0.5),
                                ("1h30m", 5_400), ("2s", 2)] {
            #expect(try PrometheusDuration(good, option: "--delete-older-than").seconds == seconds)
        }
        for bad in ["", "30", "d", "0d", "5x", "1d1w", "-1d", "1.5h", "30 d"] {
            #expect(throws: PublishError.self) { try PrometheusDuration(bad, option: "--delete-older-than") }
        }
        #expect(throws: PublishError("--delete-older-than 30", "not a Prometheus duration (such as 30d, 12h, 1w2d)")) {
            try PrometheusDuration("30", option: "--delete-older-than")
        }
    }

    /// The groups an age-based clean-up deletes, from the Pushgateway's
    /// answer: the job's, holding Faultline's metrics, with every label
    /// asked for, pushed before the cut-off; oldest first.
    @Test func staleGroupsAreTheJobsOlderOnesWithTheLabels() throws {
        func group(_ job: String, _ labels: [String: String], pushed: Double, metric: String = "faultline_report_info") -> String {
            let all = labels.merging(["job": job]) { $1 }
            let text = all.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",")
            return #"{"labels":{"# + text + #"},"push_time_seconds":{"metrics":[{"labels":{},"value":"\#(pushed)"}]},"# +
                #""push_failure_time_seconds":{"metrics":[]},"\#(metric)":{"metrics":[]},"last_push_successful":true}"#
        }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let day = 86_400.0
        let answer = #"{"status":"success","data":["# + [
            group("faultline", ["runner": "old", "branch": "main"], pushed: now.timeIntervalSince1970 - 40 * day),
            group("faultline", ["runner": "older", "branch": ""], pushed: now.timeIntervalSince1970 - 50 * day),
            group("faultline", ["runner": "new", "branch": "main"], pushed: now.timeIntervalSince1970 - 1 * day),
            group("other", ["runner": "old"], pushed: now.timeIntervalSince1970 - 40 * day),
            group("faultline", ["runner": "not-ours"], pushed: now.timeIntervalSince1970 - 40 * day, metric: "app_requests_total"),
        ].joined(separator: ",") + "]}"
        let groups = try PushgatewayGroups(apiAnswer: Data(answer.utf8))
        #expect(groups.groups.count == 5)
        let age = try PrometheusDuration("30d", option: "--delete-older-than")
        let stale = groups.stale(job: "faultline", matching: [], olderThan: age, now: now)
        #expect(stale.map(\.group.description) == ["{job=faultline branch= runner=older}", "{job=faultline branch=main runner=old}"])
        #expect(stale.first?.group.path == "/metrics/job@base64/ZmF1bHRsaW5l/branch@base64/=/runner@base64/b2xkZXI=")
        let main = groups.stale(job: "faultline", matching: [MetricLabel(name: "branch", value: "main")], olderThan: age, now: now)
        #expect(main.map(\.group.description) == ["{job=faultline branch=main runner=old}"])
        #expect(throws: (any Error).self) { try PushgatewayGroups(apiAnswer: Data("<html>".utf8)) }
    }

    @Test func everyMetricIsInTheDocsTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/prometheus.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for metric in FaultlineMetric.all where !metric.name.hasPrefix("faultline_scenario_advisory_") {
            #expect(text.contains("| `\(metric.name)` |"), "docs/prometheus.md lacks \(metric.name)")
        }
        #expect(text.contains("`faultline_scenario_advisory_` + the name"))
        #expect(FaultlineMetric.all.map(\.name).contains("faultline_scenario_sql_statements"))
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
             "--pushgateway: \(closed.replacingOccurrences(of: "//", with: "//***@")): cannot push: connection refused (is the server running there?)"),  // no credentials printed
            (["publish", report, "--pushgateway", closed], "--pushgateway: \(closed): cannot push: connection refused (is the server running there?)"),
            (["publish", report, "--pushgateway", closed, "--label", "a=1", "--label", "a=2"], "--label a=2: a is given twice"),
            (["publish", report, "--pushgateway", closed, "--job", ""], "--job: an empty job name"),
            (["publish", directory.path + "/none.json", "--pushgateway", closed], "\(directory.path)/none.json: cannot read the file: No such file or directory"),
            (["publish", report, "--pushgateway", closed, "--delete"],
             "--pushgateway: \(closed): cannot delete {job=faultline runner=host-not-used scale=0.02}: connection refused (is the server running there?)"),
            (["publish", "--pushgateway", closed, "--delete-older-than", "30d"],
             "--pushgateway: \(closed): cannot list the groups: connection refused (is the server running there?)"),
            (["publish", "--pushgateway", closed, "--delete-older-than", "30"], "--delete-older-than 30: not a Prometheus duration (such as 30d, 12h, 1w2d)"),
            (["publish", report, "--pushgateway", closed, "--delete-older-than", "30d"], "--delete-older-than cleans up by age: give no report"),
            (["publish", "--pushgateway", closed], "give the report to publish (or --delete-older-than DURATION to clean up by age)"),
            (["publish", report, "--pushgateway", closed, "--label", "scale=1"],
             "--label scale=1: scale cannot be set: scale comes from the report's configuration"),
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
        let shown = closed.replacingOccurrences(of: "//", with: "//***@")
        #expect(result.stderr == "--pushgateway: \(shown): cannot push: connection refused (is the server running there?)\n")
        let report = try ReportFile.read(json)
        #expect(report.scenarios.map(\.name) == ["FetchAll"])
        // The report records the command line without the credentials.
        #expect(report.tool.commandLine.contains("--pushgateway=\(shown)"))
        #expect(!(try String(contentsOfFile: json, encoding: .utf8)).contains("secret"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.html").path))
    }

    /// An address no URL reader accepts (no scheme, an unclosed `[`, a `/`
    /// in the password) is refused without its password, by `publish` and
    /// by `run --pushgateway` alike, and a run's recorded command line
    /// keeps none either.
    @Test(arguments: [
        ("ci:hunter2@pushgateway:9091", "--pushgateway: ***@pushgateway:9091 is not an http:// or https:// address with a host"),
        ("http://ci:hunter2@[::1:9091", "--pushgateway: http://***@[::1:9091 is not an http:// or https:// address with a host"),
        ("http://ci:hun/ter2@host:9091", "--pushgateway: http://***@host:9091 is not an http:// or https:// address with a host"),
        ("https://ci:hunter2@host:9091/x?y=1", "--pushgateway: https://***@host:9091/x?y=1: an address without ?query or #fragment"),
    ])
    func anAddressThatDoesNotParseIsNamedWithoutItsPassword(address: String, message: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("publish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try PrometheusRoundTripTests.write(PublicationTests.report(), in: directory, name: "r.json")
        for arguments in [["publish", report, "--pushgateway", address], ["run", "FetchAll", "--pushgateway=\(address)"]] {
            let result = try Self.perfRun(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("hunter2") && !result.stderr.contains("ter2"), "\(arguments): \(result.stderr)")
            #expect(result.stderr == message + "\n", "\(arguments)")
        }
        #expect(throws: PublishError("--pushgateway", String(message.dropFirst("--pushgateway: ".count)))) {
            try ServerAddress(address, option: "--pushgateway")
        }
    }

    /// The text of any address, parsable or not, loses its credentials,
    /// and only them.
    @Test(arguments: [
        ("http://u:p@host:9091/x", "http://***@host:9091/x"), ("https://TOKEN@host", "https://***@host"),
        ("u:p@host:9091", "***@host:9091"), ("//u:p@host", "//***@host"), ("http://u:p@[::1", "http://***@[::1"),
        ("http://u:p/q@host/path", "http://***@host/path"), ("http://u:p@host/a@b", "http://***@host/a@b"),
        ("http://host:9091/x", "http://host:9091/x"), ("http://host/x?mail=a@b", "http://host/x?mail=a@b"), ("", ""),
    ])
    func credentialsAreRedactedFromAnyAddressText(text: String, redacted: String) {
        #expect(URLCredentials.redacted(text) == redacted)
    }

    /// A command line keeps the credentials of none of its addresses: an
    /// address option's value whatever its form, any other argument with
    /// a scheme; a path with an `@` is left alone.
    @Test func aCommandLineIsRecordedWithoutCredentials() {
        let arguments = [
            "perf-run", "run", "--pushgateway", "ci:secret@gw:9091", "--lttng-relay=u:secret@relay", "--json", "out@2x/r.json",
            "http://a:secret@h",
        ]
        #expect(
            ServerAddress.redactingCredentials(in: arguments, options: ["--pushgateway", "--lttng-relay"]) == [
                "perf-run", "run", "--pushgateway", "***@gw:9091", "--lttng-relay=***@relay", "--json", "out@2x/r.json", "http://***@h",
            ])
    }
}
