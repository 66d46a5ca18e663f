import CoreMetrics
import EventSamples
import FaultlineMetrics
import Insights
import Foundation
import MetricsTestKit
import Prometheus
@_spi(FastPath) import Probes
import PrometheusPublishing
import Reporting
import Testing

/// The metrics bridge's names against `perf-run publish`'s: a Pushgateway
/// (and any Prometheus exposition) refuses one name as two types, so the
/// two families never share a name, nor a family in OpenMetrics' sense
/// (`x_total` is the counter family `x`). And the bridge's Prometheus
/// conventions: `_total` counters, `_seconds` timers, buckets that tell
/// statements apart.
@Suite struct MetricNamesTests {
    /// The family a sample name belongs to in OpenMetrics: without the
    /// suffix a counter's, histogram's or info metric's samples add.
    static func family(_ name: String) -> String {
        for suffix in ["_total", "_bucket", "_count", "_sum", "_created", "_info"] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        return name
    }

    /// Names of one set that are names or families of the other's.
    static func collisions(_ a: Set<String>, _ b: Set<String>) -> Set<String> {
        let families = Set(b.map(family))
        return a.filter { b.contains($0) || families.contains(family($0)) || b.contains(family($0)) || families.contains($0) }
    }

    /// Every name the bridge made while a workload ran (and its insights
    /// counter), with those its labels list.
    static func bridgeNames() throws -> Set<String> {
        let metrics = TestMetrics()
        let sink = MetricsSink(factory: metrics)
        try BridgeWorkload.run(try BridgeWorkload.store(try BridgeWorkload.populate(), sinks: [sink]))
        sink.observe(Insight(rule: .nPlusOne, entity: "Selfie", keyPath: "people", message: "m", evidence: "e", callSite: "A.swift:1"))
        let made = Set(metrics.counters.map(\.label) + metrics.timers.map(\.label))
        #expect(made.count >= 15)
        return made.union(MetricsSinkLabels().all)
    }

    /// Every name publish writes for a report that has every counter, one
    /// of them advisory, with those its table lists.
    static func publishNames() throws -> Set<String> {
        var scenario = ScenarioReport(
            name: "All", description: "every counter", dataSet: "selfies", status: .passed,
            samples: [Sample(wallSeconds: 0.001, cpuSeconds: 0.001, peakResidentBytes: nil)],
            counters: Dictionary(uniqueKeysWithValues: CounterName.allCases.map { ($0.rawValue, 1) }),
            advisoryCounters: ["objectsRegisteredPeak", "sqlStatements"])
        scenario.summary = Summary(wallSeconds: Statistics([0.001]), cpuSeconds: Statistics([0.001]))
        let report = Report(
            tool: .init(name: "perf-run", version: "0.2.0", commandLine: ["perf-run"]),
            environment: .init(operatingSystem: "Debian", cpuModel: "cpu", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "debug", gitCommit: "abc", hostName: "h"),
            configuration: .init(scale: 1, seed: 1, iterations: 1, warmup: 0, store: .file, timeoutSeconds: nil),
            scenarios: [scenario])
        let publication = try Publication(report, reportName: "r.json", labels: [], environment: [:], time: Date())
        let text = String(decoding: publication.body, as: UTF8.self)
        let typed = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) }
        #expect(typed.count == CounterName.allCases.count + 4 + 2)
        return Set(typed).union(FaultlineMetric.all.map(\.name))
    }

    @Test func theBridgeAndPublishShareNoNameNorFamily() throws {
        let bridge = try Self.bridgeNames()
        let publish = try Self.publishNames()
        #expect(bridge.intersection(publish).isEmpty)
        #expect(Self.collisions(bridge, publish).isEmpty, "\(Self.collisions(bridge, publish).sorted())")
        #expect(Self.collisions(publish, bridge).isEmpty, "\(Self.collisions(publish, bridge).sorted())")
        // The check finds what the two used to share: a gauge and a counter
        // of one name, and a counter's family.
        #expect(Self.collisions(["faultline_fetches"], ["faultline_fetches"]) == ["faultline_fetches"])
        #expect(Self.collisions(["faultline_fetches"], ["faultline_fetches_total"]) == ["faultline_fetches"])
    }

    @Test func countersEndInTotalAndTimersInSeconds() throws {
        let labels = MetricsSinkLabels(prefix: "app_db")
        #expect(labels.counters.allSatisfy { $0.hasPrefix("app_db_") && $0.hasSuffix("_total") })
        #expect(labels.timers.allSatisfy { $0.hasPrefix("app_db_") && $0.hasSuffix("_seconds") })
        #expect(Set(labels.all).count == labels.all.count)
        let bridge = try Self.bridgeNames()
        #expect(bridge.allSatisfy { $0.hasSuffix("_total") || $0.hasSuffix("_seconds") }, "\(bridge.sorted())")
    }

    /// Through swift-prometheus with the bridge's buckets: statements of
    /// 15, 80 and 250 µs land in three buckets (with its default buckets
    /// all three would be in the first, 5 ms).
    @Test func statementDurationsLandInSeveralBuckets() throws {
        #expect(MetricsSink.defaultDurationBuckets.first == .microseconds(10))
        #expect(MetricsSink.defaultDurationBuckets.last == .seconds(1))
        #expect(MetricsSink.defaultDurationBuckets.filter { $0 >= .microseconds(10) && $0 <= .microseconds(300) }.count == 5)
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets.merge(MetricsSink.timerBuckets()) { $1 }
        #expect(Set(factory.durationHistogramBuckets.keys) == Set(MetricsSinkLabels().timers))
        let sink = MetricsSink(factory: factory)
        guard case .sql(var statement) = try #require(EventSamples.sample(.sql)).event else { Issue.record("not a statement"); return }
        for nanoseconds: UInt64 in [15_000, 80_000, 250_000] {
            statement.durationNanoseconds = nanoseconds
            sink.receive(.sql(statement))
        }
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        let buckets = text.split(separator: "\n").filter { $0.hasPrefix("faultline_statement_duration_seconds_bucket{") }
        #expect(buckets.count == MetricsSink.defaultDurationBuckets.count + 1)  // and +Inf
        func count(le: String) -> String? {
            buckets.first { $0.contains("le=\"\(le)\"") }.map { String($0.split(separator: " ").last ?? "") }
        }
        #expect(count(le: "0.00001") == "0")
        #expect(count(le: "0.000025") == "1")
        #expect(count(le: "0.0001") == "2")
        #expect(count(le: "0.00025") == "3")
        #expect(count(le: "+Inf") == "3")
        #expect(text.contains("# TYPE faultline_statements_total counter"))
        #expect(text.contains("faultline_statements_total{kind=\"select\",table=\"Person\"} 3"))
    }
}
