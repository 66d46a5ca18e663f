@_spi(FastPath) import Probes
import Tracing

/// Fetches, saves, batch requests and SQL statements as spans of
/// swift-distributed-tracing, for any tracer (OpenTelemetry's, Zipkin's, an
/// in-memory one): each statement a client span with OpenTelemetry's
/// database attributes (`db.system.name` `sqlite`, `db.query.text` the
/// statement's shape, never its values, `db.operation.name`,
/// `db.collection.name`), inside the fetch, save or batch request that ran
/// it; faults, cache hits and misses counted on the span that encloses
/// them. docs/bridges.md lists the spans and attributes.
///
/// Events arrive when what they measured has ended, a fetch after its
/// statements, so spans are made after the fact with the events' own start
/// and end instants. The statements and faults of one thread wait until the
/// fetch, save or batch request that encloses them in time arrives (they
/// become its children and its counts), or until the context's outermost
/// `perform` returns (``flush()``): then they go under the span that was
/// current there (`ServiceContext.current`: an HTTP request's span, say),
/// statements as its children, fault counts added to its attributes when
/// the tracer can find it (`activeSpan(identifiedBy:)`), else on a `faults`
/// span of their own. Fetches, saves and batch requests do not nest in one
/// another; a fault inside one (a save's cascade) counts on it.
///
/// ```swift
/// InstrumentationSystem.bootstrap(tracer)
/// configuration.sinks = [TracingSink()]
/// ```
public final class TracingSink: EventSink, @unchecked Sendable {
    /// Where the spans go.
    public let tracer: any Tracer
    /// Statements and fault runs one thread may hold before they go out
    /// under the current span without waiting for an enclosing fetch or
    /// save (a save of more rows than this has its first statements there).
    public let pendingLimit: Int

    private let lock = PlainLock()
    /// What each thread holds, by thread ID; a thread with nothing pending
    /// has no entry.
    @exclusivity(unchecked) private var threads: [Int32: PendingWork] = [:]
    /// The previous event's thread and its work: the next event is most
    /// often of the same thread.
    @exclusivity(unchecked) private var lastThread: (id: Int32, work: PendingWork)?
    /// Statement summaries by shape number, read from the text once.
    @exclusivity(unchecked) private var summaries: [StatementSummary?] = []

    /// - Parameters:
    ///   - tracer: by default the one `InstrumentationSystem.bootstrap`
    ///     installed (with none, `NoOpTracer`, and the sink wants nothing).
    ///   - pendingLimit: see ``pendingLimit``.
    public init(tracer: any Tracer = InstrumentationSystem.tracer, pendingLimit: Int = 4096) {
        self.tracer = tracer
        self.pendingLimit = max(1, pendingLimit)
        isOff = tracer is NoOpTracer
    }

    /// With `NoOpTracer` (nothing bootstrapped) nothing is wanted.
    private let isOff: Bool

    public func isEnabled(_ kind: EventKind) -> Bool {
        guard !isOff else { return false }
        switch kind {
        case .fetch, .fault, .relationshipFault, .save, .batchRequest, .sql: return true
        case .context, .scenario: return false
        }
    }

    /// No bound values, object values or plans: `db.query.text` is the shape.
    public var details: EventDetails { [] }
    @_spi(FastPath) public var possibleDetails: EventDetails { [] }

    public func receive(_ event: Event) {
        switch event {
        case .fetch(let e): operation(.fetch(e), start: e.start, duration: e.durationNanoseconds)
        case .save(let e): operation(.save(e), start: e.start, duration: e.durationNanoseconds)
        case .batchRequest(let e): operation(.batch(e), start: e.start, duration: e.durationNanoseconds)
        case .fault(let e): receive(fault: e)
        case .relationshipFault(let e):
            tally { $0.relationshipFault(fromDatabase: e.source == .database) }
        case .sql(let e): receive(sql: e)
        case .context, .scenario: break
        }
    }

    // MARK: Faults: counted on the thread's open run

    @_spi(FastPath) public func receive(fault e: FaultEvent) {
        tally { $0.fault(e.source) }
    }

