/// The labels of ``MetricsSink``'s metrics, for a prefix, named in one
/// place (docs/bridges.md has the table).
///
/// They follow Prometheus' conventions: a counter ends in `_total`, a
/// timer (a histogram of durations, which a Prometheus back end writes in
/// seconds) in `_seconds`. None is a name `perf-run publish` uses, nor the
/// family of one (publish's are `faultline_scenario_…` and
/// `faultline_report_…` gauges): a Pushgateway refuses a push whose name
/// another group holds as another type.
public struct MetricsSinkLabels: Sendable, Equatable {
    /// The start of every label (`faultline`).
    public let prefix: String

    public init(prefix: String = "faultline") { self.prefix = prefix }

    private func counter(_ name: String) -> String { "\(prefix)_\(name)_total" }
    private func timer(_ name: String) -> String { "\(prefix)_\(name)_seconds" }

    public var fetches: String { counter("fetches") }
    public var fetchDuration: String { timer("fetch_duration") }
    public var faults: String { counter("faults") }
    public var faultDuration: String { timer("fault_duration") }
    public var relationshipFaults: String { counter("relationship_faults") }
    public var cacheHits: String { counter("cache_hits") }
    public var cacheMisses: String { counter("cache_misses") }
    public var statements: String { counter("statements") }
    public var rowsRead: String { counter("rows_read") }
    public var rowsWritten: String { counter("rows_written") }
    public var statementDuration: String { timer("statement_duration") }
    public var saves: String { counter("saves") }
    public var saveDuration: String { timer("save_duration") }
    public var savedObjects: String { counter("saved_objects") }
    public var batchRequests: String { counter("batch_requests") }
    public var batchRows: String { counter("batch_rows") }
    public var batchRequestDuration: String { timer("batch_request_duration") }
    /// Insights an `InsightWatch` found, by `rule`.
    public var insights: String { counter("insights") }

    /// Every counter's label, in docs/bridges.md's order.
    public var counters: [String] {
        [fetches, faults, relationshipFaults, cacheHits, cacheMisses, statements, rowsRead, rowsWritten, saves, savedObjects, batchRequests,
         batchRows, insights]
    }

    /// Every timer's label: the histograms whose buckets
    /// ``MetricsSink/timerBuckets(prefix:buckets:)`` sets.
    public var timers: [String] { [fetchDuration, faultDuration, statementDuration, saveDuration, batchRequestDuration] }

    /// Every label.
    public var all: [String] { counters + timers }
}
