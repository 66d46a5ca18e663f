import Foundation
import Probes
import Prometheus
import Reporting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A report as Prometheus metrics for a Pushgateway: what goes in the
/// body (each passed scenario's exact counters and wall time summary, with
/// `scenario` and `commit` labels, and the publication time), and the
/// grouping key it goes under (job, runner, branch, scale and any label
/// a team adds).
///
/// The grouping key leaves the commit out on purpose: each push replaces
/// the last one of its runner, branch and scale, so the Pushgateway holds
/// one report per kind of run, and Prometheus keeps the history (a series
/// per commit). A commit in the key would keep every commit's series alive
/// in every scrape, for ever.
public struct Publication: Sendable {
    public let job: String
    public let commit: String
    /// The grouping key besides the job, by name.
    public let grouping: [MetricLabel]
    /// The exposition text (swift-prometheus' registry).
    public let body: [UInt8]
    /// Scenarios published, and those left out (failed or skipped).
    public let published: [String]
    public let leftOut: [String]

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
    ///     `runner` replace what the environment says; others join the key.
    ///   - environment: the process's environment (CI variables).
    ///   - time: the publication time.
    public init(
        _ report: Report, reportName: String, job: String = defaultJob, labels: [MetricLabel], environment: [String: String], time: Date
    ) throws(PublishError) {
        guard !job.isEmpty else { throw PublishError("--job", "an empty job name") }
        self.job = job
        var given = Dictionary(labels.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
        guard let commit = given.removeValue(forKey: "commit") ?? report.environment.gitCommit.flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw PublishError(reportName, "the report names no commit (environment.gitCommit): give --label commit=…")
        }
        self.commit = commit
        for (label, variables) in Self.environmentLabels where given[label] == nil {
            given[label] = variables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        if given["runner"] == nil, !report.environment.hostName.isEmpty { given["runner"] = report.environment.hostName }
        given["scale"] = Self.scaleText(report.configuration.scale)
        grouping = given.sorted { $0.key < $1.key }.map { MetricLabel(name: $0.key, value: $0.value) }

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
        for scenario in passed {
            let labels = [("scenario", scenario.name), ("commit", commit)]
            for counter in FaultlineMetric.publishedCounters where !scenario.advisoryCounters.contains(counter.rawValue) {
                guard let value = scenario.counters[counter] else { continue }
                gauge(.counter(counter), labels).set(to: Double(value))
            }
            let wall = scenario.summary?.wallSeconds ?? (scenario.samples.isEmpty ? nil : Statistics(scenario.samples.map(\.wallSeconds)))
            if let wall {
                gauge(.wallMedian, labels).set(to: wall.median)
                gauge(.wallMin, labels).set(to: wall.min)
                gauge(.wallMax, labels).set(to: wall.max)
            }
            gauge(.samples, labels).set(to: Double(scenario.samples.count))
        }
        gauge(.published, [("commit", commit)]).set(to: time.timeIntervalSince1970)
        body = registry.emitToBuffer()
    }

    /// A scale as a label: `0.02`, `1`.
    static func scaleText(_ scale: Double) -> String {
        scale == scale.rounded() && abs(scale) < 1e15 ? String(Int64(scale)) : String(scale)
    }

    /// The grouping key as a Pushgateway path: `/metrics/job@base64/…` and
    /// `/NAME@base64/VALUE` per label. Every value is base64url-encoded, so
    /// that a `/` in a branch name stays in its value.
    public var groupPath: String {
        var path = "/metrics/job@base64/" + Self.base64URL(job)
        for label in grouping { path += "/\(label.name)@base64/" + Self.base64URL(label.value) }
        return path
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
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
        let key = (["job=\(job)"] + grouping.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
        var text = "published \(published.count) scenario\(published.count == 1 ? "" : "s") of commit \(commit) to \(gateway) {\(key)}"
        if !leftOut.isEmpty { text += "; not published (failed or skipped): \(leftOut.joined(separator: ", "))" }
        return text
    }
}