    /// From the parts: a count, and a clock reading only when a run starts.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        tally { $0.fault(source) }
    }

    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        tally { $0.fault(source) }
    }

    @inline(__always)
    private func tally(_ count: (inout FaultTally) -> Void) {
        let thread = ProbeClock.threadID()
        lock.withLock {
            let work = work(of: thread)
            if work.tally == nil { work.tally = FaultTally(start: ProbeClock.now()) }
            count(&work.tally!)
        }
    }

    // MARK: Statements: held until their enclosing operation or the flush

    @_spi(FastPath) public func receive(sql e: SQLEvent) {
        hold(StatementParts(e), start: e.start, texts: StatementTexts(e))
    }

    /// From the figures and texts: no ``SQLEvent`` is made.
    @_spi(FastPath) public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        let texts = texts()
        hold(parts, start: ProbeClock.now() &- parts.durationNanoseconds, texts: texts)
    }

    private func hold(_ parts: StatementParts, start: UInt64, texts: StatementTexts) {
        let summary = summary(shapeID: parts.shapeID, shape: texts.shape)
        let statement = PendingStatement(
            start: start, durationNanoseconds: parts.durationNanoseconds, summary: summary, shape: texts.shape,
            purpose: texts.purpose, rowsReturned: parts.rowsReturned, rowsChanged: parts.rowsChanged,
            fullScanSteps: parts.fullScanSteps, callSite: texts.callSite)
        let thread = ProbeClock.threadID()
        let overflow: [Pending]? = lock.withLock {
            let work = work(of: thread)
            work.closeTally()
            work.items.append(.statement(statement))
            guard work.items.count >= pendingLimit else { return nil }
            return take(thread)
        }
        if let overflow { emitTopLevel(overflow, now: ProbeClock.now()) }
    }

    /// The summary of a shape, read once per shape number.
    private func summary(shapeID: Int, shape: String) -> StatementSummary {
        let known = lock.withLock { shapeID >= 0 && shapeID < summaries.count ? summaries[shapeID] : nil }
        if let known { return known }
        let made = StatementSummary(shape)
        lock.withLock {
            guard shapeID >= 0, shapeID < 1 << 20 else { return }
            if shapeID >= summaries.count { summaries.append(contentsOf: repeatElement(nil, count: shapeID + 1 - summaries.count)) }
            summaries[shapeID] = made
        }
        return made
    }

    // MARK: Operations: spans with their statements and counts

    private enum Operation {
        case fetch(FetchEvent)
        case save(SaveEvent)
        case batch(BatchRequestEvent)
    }

    /// An operation ended: what its thread held from before it goes out
    /// under the current span; what began inside it goes into its span.
    private func operation(_ operation: Operation, start: UInt64, duration: UInt64) {
        let thread = ProbeClock.threadID()
        let pending = lock.withLock { take(thread) }
        var before: [Pending] = []
        var inside: [Pending] = []
        for item in pending {
            if item.start < start { before.append(item) } else { inside.append(item) }
        }
        let clock = InstantClock()
        let ambient = ServiceContext.current ?? .topLevel
        if !before.isEmpty { emitTopLevel(before, ambient: ambient, clock: clock, end: start) }

        let (name, attributes) = Self.describe(operation)
        let span = tracer.startSpan(name, context: ambient, ofKind: .internal, at: clock.instant(start))
        var all = attributes
        var counts = FaultTally(start: start)
        for item in inside {
            switch item {
            case .statement(let statement): emit(statement, parent: span.context, clock: clock)
            case .faults(let tally): counts.add(tally)
            }
        }
        counts.write(into: &all)
        if span.isRecording { span.attributes = all }
        if case .save(let e) = operation, !e.success {
            span.recordError(SaveFailure(description: e.error), attributes: [:], at: clock.instant(start &+ duration))
            span.setStatus(SpanStatus(code: .error, message: e.error))
        }
        span.end(at: clock.instant(start &+ duration))
    }

    /// Sends on what this thread holds: the engine calls it when a
    /// context's outermost `perform` returns, on the thread that ran it.
    @_spi(FastPath) public func flush() {
        let thread = ProbeClock.threadID()
        let pending = lock.withLock { take(thread) }
        guard !pending.isEmpty else { return }
        emitTopLevel(pending, now: ProbeClock.now())
    }

    /// Sends on what every thread holds, under the caller's current span
    /// (for a program's end, or a test).
    public func flushAll() {
        let pending = lock.withLock {
            let all = threads.values.flatMap { work -> [Pending] in
                work.closeTally()
                return work.items
            }
            threads = [:]
            lastThread = nil
            return all.sorted { $0.start < $1.start }
        }
        guard !pending.isEmpty else { return }
        emitTopLevel(pending, now: ProbeClock.now())
    }

    /// The current span's context, bound again where async `perform` runs
    /// its body, so that the spans made there and at its flush nest under it.
    @_spi(FastPath) public func carryTaskContext() -> TaskContextCarrier? {
        guard !isOff, let context = ServiceContext.current else { return nil }
        return { body in ServiceContext.withValue(context) { body() } }
    }

    // MARK: Emitting

    private func emitTopLevel(_ items: [Pending], now: UInt64) {
        emitTopLevel(items, ambient: ServiceContext.current ?? .topLevel, clock: InstantClock(), end: now)
    }

    /// Statements as children of the current span; fault counts added to
    /// it when the tracer finds it, else on a `faults` span from the first
    /// run's start to `end`.
    private func emitTopLevel(_ items: [Pending], ambient: ServiceContext, clock: InstantClock, end: UInt64) {
        var counts: FaultTally?
        for item in items {
            switch item {
            case .statement(let statement): emit(statement, parent: ambient, clock: clock)
            case .faults(let tally):
                if counts == nil { counts = FaultTally(start: tally.start) }
                counts!.add(tally)
            }
        }
        guard let counts, !counts.isEmpty else { return }
        if let current = tracer.activeSpan(identifiedBy: ambient) {
            if current.isRecording { current.updateAttributes { counts.add(to: &$0) } }
            return
        }
        let span = tracer.startSpan("faults", context: ambient, ofKind: .internal, at: clock.instant(counts.start))
        var attributes = SpanAttributes()
        attributes["db.system.name"] = "sqlite"
        counts.write(into: &attributes)
        span.attributes = attributes
        span.end(at: clock.instant(max(end, counts.start)))
    }

    private func emit(_ statement: PendingStatement, parent: ServiceContext, clock: InstantClock) {
        let span = tracer.startSpan(statement.summary.summary, context: parent, ofKind: .client, at: clock.instant(statement.start))
        // A span the tracer does not record (not sampled) gets no attributes.
        guard span.isRecording else { return span.end(at: clock.instant(statement.start &+ statement.durationNanoseconds)) }
        // Made in one dictionary of the right size: set one by one, the
        // attributes grew their table several times per span.
        let site = statement.callSite.resolved
        var values: [String: SpanAttribute] = [
            "db.system.name": Self.sqlite, "db.system": Self.sqlite,
            "db.query.text": .string(statement.shape),
            "db.query.summary": .string(statement.summary.summary),
            "db.operation.name": .string(statement.summary.operation),
            "db.response.returned_rows": .int64(Int64(statement.rowsReturned)),
            "faultline.rows_changed": .int64(Int64(statement.rowsChanged)),
            "faultline.purpose": .string(statement.purpose),
            "code.file.path": .string(site.file), "code.line.number": .int64(Int64(site.line)),
        ]
        if let table = statement.summary.table { values["db.collection.name"] = .string(table) }
        if statement.fullScanSteps > 0 { values["faultline.full_scan_steps"] = .int64(Int64(statement.fullScanSteps)) }
        if !site.isKnown {
            values["code.file.path"] = nil
            values["code.line.number"] = nil
        }
        span.attributes = SpanAttributes(values)
        span.end(at: clock.instant(statement.start &+ statement.durationNanoseconds))
    }

    private static let sqlite = SpanAttribute.string("sqlite")

    private static func describe(_ operation: Operation) -> (String, SpanAttributes) {
        var attributes = SpanAttributes()
        attributes["db.system.name"] = "sqlite"
        attributes["db.system"] = "sqlite"
        switch operation {
        case .fetch(let e):
            let name = e.resultType == "count" ? "count" : "fetch"
            attributes["db.operation.name"] = name
            attributes["db.collection.name"] = e.entity
            attributes["db.response.returned_rows"] = e.resultCount
            attributes["faultline.context"] = e.context
            attributes["faultline.result_type"] = e.resultType
            if !e.sort.isEmpty { attributes["faultline.sort"] = e.sort }
            if !e.prefetch.isEmpty { attributes["faultline.prefetch"] = e.prefetch }
            if !e.intendedLazyLoads.isEmpty { attributes["faultline.intended_lazy_loads"] = e.intendedLazyLoads }
            if e.fetchLimit > 0 { attributes["faultline.fetch_limit"] = e.fetchLimit }
            if e.fetchOffset > 0 { attributes["faultline.fetch_offset"] = e.fetchOffset }
            if e.fetchBatchSize > 0 { attributes["faultline.fetch_batch_size"] = e.fetchBatchSize }
            add(e.callSite, to: &attributes)
            return ("\(name) \(e.entity)", attributes)
        case .save(let e):
            attributes["db.operation.name"] = "save"
            attributes["faultline.context"] = e.context
            attributes["faultline.inserted"] = e.inserted
            attributes["faultline.updated"] = e.updated
            attributes["faultline.deleted"] = e.deleted
            if !e.success { attributes["error.type"] = "SaveFailure" }
            add(e.callSite, to: &attributes)
            return ("save", attributes)
        case .batch(let e):
            let name = "batch \(e.kind)"
            attributes["db.operation.name"] = name
            attributes["db.collection.name"] = e.entity
            attributes["faultline.rows_affected"] = e.rowsAffected
            add(e.callSite, to: &attributes)
            return ("\(name) \(e.entity)", attributes)
        }
    }

    /// OpenTelemetry's `code.file.path` and `code.line.number`.
    private static func add(_ site: CallSite, to attributes: inout SpanAttributes) {
        let site = site.resolved
        guard site.isKnown else { return }
        attributes["code.file.path"] = site.file
        attributes["code.line.number"] = site.line
    }

    // MARK: Per-thread work

    /// Under the lock.
    private func work(of thread: Int32) -> PendingWork {
        if let last = lastThread, last.id == thread { return last.work }
        let work: PendingWork
        if let known = threads[thread] {
            work = known
        } else {
            work = PendingWork()
            threads[thread] = work
        }
        lastThread = (thread, work)
        return work
    }

    /// Takes what `thread` holds, its open run closed. Under the lock.
    private func take(_ thread: Int32) -> [Pending] {
        guard let work = threads.removeValue(forKey: thread) else { return [] }
        if lastThread?.id == thread { lastThread = nil }
        work.closeTally()
        return work.items
    }
}

