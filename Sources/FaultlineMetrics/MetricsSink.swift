import CoreMetrics
import Insights
@_spi(FastPath) import Probes

/// The engine's counters as swift-metrics counters and timers, for any
/// metrics back end (Prometheus, StatsD, OpenTelemetry…): fetches, faults
/// by source, cache hits and misses, statements, rows read and written,
/// saves and batch requests, with their entity, table and kind as
/// dimensions; and, as an ``InsightObserver``, the insights an
/// ``InsightWatch`` finds, by rule. docs/bridges.md lists every metric.
///
/// Labels follow Prometheus' conventions (``MetricsSinkLabels``):
/// counters end in `_total`, timers in `_seconds`. A timer's buckets are
/// the back end's to set: ``timerBuckets(prefix:buckets:)`` gives
/// ``defaultDurationBuckets`` (10 µs to 1 s, so that statements of 10 to
/// 300 µs fall in several) for each timer, for swift-prometheus'
/// `PrometheusMetricsFactory.durationHistogramBuckets`.
///
/// Cheap enough to leave on: each metric object is made once per label and
/// dimensions (at the first event that needs it) and kept, so an event
/// costs a lookup of what it needs and the back end's increments, with no
/// allocation. Faults, the most frequent events, find their entity's
/// metrics by comparing the name with the previous fault's; statements find
/// theirs by the shape's number. A fault is counted, and timed only when it
/// read the database: timing one the row cache fulfils would cost about as
/// much as the fault.
///
/// ```swift
/// var factory = PrometheusMetricsFactory(registry: registry)
/// factory.durationHistogramBuckets.merge(MetricsSink.timerBuckets()) { $1 }
/// MetricsSystem.bootstrap(factory)
/// configuration.sinks = [MetricsSink()]
/// ```
public final class MetricsSink: EventSink, @unchecked Sendable {
    /// The factory the metric objects come from.
    public let factory: any MetricsFactory
    /// The start of every label (`faultline_fetches_total`).
    public let prefix: String
    /// Every label, for the prefix.
    public let labels: MetricsSinkLabels

    /// Guards the tables below; metric objects are thread-safe themselves
    /// and are used outside it.
    private let lock = PlainLock()
    @exclusivity(unchecked) private var entities: [String: EntityMetrics] = [:]
    /// The entity of the previous fault: a loop faults one entity after
    /// another, and comparing names costs less than hashing one. Unretained
    /// (`entities` keeps it): handing it out costs no reference counting.
    @exclusivity(unchecked) private var lastEntity: Unmanaged<EntityMetrics>?
    /// Statement metrics by shape number (numbers are small and dense),
    /// unretained (`statements` keeps them).
    @exclusivity(unchecked) private var shapes: [Unmanaged<StatementMetrics>?] = []
    /// Statement metrics by kind and table, shared by the shapes that have them.
    @exclusivity(unchecked) private var statements: [StatementKey: StatementMetrics] = [:]
    @exclusivity(unchecked) private var fetches: [FetchKey: TimedCounter] = [:]
    @exclusivity(unchecked) private var batches: [BatchKey: BatchMetrics] = [:]
    private let saves: (success: SaveMetrics, failure: SaveMetrics)
    private let savedObjects: (inserted: Counter, updated: Counter, deleted: Counter)
    /// Insights by rule, made at a rule's first insight.
    @exclusivity(unchecked) private var insightCounters: [InsightRuleID: Counter] = [:]

    /// - Parameters:
    ///   - factory: where the metric objects come from; by default the one
    ///     `MetricsSystem.bootstrap` installed.
    ///   - prefix: the start of every label, `faultline` by default.
    public init(factory: any MetricsFactory = MetricsSystem.factory, prefix: String = "faultline") {
        self.factory = factory
        self.prefix = prefix
        let labels = MetricsSinkLabels(prefix: prefix)
        self.labels = labels
        func save(_ outcome: String) -> SaveMetrics {
            SaveMetrics(
                count: Counter(label: labels.saves, dimensions: [("outcome", outcome)], factory: factory),
                duration: Timer(label: labels.saveDuration, dimensions: [("outcome", outcome)], factory: factory))
        }
        saves = (save("success"), save("failure"))
        func objects(_ change: String) -> Counter {
            Counter(label: labels.savedObjects, dimensions: [("change", change)], factory: factory)
        }
        savedObjects = (objects("inserted"), objects("updated"), objects("deleted"))
    }

    /// Everything but context, cache-miss and scenario events (a fault
    /// carries its miss's reason).
    public func isEnabled(_ kind: EventKind) -> Bool {
        switch kind {
        case .fetch, .fault, .relationshipFault, .save, .batchRequest, .sql: true
        case .context, .scenario: false
        }
    }

