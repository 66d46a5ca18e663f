import Foundation

/// One value a Prometheus query gave back: what it measures, for which
/// scenario, commit and series labels. `perf-run publish`'s metrics
/// (`FaultlineMetric`) say what they measure with it.
public struct TrendObservation: Equatable, Sendable {
    public enum Measure: Hashable, Sendable {
        /// A report counter, by its report name (`sqlStatements`).
        case counter(String)
        case wallMedian, wallMin, wallMax, samples
        /// When the commit's report was published (Unix seconds); no scenario.
        case published
    }

    public var measure: Measure
    /// Nil for ``Measure/published``.
    public var scenario: String?
    public var commit: String
    /// The series' labels: everything but the scenario, the commit and the
    /// store's own (job, instance).
    public var labels: [String: String]
    public var value: Double

    public init(_ measure: Measure, scenario: String?, commit: String, labels: [String: String], value: Double) {
        self.measure = measure
        self.scenario = scenario
        self.commit = commit
        self.labels = labels
        self.value = value
    }
}

extension Trend {
    /// A trend from Prometheus' series of `perf-run publish` (one value per
    /// commit: median, min, max and sample count, no samples), as
    /// `TrendReader` read it. Prometheus keeps only the latest values per
    /// group (docs/prometheus.md), so `perf-run trend` reads the history
    /// store (``init(runs:source:window:detection:)``); this stays for
    /// code that still reads Prometheus. A line's runner and branch are the
    /// series' `runner` and `branch` labels, its scale the `scale` label;
    /// each commit's median is its one sample.
    public init(source: String, since: String, matchers: [String: String], observations: [TrendObservation], scenarios: [String] = []) {
        var published: [String: Double] = [:]
        var measured: [Line.Key: [String: [TrendObservation.Measure: Double]]] = [:]
        for observation in observations where observation.value.isFinite {
            guard let scenario = observation.scenario else {
                if observation.measure == .published { published[observation.commit] = min(published[observation.commit] ?? .infinity, observation.value) }
                continue
            }
            let labels = observation.labels
            let key = Line.Key(
                scenario: scenario, project: labels["project"] ?? "", branch: labels["branch"] ?? "", runner: labels["runner"] ?? "",
                scale: labels["scale"].flatMap(Double.init) ?? 1, seed: 1, store: .file, build: labels["build"] ?? "")
            measured[key, default: [:]][observation.commit, default: [:]][observation.measure] = observation.value
        }
        let window = Window(scenarios: scenarios)
        let lines = measured.keys.sorted { ($0.scenario, $0.labelText) < ($1.scenario, $1.labelText) }.map { key in
            let commits = measured[key]!.keys.sorted { (published[$0] ?? .infinity, $0) < (published[$1] ?? .infinity, $1) }
            let points = commits.map { commit in
                let values = measured[key]![commit]!
                let wall = values[.wallMedian].map { median in
                    MedianInterval(
                        median: median, low: values[.wallMin] ?? median, high: values[.wallMax] ?? median, confidence: 0,
                        samples: values[.samples].map { Int($0) } ?? 1)
                }
                return CommitPoint(
                    commit: commit, firstRun: Date(timeIntervalSince1970: published[commit] ?? 0), runs: 1, wall: wall,
                    wallSamples: wall.map { [$0.median] } ?? [])
            }
            var names: Set<String> = []
            for values in measured[key]!.values {
                for case .counter(let name) in values.keys { names.insert(name) }
            }
            let counters = Self.reportOrder(names).map { name in
                CounterSeries(name: name, direction: nil, points: commits.map { commit in
                    CounterPoint(commit: commit, value: measured[key]![commit]![.counter(name)].flatMap { Int(exactly: $0) })
                })
            }
            return Line(key: key, commits: points, counters: counters, noise: nil, minimumEffect: ChangeDetection.standard.floor, changes: [])
        }
        self.init(source: "\(source) {\(Self.labelText(matchers))}, last \(since)", window: window, detection: .standard, lines: lines)
    }

    /// `key=value` pairs by key, joined by spaces.
    public static func labelText(_ labels: [String: String]) -> String {
        labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}