/// What a save's span records as its error: the save's error, as text.
struct SaveFailure: Error, CustomStringConvertible {
    let description: String
}

/// Monotonic nanoseconds (the events' clock) as tracer instants (the wall
/// clock), by the two clocks' difference read once per batch of spans, so
/// that spans made together keep their order and nesting.
private struct InstantClock {
    let offset: UInt64

    init() {
        offset = DefaultTracerClock.now.nanosecondsSinceEpoch &- ProbeClock.now()
    }

    func instant(_ monotonic: UInt64) -> DefaultTracerClock.Instant {
        DefaultTracerClock.Instant(nanosecondsSinceEpoch: monotonic &+ offset)
    }
}

/// A statement waiting for its enclosing operation.
private struct PendingStatement {
    var start: UInt64
    var durationNanoseconds: UInt64
    var summary: StatementSummary
    var shape: String
    var purpose: String
    var rowsReturned: Int
    var rowsChanged: Int
    var fullScanSteps: Int
    var callSite: CallSite
}

/// Faults of one run: those between two statements of one thread.
private struct FaultTally {
    /// When the run began (its first fault, or the first seen).
    var start: UInt64
    var faults = 0
    var cacheHits = 0
    var cacheMisses = 0
    var relationshipFaults = 0

    init(start: UInt64) { self.start = start }

