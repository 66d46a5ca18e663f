import Insights
import Logging
@_spi(FastPath) import Probes
import Synchronization

/// The SQL debug log as swift-log records: a sink that hands each statement,
/// fetch, fault, save and batch request to a `Logger`, with its figures as
/// metadata, so that a server's own logging back end (its handler, format
/// and destination) carries them.
///
/// What is logged follows the SQL debug log's levels (``sqlDebugLevel``,
/// `--sql-debug 1…4`). The records are `debug` records whatever the
/// level; what levels 2 to 4 add to them goes only to a logger at `trace`
/// (``logLevel(forSQLDebugLevel:)``), so a logger at `debug` always gets
/// the plain statements:
///
/// | SQL debug level | shown at | adds |
/// | --- | --- | --- |
/// | 1 | `debug` | statements (timing, rows, purpose, call site), fetches, saves, batch requests, faults and relationship faults from the database, prefetch usage |
/// | 2 | `trace` | bound values (`sql.arguments`) |
/// | 3 | `trace` | fetched objects and faulted values |
/// | 4 | `trace` | `EXPLAIN QUERY PLAN` of each shape, once (`sql.plan`) |
///
/// Faults fulfilled from the row cache or the context, one per object read
/// in a loop, are `trace` records at every level. Two kinds of record are
/// above `debug`, for production: a failed save is an `error` (the data
/// was not written), and an insight an ``InsightWatch`` finds while the
/// application runs (an N+1, a query in a loop) is a `warning` at its
/// site: the sink is an ``InsightObserver``.
///
/// The sink decides before anything is built: with the level above a
/// record's, `isEnabled` says no and the engine builds no event, so a
/// logger at `info` costs one check per event. The level is the logger's
/// when the sink is made, kept by the sink (reading a `Logger`'s level
/// through its handler costs more than the check): change it with
/// ``logLevel``, at any time, from any thread.
///
/// ```swift
/// var logger = Logger(label: "app.db")
/// logger.logLevel = .debug
/// configuration.sinks = [LoggingSink(logger: logger)]   // SQL debug level 1
/// ```
public final class LoggingSink: EventSink {
    /// The logger the records go to, as it was given.
    public let logger: Logger
    /// The logger with its level at `trace`: the sink filters, by ``logLevel``.
    private let output: Logger
    /// ``logLevel``, as the index of a `Logger.Level` (`trace` 0 … `critical` 6).
    private let threshold: Atomic<UInt8>
    /// What is logged, as `--sql-debug` says it: 1 to 4.
    public let sqlDebugLevel: Int
    /// The level of statement and annotation records: `debug`, at every
    /// SQL debug level (what levels 2 to 4 add shows at `trace`).
    public let recordLevel: Logger.Level = .debug
    /// The level of a failed save's record.
    public static let failedSaveLevel: Logger.Level = .error
    /// The level of an insight's record.
    public static let insightLevel: Logger.Level = .warning
    /// The `source` of every record.
    public static let source = "Faultline"

    /// - Parameters:
    ///   - logger: where the records go; its level decides which come.
    ///   - sqlDebugLevel: 1 to 4 (clamped), as `--sql-debug`.
    public init(logger: Logger, sqlDebugLevel: Int = 1) {
        self.logger = logger
        // The logger's level first: a handler that is a class shares the
        // level the output's copy sets.
        threshold = Atomic(Self.rank(logger.logLevel))
        var output = logger
        output.logLevel = .trace
        self.output = output
        self.sqlDebugLevel = min(4, max(1, sqlDebugLevel))
    }

    /// The level records must reach to be logged: the logger's when the
    /// sink was made, until changed here (`debug` turns SQL debug level 1's
    /// records on, `info` turns them off again).
    public var logLevel: Logger.Level {
        get { Self.levels[Int(threshold.load(ordering: .relaxed))] }
        set { threshold.store(Self.rank(newValue), ordering: .relaxed) }
    }

