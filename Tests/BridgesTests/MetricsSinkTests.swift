import CoreMetrics
import FaultlineMetrics
import MetricsTestKit
import ObjectGraph
@_spi(FastPath) import Probes
import Testing

@Suite struct MetricsSinkTests {
    /// Every counter of the workload, exactly, and equal to the recorder's.
    @Test func countersOfASmallWorkloadAreExact() throws {
        let path = try BridgeWorkload.populate()
        let metrics = TestMetrics()
        let recorder = Recorder()
        try BridgeWorkload.run(try BridgeWorkload.store(path, sinks: [MetricsSink(factory: metrics), recorder]))

        func counter(_ label: String, _ dimensions: [(String, String)]) throws -> Int64 {
            try metrics.expectCounter("faultline_\(label)_total", dimensions).totalValue
        }
        #expect(try counter("fetches", [("entity", "Selfie"), ("result_type", "objects")]) == 1)
        #expect(try counter("fetches", [("entity", "Person"), ("result_type", "count")]) == 1)
        #expect(try counter("faults", [("entity", "Selfie"), ("source", "row_cache")]) == 3)
        #expect(try counter("faults", [("entity", "Person"), ("source", "database")]) == 2)
        #expect(try counter("cache_hits", [("entity", "Selfie")]) == 3)
        // Two people read from the database, two relationship faults of Selfie.people.
        #expect(try counter("cache_misses", [("entity", "Person"), ("reason", "absent")]) == 2)
        #expect(try counter("cache_misses", [("entity", "Selfie"), ("reason", "absent")]) == 2)
        #expect(try counter("relationship_faults", [("entity", "Selfie"), ("source", "database")]) == 2)
        #expect(try counter("saves", [("outcome", "success")]) == 1)
        #expect(try counter("saves", [("outcome", "failure")]) == 0)
        #expect(try counter("saved_objects", [("change", "updated")]) == 1)
        #expect(try counter("batch_requests", [("entity", "Selfie"), ("kind", "update")]) == 1)
        #expect(try counter("batch_rows", [("entity", "Selfie"), ("kind", "update")]) == 3)

        // Statements by kind and table: BEGIN (a reader's, and the save's and
        // the batch's BEGIN IMMEDIATE), COMMIT, the fetch, the relationship
        // faults through the join table, two faults and the count, the
        // save's and the batch's UPDATE.
        let statements: [(kind: String, table: String, count: Int64, rowsRead: Int64, rowsWritten: Int64)] = [
            ("begin", "", 4, 0, 0), ("commit", "", 3, 0, 0), ("select", "Selfie", 1, 3, 0), ("select", "Person_selfies", 2, 4, 0),
            ("select", "Person", 3, 3, 0), ("update", "Selfie", 2, 0, 4),
        ]
        for statement in statements {
            let dimensions = [("kind", statement.kind), ("table", statement.table)]
            #expect(try counter("statements", dimensions) == statement.count, "\(dimensions)")
            #expect(metrics.counterTotal(label: "faultline_rows_read_total", dimensions: dimensions) == statement.rowsRead, "\(dimensions)")
            #expect(metrics.counterTotal(label: "faultline_rows_written_total", dimensions: dimensions) == statement.rowsWritten, "\(dimensions)")
            #expect(try metrics.expectTimer("faultline_statement_duration_seconds", dimensions).values.count == Int(statement.count))
        }
        #expect(metrics.counters(label: "faultline_statements_total").count == statements.count)

        // Totals against the recorder's counters.
        let counters = recorder.counters
        #expect(metrics.counterTotal(label: "faultline_statements_total") == Int64(counters.sqlStatements))
        #expect(metrics.counterTotal(label: "faultline_rows_read_total") == Int64(counters.rowsRead))
        #expect(metrics.counterTotal(label: "faultline_rows_written_total") == Int64(counters.rowsWritten))
        #expect(metrics.counterTotal(label: "faultline_fetches_total") == Int64(counters.fetches))
        #expect(metrics.counterTotal(label: "faultline_faults_total") == Int64(counters.faultsFired))
        #expect(metrics.counterTotal(label: "faultline_relationship_faults_total") == Int64(counters.relationshipFaultsFired))
        #expect(metrics.counterTotal(label: "faultline_cache_hits_total") == Int64(counters.cacheHits))
        #expect(metrics.counterTotal(label: "faultline_cache_misses_total") == Int64(counters.cacheMisses))
        #expect(metrics.counterTotal(label: "faultline_saves_total") == Int64(counters.saves))
        #expect(metrics.counterTotal(label: "faultline_batch_requests_total") == Int64(counters.batchRequests))

        // Timers: one value per fetch, save, batch request and fault from the
        // database; row-cache faults are counted, not timed.
        #expect(try metrics.expectTimer("faultline_fetch_duration_seconds", [("entity", "Selfie"), ("result_type", "objects")]).values.count == 1)
        #expect(try metrics.expectTimer("faultline_save_duration_seconds", [("outcome", "success")]).values.count == 1)
        #expect(try metrics.expectTimer("faultline_batch_request_duration_seconds", [("entity", "Selfie"), ("kind", "update")]).values.count == 1)
        #expect(try metrics.expectTimer("faultline_fault_duration_seconds", [("entity", "Person"), ("source", "database")]).values.count == 2)
        #expect(metrics.timers(label: "faultline_fault_duration_seconds").count == 2)  // Person and Selfie, database only
    }