    var isEmpty: Bool { faults == 0 && relationshipFaults == 0 }

    mutating func fault(_ source: FaultSource) {
        faults += 1
        switch source {
        case .rowCache: cacheHits += 1
        case .database: cacheMisses += 1
        case .context: break
        }
    }

    mutating func relationshipFault(fromDatabase: Bool) {
        relationshipFaults += 1
        if fromDatabase { cacheMisses += 1 }
    }

    mutating func add(_ other: FaultTally) {
        start = min(start, other.start)
        faults += other.faults
        cacheHits += other.cacheHits
        cacheMisses += other.cacheMisses
        relationshipFaults += other.relationshipFaults
    }

    /// The counts that are not 0.
    func write(into attributes: inout SpanAttributes) {
        if faults > 0 { attributes["faultline.faults"] = faults }
        if cacheHits > 0 { attributes["faultline.cache_hits"] = cacheHits }
        if cacheMisses > 0 { attributes["faultline.cache_misses"] = cacheMisses }
        if relationshipFaults > 0 { attributes["faultline.relationship_faults"] = relationshipFaults }
    }

    /// Added to what a span already counts (an application's span over
    /// several `perform` blocks).
    func add(to attributes: inout SpanAttributes) {
        func plus(_ key: String, _ value: Int) {
            guard value > 0 else { return }
            var total = Int64(value)
            if case .int64(let earlier)? = attributes.get(key) { total += earlier }
            attributes.set(key, value: .int64(total))
        }
        plus("faultline.faults", faults)
        plus("faultline.cache_hits", cacheHits)
        plus("faultline.cache_misses", cacheMisses)
        plus("faultline.relationship_faults", relationshipFaults)
    }
}