    /// The levels by ``rank(_:)``.
    private static let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]

    /// A sink at the SQL debug level that the logger's level shows
    /// (``sqlDebugLevel(for:)``), or nil when it shows none (`info` and above).
    public convenience init?(matching logger: Logger) {
        guard let level = Self.sqlDebugLevel(for: logger.logLevel) else { return nil }
        self.init(logger: logger, sqlDebugLevel: level)
    }

    /// The level a logger needs to show what a SQL debug level adds: 1's
    /// records are `debug`; the bound values, object values and query plans
    /// that 2 to 4 add to them show at `trace` (bound values can be
    /// personal data, and values and plans cost much to render).
    public static func logLevel(forSQLDebugLevel level: Int) -> Logger.Level {
        level <= 1 ? .debug : .trace
    }

    /// The SQL debug level whose records a logger at `level` shows: `trace`
    /// shows level 2 (3 and 4, which render object values and query plans,
    /// are asked for by name), `debug` level 1, anything above none.
    public static func sqlDebugLevel(for level: Logger.Level) -> Int? {
        switch level {
        case .trace: 2
        case .debug: 1
        default: nil
        }
    }

    /// Whether records at `level` are logged now.
    @inline(__always)
    private func shows(_ level: Logger.Level) -> Bool { threshold.load(ordering: .relaxed) <= Self.rank(level) }

    /// A level's index, without a search.
    @inline(__always)
    private static func rank(_ level: Logger.Level) -> UInt8 {
        switch level {
        case .trace: 0
        case .debug: 1
        case .info: 2
        case .notice: 3
        case .warning: 4
        case .error: 5
        case .critical: 6
        }
    }

    public func isEnabled(_ kind: EventKind) -> Bool {
        switch kind {
        case .sql, .fetch, .fault, .relationshipFault, .batchRequest, .context: shows(recordLevel)
        // A failed save is an error: saves are wanted at `error` already.
        case .save: shows(Self.failedSaveLevel)
        case .scenario: false
        }
    }

    /// The SQL debug level's parts, wanted only while the sink shows `trace`.
    public var details: EventDetails {
        guard showsDetails else { return [] }
        return possibleDetails
    }

    /// Whether what SQL debug levels 2 to 4 add is logged now: at `trace`.
    @inline(__always)
    private var showsDetails: Bool { shows(.trace) }

    /// Whether what SQL debug level `level` adds is logged now.
    @inline(__always)
    private func adds(_ level: Int) -> Bool { sqlDebugLevel >= level && showsDetails }

    /// The SQL debug level's parts: bound values from 2, object values from
    /// 3, query plans at 4.
    @_spi(FastPath) public var possibleDetails: EventDetails {
        var details: EventDetails = []
        if sqlDebugLevel >= 2 { details.insert(.sqlArguments) }
        if sqlDebugLevel >= 3 { details.insert(.objectValues) }
        if sqlDebugLevel >= 4 { details.insert(.queryPlans) }
        return details
    }

    public func receive(_ event: Event) {
        switch event {
        case .sql(let e): receive(sql: e)
        case .fetch(let e): log(e)
        case .fault(let e): receive(fault: e)
        case .relationshipFault(let e): log(e)
        case .save(let e): log(e)
        case .batchRequest(let e): log(e)
        case .context(let e): receive(context: e)
        case .scenario: break
        }
    }

    // MARK: Statements

    @_spi(FastPath) public func receive(sql e: SQLEvent) {
        logStatement(StatementParts(e), StatementTexts(e))
    }

    /// From the figures and texts: no ``SQLEvent`` is made.
    @_spi(FastPath) public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        guard shows(recordLevel) else { return }
        logStatement(parts, texts())
    }

    private func logStatement(_ parts: StatementParts, _ texts: StatementTexts) {
        var metadata: Logger.Metadata = [
            "sql.shape": .string(texts.shape),
            "sql.duration": .stringConvertible(Seconds(parts.durationNanoseconds)),
            "sql.rows": .stringConvertible(parts.rowsReturned),
            "sql.changed": .stringConvertible(parts.rowsChanged),
            "sql.purpose": .string(texts.purpose),
            "call_site": .stringConvertible(texts.callSite),
        ]
        if parts.fullScanSteps > 0 { metadata["sql.scanned"] = .stringConvertible(parts.fullScanSteps) }
        if parts.sorts > 0 { metadata["sql.sorts"] = .stringConvertible(parts.sorts) }
        if adds(2), !texts.arguments.isEmpty { metadata["sql.arguments"] = .string(texts.arguments) }
        if adds(4), let plan = texts.queryPlan { metadata["sql.plan"] = .array(plan.map { .string($0) }) }
        record(recordLevel, Logger.Message(stringLiteral: texts.sql), metadata, at: texts.callSite)
    }

    // MARK: Faults

    @_spi(FastPath) public func receive(fault e: FaultEvent) {
        let level = e.source == .database ? recordLevel : .trace
        guard shows(level) else { return }
        var metadata: Logger.Metadata = [
            "fault.object": .stringConvertible(ObjectName(entity: e.entity, primaryKey: e.primaryKey)),
            "fault.source": .string(e.source.rawValue),
            "fault.duration": .stringConvertible(Seconds(e.durationNanoseconds)),
            "call_site": .stringConvertible(e.callSite),
        ]
        if let reason = e.missReason { metadata["fault.miss"] = .string(reason.rawValue) }
        if let origin = e.origin { metadata["fault.origin"] = .stringConvertible(OriginText(origin: origin)) }
        if let work = e.engineWork { metadata["fault.engine"] = .string(work.rawValue) }
        if adds(3), let values = e.values { metadata["fault.values"] = .string(values) }
        record(level, "fault", metadata, at: e.callSite)
    }

    /// A fault from the row cache or the context is a `trace` record: with
    /// the logger above `trace`, it costs this check and no event.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        guard shows(source == .database ? recordLevel : .trace) else { return }
        receive(fault: event())
    }

    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        guard shows(source == .database ? recordLevel : .trace) else { return }
        receive(fault: event())
    }

    private func log(_ e: RelationshipFaultEvent) {
        let level = e.source == .database ? recordLevel : .trace
        guard shows(level) else { return }
        var metadata: Logger.Metadata = [
            "fault.object": .stringConvertible(ObjectName(entity: e.entity, primaryKey: e.primaryKey)),
            "fault.relationship": .string(e.relationship),
            "fault.destinations": .stringConvertible(e.destinationCount),
            "fault.destination_entity": .string(e.destinationEntity),
            "fault.source": .string(e.source.rawValue),
            "fault.duration": .stringConvertible(Seconds(e.durationNanoseconds)),
            "call_site": .stringConvertible(e.callSite),
        ]
        if let reason = e.missReason { metadata["fault.miss"] = .string(reason.rawValue) }
        if let origin = e.origin { metadata["fault.origin"] = .stringConvertible(OriginText(origin: origin)) }
        if let work = e.engineWork { metadata["fault.engine"] = .string(work.rawValue) }
        record(level, "relationship fault", metadata, at: e.callSite)
    }

    // MARK: Fetches, saves, batch requests, prefetch usage

    private func log(_ e: FetchEvent) {
        guard shows(recordLevel) else { return }
        var metadata: Logger.Metadata = [
            "fetch.entity": .string(e.entity),
            "fetch.result_type": .string(e.resultType),
            "fetch.result_count": .stringConvertible(e.resultCount),
            "fetch.duration": .stringConvertible(Seconds(e.durationNanoseconds)),
            "call_site": .stringConvertible(e.callSite),
        ]
        if !e.predicate.isEmpty { metadata["fetch.predicate"] = .string(e.predicate) }
        if !e.sort.isEmpty { metadata["fetch.sort"] = .string(e.sort) }
        if !e.prefetch.isEmpty { metadata["fetch.prefetch"] = .string(e.prefetch) }
        if !e.intendedLazyLoads.isEmpty { metadata["fetch.intended_lazy_loads"] = .string(e.intendedLazyLoads) }
        if e.fetchLimit > 0 { metadata["fetch.limit"] = .stringConvertible(e.fetchLimit) }
        if e.fetchOffset > 0 { metadata["fetch.offset"] = .stringConvertible(e.fetchOffset) }
        if e.fetchBatchSize > 0 { metadata["fetch.batch_size"] = .stringConvertible(e.fetchBatchSize) }
        if adds(3), let objects = e.objects { metadata["fetch.objects"] = .array(objects.map { .string($0) }) }
        record(recordLevel, e.resultType == "count" ? "count" : "fetch", metadata, at: e.callSite)
    }

    /// A save at `debug`; a failed one at `error`, with its error.
    private func log(_ e: SaveEvent) {
        let level = e.success ? recordLevel : Self.failedSaveLevel
        guard shows(level) else { return }
        var metadata: Logger.Metadata = [
            "save.context": .string(e.context),
            "save.inserted": .stringConvertible(e.inserted),
            "save.updated": .stringConvertible(e.updated),
            "save.deleted": .stringConvertible(e.deleted),
            "save.duration": .stringConvertible(Seconds(e.durationNanoseconds)),
            "call_site": .stringConvertible(e.callSite),
        ]
        if !e.success { metadata["save.error"] = .string(e.error) }
        record(level, e.success ? "save" : "save failed", metadata, at: e.callSite)
    }

    private func log(_ e: BatchRequestEvent) {
        guard shows(recordLevel) else { return }
        let metadata: Logger.Metadata = [
            "batch.kind": .string(e.kind),
            "batch.entity": .string(e.entity),
            "batch.rows": .stringConvertible(e.rowsAffected),
            "batch.duration": .stringConvertible(Seconds(e.durationNanoseconds)),
            "call_site": .stringConvertible(e.callSite),
        ]
        record(recordLevel, "batch \(e.kind)", metadata, at: e.callSite)
    }

    /// Only the prefetch usage of a context that prefetched and the usage
    /// of a context's fetches, as the SQL debug log has them; refreshes are
    /// not asked for.
    @_spi(FastPath) public func receive(context e: ContextEvent) {
        guard shows(recordLevel) else { return }
        if let usage = e.fetchUsage { recordFetchUsage(usage, context: e.context) }
        guard let usage = e.prefetchUsage else { return }
        let metadata: Logger.Metadata = [
            "prefetch.relationship": .string(usage.relationship),
            "prefetch.prefetched": .stringConvertible(usage.prefetched),
            "prefetch.read": .stringConvertible(usage.read),
            "prefetch.context": .string(e.context),
            "call_site": .stringConvertible(usage.callSite),
        ]
        record(recordLevel, "prefetch usage", metadata, at: usage.callSite)
    }

    /// The usage of a fetch site's objects, as one record.
    private func recordFetchUsage(_ usage: FetchUsage, context: String) {
        var metadata: Logger.Metadata = [
            "fetch.entity": .string(usage.entity),
            "fetch.runs": .stringConvertible(usage.runs),
            "fetch.objects": .stringConvertible(usage.objects),
            "fetch.read": .stringConvertible(usage.read),
            "fetch.runs_read_none": .stringConvertible(usage.runsReadNone),
            "fetch.largest_read_none": .stringConvertible(usage.largestReadNone),
            "fetch.most_unread": .stringConvertible(usage.mostUnread),
            "fetch.most_unread_of": .stringConvertible(usage.mostUnreadOf),
            "fetch.context": .string(context),
            "call_site": .stringConvertible(usage.callSite),
        ]
        if !usage.keyPath.isEmpty { metadata["fetch.key_path"] = .string(usage.keyPath) }
        record(recordLevel, "fetch usage", metadata, at: usage.callSite)
    }

    // MARK: Insights

    /// An insight as a `warning` at its site: the message (what was found
    /// and the fix), the rule, the figures. For an N+1 the site is the
    /// fetch whose objects loaded one by one, where the prefetch goes.
    public func observe(_ insight: Insight) {
        guard shows(Self.insightLevel) else { return }
        var metadata: Logger.Metadata = [
            "insight.rule": .string(insight.rule.rawValue),
            "insight.entity": .string(insight.entity),
            "insight.evidence": .string(insight.evidence),
            "call_site": .string(insight.callSite),
        ]
        if !insight.keyPath.isEmpty { metadata["insight.key_path"] = .string(insight.keyPath) }
        if let count = insight.count { metadata["insight.count"] = .stringConvertible(count) }
        if let fix = insight.fix { metadata["insight.fix"] = .string(fix.code) }
        if let cost = insight.costSeconds { metadata["insight.cost"] = .string(SQLDebugLogFormat.seconds(UInt64(max(0, cost) * 1e9))) }
        record(Self.insightLevel, Logger.Message(stringLiteral: insight.message), metadata, at: Self.site(insight.callSite))
    }

    /// `Module/File.swift:42` as a call site; the text as the file, line 0,
    /// when it has no line.
    static func site(_ text: String) -> CallSite {
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]) else {
            return CallSite(file: text.isEmpty ? "?" : text, line: 0)
        }
        return CallSite(file: String(text[..<colon]), line: line)
    }

    // MARK: Records

    /// One record, attributed to the application's line (`file` and `line`
    /// of the record are the event's call site).
    private func record(_ level: Logger.Level, _ message: Logger.Message, _ metadata: Logger.Metadata, at site: CallSite) {
        let site = site.resolved
        output.log(
            level: level, message, metadata: metadata, source: Self.source, file: site.file, function: "",
            line: UInt(max(0, site.line)))
    }

}

