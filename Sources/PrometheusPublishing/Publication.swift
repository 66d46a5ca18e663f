import Foundation
import Probes
import Prometheus
import Reporting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A report as Prometheus metrics for a Pushgateway: what goes in the
/// body (each passed scenario's counters and wall time summary, with a
/// `scenario` label; the report's commit and tool in one info metric; the
/// time of the push), and the group it goes to (job, runner, branch, scale
/// and any label a team adds).
///
/// The Pushgateway keeps the last push per group: it holds the latest
/// values of each kind of run, for dashboards, not a history. No series
/// carries the commit (only ``FaultlineMetric/reportInfo`` does), so a
/// push of the next commit replaces the group's series instead of adding
/// a series per metric and scenario for every commit. Every report, by
/// commit, belongs in the history store (`perf-run history`).
public struct Publication: Sendable {
    public let group: PushGroup
    public let commit: String
    /// The exposition text (swift-prometheus' registry).
    public let body: [UInt8]
    /// Scenarios published, and those left out (failed or skipped).
    public let published: [String]
    public let leftOut: [String]
    /// Counters that are exact in other reports and advisory in this one
    /// (a run whose first iteration differed, as one without warm-up can),
    /// as `Scenario counter`: published under
    /// ``FaultlineMetric/advisoryCounter(_:)``, not as exact.
    public let advisory: [String]

    /// The job, the group's.
    public var job: String { group.job }
    /// The grouping labels besides the job.
    public var grouping: [MetricLabel] { group.labels }
    /// The group as a Pushgateway path.
    public var groupPath: String { group.path }

    /// The job `--job` defaults to.
    public static let defaultJob = "faultline"

    /// Environment variables read for a label `--label` did not give, in
    /// order: Faultline's own, then GitHub Actions', then GitLab CI's.
    public static let environmentLabels: [(label: String, variables: [String])] = [
        ("branch", ["FAULTLINE_BRANCH", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"]),
        ("runner", ["FAULTLINE_RUNNER", "RUNNER_NAME", "CI_RUNNER_DESCRIPTION"]),
    ]

    /// - Parameters:
    ///   - reportName: the report's path, for messages.
    ///   - labels: `--label`s: `commit` replaces the report's; `branch` and
    ///     `runner` replace what the environment says; others join the group.
    ///   - environment: the process's environment (CI variables).
    ///   - time: the time of the push.
    public init(
        _ report: Report, reportName: String, job: String = defaultJob, labels: [MetricLabel], environment: [String: String], time: Date
    ) throws(PublishError) {
        guard !job.isEmpty else { throw PublishError("--job", "an empty job name") }
        var given = Dictionary(labels.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        guard let commit = given.removeValue(forKey: "commit") ?? report.environment.gitCommit.flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw PublishError(reportName, "the report names no commit (environment.gitCommit): give --label commit=…")
        }
        self.commit = commit
        group = Self.group(of: report, job: job, given: given, environment: environment)

        let passed = report.scenarios.filter { $0.status == .passed }
        published = passed.map(\.name)
        leftOut = report.scenarios.filter { $0.status != .passed }.map(\.name)
        guard !passed.isEmpty else {
            throw PublishError(reportName, "no scenario passed, so nothing to publish (\(report.scenarios.count) in the report)")
        }
        let registry = PrometheusCollectorRegistry()
        func gauge(_ metric: FaultlineMetric, _ labels: [(String, String)]) -> Gauge {
            registry.makeGauge(descriptor: metric.descriptor, labels: labels)
        }
        var advisory: [String] = []
        for scenario in passed {
            let labels = [("scenario", scenario.name)]
            for counter in CounterName.allCases {
                guard let value = scenario.counters[counter] else { continue }
                if FaultlineMetric.isAdvisory(counter, in: scenario) {
                    gauge(.advisoryCounter(counter), labels).set(to: Double(value))
                    if counter.direction != .advisory { advisory.append("\(scenario.name) \(counter.rawValue)") }
                } else {
                    gauge(.counter(counter), labels).set(to: Double(value))
                }
            }
            let wall = scenario.summary?.wallSeconds ?? (scenario.samples.isEmpty ? nil : Statistics(scenario.samples.map(\.wallSeconds)))
            if let wall {
                gauge(.wallMedian, labels).set(to: wall.median)
                gauge(.wallMin, labels).set(to: wall.min)
                gauge(.wallMax, labels).set(to: wall.max)
            }
            gauge(.samples, labels).set(to: Double(scenario.samples.count))
        }
        self.advisory = advisory
        let info: [(ReportInfoLabel, String)] = [
            (.commit, commit), (.perfRunVersion, report.tool.version), (.buildConfiguration, report.environment.buildConfiguration),
            (.swiftVersion, report.environment.swiftVersion), (.sqliteVersion, report.environment.sqliteVersion),
        ]
        gauge(.reportInfo, info.filter { !$0.1.isEmpty }.map { ($0.0.rawValue, $0.1) }).set(to: 1)
        gauge(.pushedTime, []).set(to: time.timeIntervalSince1970)
        body = registry.emitToBuffer()
    }

    /// The group a report goes to: the job; `branch` and `runner` from the
    /// labels, else the environment (the runner else the report's host);
    /// the report's scale; the other labels.
    public static func group(of report: Report, job: String = defaultJob, labels: [MetricLabel], environment: [String: String]) -> PushGroup {
        var given = Dictionary(labels.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        given["commit"] = nil
        return group(of: report, job: job, given: given, environment: environment)
    }

    private static func group(of report: Report, job: String, given: [String: String], environment: [String: String]) -> PushGroup {
        var given = given
        for (label, variables) in environmentLabels where given[label] == nil {
            given[label] = variables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        if given["runner"] == nil, !report.environment.hostName.isEmpty { given["runner"] = report.environment.hostName }
        given["scale"] = scaleText(report.configuration.scale)
        return PushGroup(job: job, labels: given.map { MetricLabel(name: $0.key, value: $0.value) })
    }

    /// A scale as a label: `0.02`, `1`.
    static func scaleText(_ scale: Double) -> String {
        scale == scale.rounded() && abs(scale) < 1e15 ? String(Int64(scale)) : String(scale)
    }

    /// Replaces the group on the Pushgateway with this report's metrics (PUT).
    public func push(to gateway: ServerAddress) throws(PublishError) {
        var request = URLRequest(url: gateway.appending(encodedPath: groupPath))
        request.httpMethod = "PUT"
        request.setValue("text/plain; version=0.0.4; charset=utf-8", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        let answer = try HTTPExchange.send(request, to: gateway, doing: "push")
        guard (200..<300).contains(answer.status) else {
            let detail = answer.firstLine
            throw PublishError(gateway.option, "\(gateway): the Pushgateway refused the push: HTTP \(answer.status)\(detail.isEmpty ? "" : ": \(detail)")")
        }
    }

    /// What was published, in one line.
    public func summary(to gateway: ServerAddress) -> String {
        var text = "published \(published.count) scenario\(published.count == 1 ? "" : "s") of commit \(commit) to \(gateway) \(group.description)"
        if !leftOut.isEmpty { text += "; not published (failed or skipped): \(leftOut.joined(separator: ", "))" }
        if !advisory.isEmpty {
            text += "; advisory in this report, so published as faultline_scenario_advisory_*, not as exact: \(advisory.joined(separator: ", "))"
        }
        return text
    }
}