    /// No optional parts: metrics need none.
    public var details: EventDetails { [] }
    @_spi(FastPath) public var possibleDetails: EventDetails { [] }

    public func receive(_ event: Event) {
        switch event {
        case .fetch(let e): count(e)
        case .fault(let e): receive(fault: e)
        case .relationshipFault(let e): count(e)
        case .save(let e): count(e)
        case .batchRequest(let e): count(e)
        case .sql(let e): receive(sql: e)
        case .context, .scenario: break
        }
    }

    // MARK: Faults

    @_spi(FastPath) public func receive(fault e: FaultEvent) {
        countFault(entity: e.entity, source: e.source, missReason: e.missReason, durationNanoseconds: e.durationNanoseconds)
    }

    /// From the parts: no event, no origin, no call site.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        countFault(entity: entity, source: source, missReason: missReason, durationNanoseconds: durationNanoseconds)
    }

    /// A producer that gives no miss reason: the event of a fault from the
    /// database has it.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        let reason = source == .database ? event().missReason : nil
        countFault(entity: entity, source: source, missReason: reason, durationNanoseconds: durationNanoseconds)
    }

    @inline(__always)
    private func countFault(entity: String, source: FaultSource, missReason: CacheMissReason?, durationNanoseconds: UInt64) {
        self.metrics(of: entity)._withUnsafeGuaranteedRef { metrics in
            Self.count(source, missReason, durationNanoseconds, metrics)
        }
    }

    @inline(__always)
    private static func count(
        _ source: FaultSource, _ missReason: CacheMissReason?, _ durationNanoseconds: UInt64, _ metrics: EntityMetrics
    ) {
        switch source {
        case .rowCache:
            metrics.faults.rowCache.increment(by: 1)
            metrics.cacheHits.increment(by: 1)
        case .database:
            metrics.faults.database.increment(by: 1)
            metrics.databaseFaultDuration.recordNanoseconds(Int64(clamping: durationNanoseconds))
            (missReason == .stale ? metrics.cacheMisses.stale : metrics.cacheMisses.absent).increment(by: 1)
        case .context:
            metrics.faults.context.increment(by: 1)
        }
    }

    private func count(_ e: RelationshipFaultEvent) {
        let metrics = self.metrics(of: e.entity).takeUnretainedValue()
        switch e.source {
        case .rowCache: metrics.relationshipFaults.rowCache.increment(by: 1)
        case .database:
            metrics.relationshipFaults.database.increment(by: 1)
            (e.missReason == .stale ? metrics.cacheMisses.stale : metrics.cacheMisses.absent).increment(by: 1)
        case .context: metrics.relationshipFaults.context.increment(by: 1)
        }
    }

    /// The metrics of `entity`: the previous fault's when it is the same
    /// entity, else from the table (made the first time).
    @inline(__always)
    private func metrics(of entity: String) -> Unmanaged<EntityMetrics> {
        lock.withLock {
            if let last = lastEntity, last._withUnsafeGuaranteedRef({ $0.name == entity }) { return last }
            return lookUp(entity)
        }
    }

    /// Under the lock.
    private func lookUp(_ entity: String) -> Unmanaged<EntityMetrics> {
        let metrics = entities.kept(entity) { EntityMetrics(entity, labels: labels, factory: factory) }
        let unretained = Unmanaged.passUnretained(metrics)
        lastEntity = unretained
        return unretained
    }

    // MARK: Statements

    @_spi(FastPath) public func receive(sql e: SQLEvent) {
        count(StatementParts(e)) { StatementTexts(e) }
    }

    /// From the figures: the texts only for a shape seen for the first time.
    @_spi(FastPath) public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        count(parts, texts: texts)
    }

    @inline(__always)
    private func count(_ parts: StatementParts, texts: () -> StatementTexts) {
        let known = lock.withLock { () -> Unmanaged<StatementMetrics>? in
            parts.shapeID >= 0 && parts.shapeID < shapes.count ? shapes[parts.shapeID] : nil
        }
        let metrics = known ?? statementMetrics(shapeID: parts.shapeID, shape: texts().shape)
        metrics._withUnsafeGuaranteedRef { metrics in
            metrics.count.increment(by: 1)
            if parts.rowsReturned > 0 { metrics.rowsRead.increment(by: parts.rowsReturned) }
            if parts.rowsChanged > 0 { metrics.rowsWritten.increment(by: parts.rowsChanged) }
            metrics.duration.recordNanoseconds(Int64(clamping: parts.durationNanoseconds))
        }
    }

    /// The metrics of a shape seen for the first time: its kind and table
    /// read from the text once, and kept by its number.
    private func statementMetrics(shapeID: Int, shape: String) -> Unmanaged<StatementMetrics> {
        let summary = StatementSummary(shape)
        let key = StatementKey(kind: summary.kind, table: summary.table ?? "")
        return lock.withLock {
            let metrics = statements.kept(key) { StatementMetrics(key, labels: labels, factory: factory) }
            let unretained = Unmanaged.passUnretained(metrics)
            if shapeID >= 0, shapeID < 1 << 20 {
                if shapeID >= shapes.count { shapes.append(contentsOf: repeatElement(nil, count: shapeID + 1 - shapes.count)) }
                shapes[shapeID] = unretained
            }
            return unretained
        }
    }

    // MARK: Fetches, saves, batch requests

    private func count(_ e: FetchEvent) {
        let key = FetchKey(entity: e.entity, resultType: e.resultType)
        let metrics = lock.withLock {
            fetches.kept(key) {
                let dimensions = [("entity", e.entity), ("result_type", e.resultType)]
                return TimedCounter(
                    count: Counter(label: labels.fetches, dimensions: dimensions, factory: factory),
                    duration: Timer(label: labels.fetchDuration, dimensions: dimensions, factory: factory))
            }
        }
        metrics.count.increment(by: 1)
        metrics.duration.recordNanoseconds(Int64(clamping: e.durationNanoseconds))
    }

    private func count(_ e: SaveEvent) {
        let metrics = e.success ? saves.success : saves.failure
        metrics.count.increment(by: 1)
        metrics.duration.recordNanoseconds(Int64(clamping: e.durationNanoseconds))
        guard e.success else { return }
        if e.inserted > 0 { savedObjects.inserted.increment(by: e.inserted) }
        if e.updated > 0 { savedObjects.updated.increment(by: e.updated) }
        if e.deleted > 0 { savedObjects.deleted.increment(by: e.deleted) }
    }

    private func count(_ e: BatchRequestEvent) {
        let key = BatchKey(entity: e.entity, kind: e.kind)
        let metrics = lock.withLock { batches.kept(key) { BatchMetrics(key, labels: labels, factory: factory) } }
        metrics.count.increment(by: 1)
        if e.rowsAffected > 0 { metrics.rows.increment(by: e.rowsAffected) }
        metrics.duration.recordNanoseconds(Int64(clamping: e.durationNanoseconds))
    }

    // MARK: Insights

    /// Counts an insight an ``InsightWatch`` found, by its rule
    /// (`faultline_insights_total{rule="n-plus-one"}`).
    public func observe(_ insight: Insight) {
        let counter = lock.withLock {
            insightCounters.kept(insight.rule) {
                Counter(label: labels.insights, dimensions: [("rule", insight.rule.rawValue)], factory: factory)
            }
        }
        counter.increment(by: 1)
    }

    // MARK: Buckets

    /// A timer's buckets by default: 10 µs to 1 s, three a decade (1, 2.5,
    /// 5), so that a statement's 10 to 300 µs, a fault's and a fetch's fall
    /// in several, and a slow save's second in the last.
    public static let defaultDurationBuckets: [Duration] = [
        .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .microseconds(2_500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
    ]

    /// `buckets` for every timer of the sink (by label), for a back end
    /// that sets buckets per label: swift-prometheus'
    /// `factory.durationHistogramBuckets.merge(MetricsSink.timerBuckets()) { $1 }`.
    public static func timerBuckets(prefix: String = "faultline", buckets: [Duration] = defaultDurationBuckets) -> [String: [Duration]] {
        Dictionary(uniqueKeysWithValues: MetricsSinkLabels(prefix: prefix).timers.map { ($0, buckets) })
    }
}

