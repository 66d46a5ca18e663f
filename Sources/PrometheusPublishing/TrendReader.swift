import Foundation
import Reporting

/// Reads what `perf-run publish` published back from Prometheus, through
/// its query API, as a ``Trend``: for each metric of ``FaultlineMetric``,
/// one instant query of the last value of every series (one series per
/// commit) within the window, `last_over_time(NAME{job="…",…}[30d])`, and
/// the first publication of each commit, `min_over_time(…)`. A series that
/// went stale when the next commit's push replaced it still counts:
/// range selectors read its samples, not its staleness marker.
public struct TrendReader: Sendable {
    public let server: ServerAddress
    public let job: String
    /// Labels every series must carry (`--label`).
    public let labels: [MetricLabel]
    /// The window, a Prometheus duration (`30d`).
    public let since: String
    /// The scenarios to show, all when empty.
    public let scenarios: [String]

    /// Labels `trend --label` cannot match on, and why.
    public static let reservedForMatching: [String: String] = [
        "job": "the job is --job's",
        "scenario": "name scenarios as arguments",
        "commit": "the trend is across commits",
    ]

    public init(server: ServerAddress, job: String, labels: [MetricLabel], since: String, scenarios: [String]) throws(PublishError) {
        guard !job.isEmpty else { throw PublishError("--job", "an empty job name") }
        try Self.checkDuration(since, option: "--since")
        self.server = server
        self.job = job
        self.labels = labels
        self.since = since
        self.scenarios = scenarios
    }

    /// Checks a Prometheus duration (`30d`, `12h`, `1w2d`, `90m`): whole
    /// numbers, each with one of y, w, d, h, m, s, ms, largest first, and
    /// not zero in all.
    public static func checkDuration(_ text: String, option: String) throws(PublishError) {
        let units = ["y", "w", "d", "h", "m", "s", "ms"]
        var rest = Substring(text)
        var next = 0
        var total = 0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            let unit = rest.hasPrefix("ms") ? "ms" : String(rest.prefix(1))
            guard !digits.isEmpty, digits.count <= 9, let index = units.firstIndex(of: unit), index >= next else {
                throw PublishError("\(option) \(text)", "not a Prometheus duration (such as 30d, 12h, 1w2d)")
            }
            rest = rest.dropFirst(unit.count)
            next = index + 1
            total += Int(digits)!
        }
        guard total > 0 else { throw PublishError("\(option) \(text)", "a duration longer than zero (such as 30d)") }
    }

    /// The series selector: the job and the labels.
    var selector: String {
        let matchers = [("job", job)] + labels.map { ($0.name, $0.value) }
        return "{" + matchers.map { "\($0.0)=\(PrometheusQuery.literal($0.1))" }.joined(separator: ",") + "}"
    }

    /// The PromQL that reads `metric` back.
    func query(_ metric: FaultlineMetric) -> String {
        let function = metric.measure == .published ? "min_over_time" : "last_over_time"
        return "\(function)(\(metric.name)\(selector)[\(since)])"
    }

    /// Labels that are the store's or the series' identity, not a line's.
    static let notLineLabels: Set<String> = ["__name__", "job", "instance", "scenario", "commit"]

    /// Queries every metric and builds the trend.
    public func read() throws(PublishError) -> Trend {
        let client = PrometheusQuery(server: server)
        var observations: [TrendObservation] = []
        for metric in FaultlineMetric.all {
            for series in try client.instant(query(metric)) {
                guard let commit = series.labels["commit"] else { continue }
                let scenario = series.labels["scenario"]
                if metric.perScenario, scenario == nil { continue }
                let line = series.labels.filter { !Self.notLineLabels.contains($0.key) }
                observations.append(TrendObservation(metric.measure, scenario: metric.perScenario ? scenario : nil, commit: commit, labels: line, value: series.value))
            }
        }
        let found = Set(observations.compactMap(\.scenario))
        let matchers = Dictionary(([("job", job)] + labels.map { ($0.name, $0.value) }), uniquingKeysWith: { $1 })
        let described = "{\(Trend.labelText(matchers))}"
        guard !found.isEmpty else {
            throw PublishError(server.option, "\(server): no Faultline series \(described) in the last \(since) (perf-run publish sends them)")
        }
        if let missing = scenarios.first(where: { !found.contains($0) }) {
            throw PublishError(
                nil, "scenario \(missing): no series \(described) in the last \(since) at \(server) (there are: \(found.sorted().joined(separator: ", ")))")
        }
        let kept = scenarios.isEmpty ? observations : observations.filter { $0.scenario.map(scenarios.contains) ?? true }
        return Trend(source: server.description, since: since, matchers: matchers, observations: kept, scenarios: scenarios)
    }
}