/// A duration as the SQL debug log writes it (`0.000123s`), formatted only
/// when a handler writes the record.
struct Seconds: CustomStringConvertible, Sendable {
    let nanoseconds: UInt64
    init(_ nanoseconds: UInt64) { self.nanoseconds = nanoseconds }
    var description: String { SQLDebugLogFormat.seconds(nanoseconds) }
}

/// An object as `Entity/pN`, formatted only when a handler writes the record.
struct ObjectName: CustomStringConvertible, Sendable {
    let entity: String
    let primaryKey: Int64
    var description: String { "\(entity)/p\(primaryKey)" }
}

/// Where a lazily loaded object came from: `fetch 12 of Post at
/// Blog/Blog.swift:70 through author`, formatted only when a handler writes
/// the record.
struct OriginText: CustomStringConvertible, Sendable {
    let origin: FaultOrigin
    var description: String {
        var text = "fetch \(origin.execution) of \(origin.fetchEntity) at \(origin.fetchSite)"
        if !origin.keyPath.isEmpty { text += " through \(origin.keyPath)" }
        return text
    }
}

@_spi(FastPath) extension LoggingSink: FastPathEventSink {}

extension LoggingSink: InsightObserver {}

extension LoggingSink {
    /// The event fields it does not write, and why (EventFieldCoverageTests
    /// checks the list against what it writes).
    public static let fieldsLeftOut: [EventField: String] = EventField.leftOut([
        ("a record's time and thread are the logging backend's, taken as it is written", [
            .fetch: ["start", "thread"], .fault: ["start", "thread"], .relationshipFault: ["start", "thread"],
            .save: ["start", "thread"], .batchRequest: ["start", "thread"], .sql: ["start", "thread"],
            .context: ["start", "thread"],
        ]),
        ("records say what the SQL debug log says (which names no context on a fault or fetch)", [
            .fetch: ["context", "includesPendingChanges", "includesPropertyValues", "returnsObjectsAsFaults"],
            .fault: ["context"], .relationshipFault: ["context"],
            .sql: ["autoIndexes", "facts", "shapeID", "textID", "vmSteps"],
        ]),
        ("a context change is a record only for a prefetch's or a fetch site's usage", [
            .context: ["kind", "objectsRegistered", "objectsRegisteredPeak"],
        ]),
    ])
}