// MARK: The kept metric objects

/// One metric per fault source.
private struct PerSource {
    let context: Counter
    let rowCache: Counter
    let database: Counter

    init(_ label: String, entity: String, factory: any MetricsFactory) {
        func counter(_ source: FaultSource) -> Counter {
            Counter(label: label, dimensions: [("entity", entity), ("source", MetricsSink.dimension(source))], factory: factory)
        }
        context = counter(.context)
        rowCache = counter(.rowCache)
        database = counter(.database)
    }
}

/// An entity's fault metrics, made together at its first fault.
private final class EntityMetrics: Sendable {
    let name: String
    let faults: PerSource
    let relationshipFaults: PerSource
    let cacheHits: Counter
    let cacheMisses: (absent: Counter, stale: Counter)
    let databaseFaultDuration: Timer

    init(_ entity: String, labels: MetricsSinkLabels, factory: any MetricsFactory) {
        name = entity
        faults = PerSource(labels.faults, entity: entity, factory: factory)
        relationshipFaults = PerSource(labels.relationshipFaults, entity: entity, factory: factory)
        cacheHits = Counter(label: labels.cacheHits, dimensions: [("entity", entity)], factory: factory)
        func miss(_ reason: CacheMissReason) -> Counter {
            Counter(label: labels.cacheMisses, dimensions: [("entity", entity), ("reason", reason.rawValue)], factory: factory)
        }
        cacheMisses = (miss(.absent), miss(.stale))
        databaseFaultDuration = Timer(
            label: labels.faultDuration, dimensions: [("entity", entity), ("source", MetricsSink.dimension(.database))],
            factory: factory)
    }
}

