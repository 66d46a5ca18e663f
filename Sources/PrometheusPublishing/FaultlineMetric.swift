import Probes
import Prometheus
import Reporting

/// The metrics `perf-run publish` writes, named in one place
/// (docs/prometheus.md has the table).
///
/// Every one is a gauge: the latest values per group, for dashboards. A
/// report's counters are what one measured iteration of a scenario did, a
/// reading that goes up or down from one commit to the next, not a running
/// total of one process: as Prometheus counters (`…_total`), a commit that
/// runs fewer statements would read as a counter reset to `rate()` and
/// `increase()`. Times are in seconds, the base unit, with the unit last
/// (`_seconds`).
///
/// No series carries the commit: it is a label of one info metric per
/// group (``reportInfo``), so a push of another commit replaces the
/// group's series rather than adding new ones. Every name starts with
/// `faultline_scenario_` or `faultline_report_`, so that none is (or
/// makes the family of) a name of the swift-metrics bridge
/// (`FaultlineMetrics`, whose counters are `faultline_…_total`): a
/// Pushgateway refuses a push whose name another group holds as another
/// type.
public struct FaultlineMetric: Hashable, Sendable {
    /// The full name (`faultline_scenario_sql_statements`).
    public let name: String
    public let help: String
    /// Whether the series carries a `scenario` label.
    public let perScenario: Bool
    private let metricName: String
    private let unit: String

    static let namespace = "faultline"

    private init(_ metricName: String, unit: String = "", help: String, perScenario: Bool = true) {
        self.metricName = metricName
        self.unit = unit
        self.help = help
        self.perScenario = perScenario
        self.name = [Self.namespace, metricName, unit].filter { !$0.isEmpty }.joined(separator: "_")
    }

    /// The name as swift-prometheus builds it: namespace, name, unit.
    var descriptor: MetricNameDescriptor {
        MetricNameDescriptor(namespace: Self.namespace, metricName: metricName, unitName: unit, helpText: help)
    }

    /// An exact report counter's metric: its name in snake case
    /// (`sqlStatements` → `faultline_scenario_sql_statements`).
    public static func counter(_ counter: CounterName) -> FaultlineMetric {
        FaultlineMetric(
            "scenario_" + snakeCase(counter.rawValue),
            help: "\(counter.rawValue) of one measured iteration of the scenario (exact; docs/report-schema.md)")
    }

    /// A counter the report marks advisory for the scenario (the peak of
    /// registered objects always; any counter of a run whose first
    /// iteration differed, as one without warm-up can): published apart,
    /// `faultline_scenario_advisory_sql_statements`, so that a dashboard or
    /// an alert on the exact one never reads it, and nothing is dropped.
    public static func advisoryCounter(_ counter: CounterName) -> FaultlineMetric {
        FaultlineMetric(
            "scenario_advisory_" + snakeCase(counter.rawValue),
            help: "\(counter.rawValue) of the scenario, advisory in this report (not exact: docs/report-schema.md)")
    }

    public static let wallMedian = FaultlineMetric(
        "scenario_wall_median", unit: "seconds", help: "Median wall time of the scenario's measured iterations")
    public static let wallMin = FaultlineMetric(
        "scenario_wall_min", unit: "seconds", help: "Shortest wall time of the scenario's measured iterations")
    public static let wallMax = FaultlineMetric(
        "scenario_wall_max", unit: "seconds", help: "Longest wall time of the scenario's measured iterations")
    public static let samples = FaultlineMetric(
        "scenario_wall_samples", help: "Measured iterations of the scenario (the samples behind the wall times)")
    /// 1, with the report's commit and tool as labels (``ReportInfoLabel``):
    /// one series per group, whichever commit it holds.
    public static let reportInfo = FaultlineMetric(
        "report_info", help: "The published report: its commit, perf-run's version and the build (value 1)", perScenario: false)
    /// When the report was pushed, for an age-based clean-up
    /// (`time() - faultline_report_pushed_timestamp_seconds > 30 * 86400`).
    public static let pushedTime = FaultlineMetric(
        "report_pushed_timestamp", unit: "seconds", help: "When the group's report was pushed, in seconds since the Unix epoch",
        perScenario: false)

    /// The counters that can be exact, published as such where the report
    /// does not mark them advisory. The peak of registered objects depends
    /// on when Swift frees objects: it is always advisory.
    public static let publishedCounters: [CounterName] = CounterName.allCases.filter { $0.direction != .advisory }

    /// Whether a scenario's counter goes out as advisory.
    static func isAdvisory(_ counter: CounterName, in scenario: ScenarioReport) -> Bool {
        counter.direction == .advisory || scenario.advisoryCounters.contains(counter.rawValue)
    }

    /// Every metric that can be published, in the order of docs/prometheus.md's table.
    public static var all: [FaultlineMetric] {
        publishedCounters.map(counter) + CounterName.allCases.map(advisoryCounter) + [wallMedian, wallMin, wallMax, samples, reportInfo, pushedTime]
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

/// The labels of ``FaultlineMetric/reportInfo``: what identifies the
/// published report besides its group.
public enum ReportInfoLabel: String, CaseIterable, Sendable {
    case commit
    case perfRunVersion = "perf_run_version"
    case buildConfiguration = "build_configuration"
    case swiftVersion = "swift_version"
    case sqliteVersion = "sqlite_version"
}