    /// The metric objects are made once per label and dimensions: a second
    /// run of the workload makes none.
    @Test func metricObjectsAreMadeOnceAndKept() throws {
        let path = try BridgeWorkload.populate()
        let factory = CountingFactory(TestMetrics())
        let sink = MetricsSink(factory: factory)
        let store = try BridgeWorkload.store(path, sinks: [sink])
        try BridgeWorkload.run(store)
        let afterFirst = factory.made
        #expect(afterFirst > 0)
        for _ in 0..<3 { try BridgeWorkload.run(store) }
        #expect(factory.made == afterFirst)
    }

    /// Only what metrics need: no context, cache-miss or scenario events,
    /// and no optional parts.
    @Test func theSinkAsksForNoOptionalParts() {
        let sink = MetricsSink(factory: TestMetrics())
        #expect(sink.details.isEmpty)
        #expect(sink.possibleDetails.isEmpty)
        #expect(!sink.isEnabled(.context) && !sink.isEnabled(.scenario))
        #expect(sink.isEnabled(.fault) && sink.isEnabled(.sql) && sink.isEnabled(.fetch))
    }

    /// A failed save counts as a failure, with its duration.
    @Test func aFailedSaveCountsAsAFailure() {
        let metrics = TestMetrics()
        let sink = MetricsSink(factory: metrics, prefix: "app_db")
        sink.receive(.save(SaveEvent(
            start: 0, durationNanoseconds: 5_000, thread: 1, context: "main", inserted: 1, updated: 0, deleted: 0, success: false,
            error: "validation", callSite: .unknown)))
        #expect(metrics.counterTotal(label: "app_db_saves_total", dimensions: [("outcome", "failure")]) == 1)
        #expect(metrics.counterTotal(label: "app_db_saved_objects_total") == 0)
        #expect((try? metrics.expectTimer("app_db_save_duration_seconds", [("outcome", "failure")]).values) == [5_000])
    }
}

/// A factory that counts the metric objects made through it.
final class CountingFactory: MetricsFactory, @unchecked Sendable {
    private let base: any MetricsFactory
    private let lock = PlainLock()
    private var count = 0

    init(_ base: any MetricsFactory) { self.base = base }

    var made: Int { lock.withLock { count } }
    private func note() { lock.withLock { count += 1 } }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        note()
        return base.makeCounter(label: label, dimensions: dimensions)
    }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        note()
        return base.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        note()
        return base.makeTimer(label: label, dimensions: dimensions)
    }
    func destroyCounter(_ handler: any CounterHandler) { base.destroyCounter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { base.destroyRecorder(handler) }
    func destroyTimer(_ handler: any TimerHandler) { base.destroyTimer(handler) }
}