private struct StatementKey: Hashable {
    var kind: String
    var table: String
}

/// The metrics of statements of one kind on one table.
private final class StatementMetrics: Sendable {
    let count: Counter
    let rowsRead: Counter
    let rowsWritten: Counter
    let duration: Timer

    init(_ key: StatementKey, labels: MetricsSinkLabels, factory: any MetricsFactory) {
        let dimensions = [("kind", key.kind), ("table", key.table)]
        count = Counter(label: labels.statements, dimensions: dimensions, factory: factory)
        rowsRead = Counter(label: labels.rowsRead, dimensions: dimensions, factory: factory)
        rowsWritten = Counter(label: labels.rowsWritten, dimensions: dimensions, factory: factory)
        duration = Timer(label: labels.statementDuration, dimensions: dimensions, factory: factory)
    }
}

private struct FetchKey: Hashable {
    var entity: String
    var resultType: String
}

private struct TimedCounter: Sendable {
    let count: Counter
    let duration: Timer
}

private typealias SaveMetrics = TimedCounter

private struct BatchKey: Hashable {
    var entity: String
    var kind: String
}

private final class BatchMetrics: Sendable {
    let count: Counter
    let rows: Counter
    let duration: Timer

    init(_ key: BatchKey, labels: MetricsSinkLabels, factory: any MetricsFactory) {
        let dimensions = [("entity", key.entity), ("kind", key.kind)]
        count = Counter(label: labels.batchRequests, dimensions: dimensions, factory: factory)
        rows = Counter(label: labels.batchRows, dimensions: dimensions, factory: factory)
        duration = Timer(label: labels.batchRequestDuration, dimensions: dimensions, factory: factory)
    }
}

extension MetricsSink {
    /// A fault source as a dimension value: `context`, `row_cache`, `database`.
    static func dimension(_ source: FaultSource) -> String {
        switch source {
        case .context: "context"
        case .rowCache: "row_cache"
        case .database: "database"
        }
    }
}

extension Dictionary {
    /// The value kept for `key`, made and kept the first time it is asked for.
    fileprivate mutating func kept(_ key: Key, making make: () -> Value) -> Value {
        if let known = self[key] { return known }
        let made = make()
        self[key] = made
        return made
    }
}

@_spi(FastPath) extension MetricsSink: FastPathEventSink {}

extension MetricsSink: InsightObserver {}

extension MetricsSink {
    /// The event fields it does not write, and why (EventFieldCoverageTests
    /// checks the list against what it writes).
    public static let fieldsLeftOut: [EventField: String] = EventField.leftOut([
        ("metrics are totals and durations by a few dimensions: an event's time, thread, objects, texts and call site are not dimensions", [
            .fetch: ["start", "thread", "context", "callSite", "predicate", "sort", "prefetch", "intendedLazyLoads", "objects", "resultCount",
                     "fetchLimit", "fetchOffset", "fetchBatchSize", "includesPendingChanges", "includesPropertyValues",
                     "returnsObjectsAsFaults"],
            .fault: ["start", "thread", "context", "callSite", "primaryKey", "values", "origin", "engineWork"],
            .relationshipFault: ["start", "thread", "context", "callSite", "primaryKey", "relationship", "destinationEntity",
                                 "destinationCount", "durationNanoseconds", "origin", "engineWork"],
            .save: ["start", "thread", "context", "callSite", "error", "inserted", "updated", "deleted"],
            .batchRequest: ["start", "thread", "callSite"],
            .sql: ["start", "thread", "sql", "shape", "shapeID", "textID", "arguments", "callSite", "purpose", "queryPlan", "facts",
                   "fullScanSteps", "sorts", "autoIndexes", "vmSteps"],
        ]),
    ])
}