private enum Pending {
    case statement(PendingStatement)
    case faults(FaultTally)

    var start: UInt64 {
        switch self {
        case .statement(let s): s.start
        case .faults(let f): f.start
        }
    }
}

/// One thread's statements and fault runs, oldest first, and its open run.
private final class PendingWork {
    var items: [Pending] = []
    var tally: FaultTally?

    /// Ends the open run (before a statement, or when taken).
    func closeTally() {
        guard let open = tally else { return }
        if !open.isEmpty { items.append(.faults(open)) }
        tally = nil
    }
}

@_spi(FastPath) extension TracingSink: FastPathEventSink {}

extension TracingSink {
    /// The event fields it does not write, and why (EventFieldCoverageTests
    /// checks the list against what it writes).
    public static let fieldsLeftOut: [EventField: String] = EventField.leftOut([
        ("a span belongs to the thread the sink runs on, not to the event's thread field", [
            .fetch: ["thread"], .save: ["thread"], .batchRequest: ["thread"], .sql: ["thread"],
        ]),
        ("faults are counted on the span they happened in (by source), not traced one by one: a span per fault would bury the operations", [
            .fault: ["start", "thread", "context", "entity", "primaryKey", "callSite", "durationNanoseconds", "values", "missReason", "origin",
                     "engineWork"],
            .relationshipFault: ["start", "thread", "context", "entity", "relationship", "primaryKey", "destinationEntity",
                                 "destinationCount", "callSite", "durationNanoseconds", "missReason", "origin", "engineWork"],
        ]),
        ("a span carries OpenTelemetry's database attributes: the statement's shape, not its values, plan or facts", [
            .sql: ["sql", "arguments", "queryPlan", "facts", "shapeID", "textID", "sorts", "autoIndexes", "vmSteps"],
            .fetch: ["predicate", "objects", "includesPendingChanges", "includesPropertyValues", "returnsObjectsAsFaults"],
        ]),
    ])
}
