import Probes
import Prometheus
import Reporting

/// The metrics `perf-run publish` writes and `perf-run trend` reads back,
/// named in one place (docs/prometheus.md has the table).
///
/// Every one is a gauge. A report's counters are what one measured
/// iteration of a scenario did: a reading that goes up or down from one
/// commit to the next, not a running total of one process. As Prometheus
/// counters (`…_total`), a commit that runs fewer statements would read as
/// a counter reset to `rate()` and `increase()`; as gauges, the value per
/// commit is the series itself. Times are in seconds, the base unit, with
/// the unit last (`_seconds`).
public struct FaultlineMetric: Hashable, Sendable {
    /// The full name (`faultline_sql_statements`).
    public let name: String
    public let help: String
    /// What the trend makes of it.
    public let measure: TrendObservation.Measure
    /// Whether the series carries a `scenario` label.
    public let perScenario: Bool
    private let metricName: String
    private let unit: String

    static let namespace = "faultline"

    private init(_ metricName: String, unit: String = "", help: String, measure: TrendObservation.Measure, perScenario: Bool = true) {
        self.metricName = metricName
        self.unit = unit
        self.help = help
        self.measure = measure
        self.perScenario = perScenario
        self.name = [Self.namespace, metricName, unit].filter { !$0.isEmpty }.joined(separator: "_")
    }

    /// The name as swift-prometheus builds it: namespace, name, unit.
    var descriptor: MetricNameDescriptor {
        MetricNameDescriptor(namespace: Self.namespace, metricName: metricName, unitName: unit, helpText: help)
    }

    /// A report counter's metric: its name in snake case
    /// (`sqlStatements` → `faultline_sql_statements`).
    public static func counter(_ counter: CounterName) -> FaultlineMetric {
        FaultlineMetric(
            snakeCase(counter.rawValue), help: "\(counter.rawValue) of one measured iteration of the scenario (exact; docs/report-schema.md)",
            measure: .counter(counter.rawValue))
    }

    public static let wallMedian = FaultlineMetric(
        "wall_median", unit: "seconds", help: "Median wall time of the scenario's measured iterations", measure: .wallMedian)
    public static let wallMin = FaultlineMetric(
        "wall_min", unit: "seconds", help: "Shortest wall time of the scenario's measured iterations", measure: .wallMin)
    public static let wallMax = FaultlineMetric(
        "wall_max", unit: "seconds", help: "Longest wall time of the scenario's measured iterations", measure: .wallMax)
    public static let samples = FaultlineMetric(
        "wall_samples", help: "Measured iterations of the scenario (the samples behind the wall times)", measure: .samples)
    public static let published = FaultlineMetric(
        "publish_time", unit: "seconds", help: "When this commit's report was published, in seconds since the Unix epoch",
        measure: .published, perScenario: false)

    /// The counters that are published: every one that can be exact. The
    /// peak of registered objects depends on when Swift frees objects, and
    /// a counter a report marks advisory for a scenario is left out for it.
    public static let publishedCounters: [CounterName] = CounterName.allCases.filter { $0.direction != .advisory }

    /// Every metric, in the order of docs/prometheus.md's table.
    public static var all: [FaultlineMetric] {
        publishedCounters.map(counter) + [wallMedian, wallMin, wallMax, samples, published]
    }

    /// `camelCase` as `snake_case`.
    static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
