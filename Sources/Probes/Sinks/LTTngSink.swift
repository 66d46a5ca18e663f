import CTracepoints
import Foundation
import Synchronization

/// Sends events to the `faultline` LTTng-UST tracepoints.
///
/// The application does not link liblttng-ust: ``load(providerPath:)``
/// opens the provider library (libFaultlineTracepointProvider.so, which
/// does), and when that fails, the tracepoints stay off and nothing else
/// changes. Whether a tracepoint is on (a session enabled it) is checked
/// before any event is built: an idle call site costs one call.
///
/// Row-cache faults and refreshes are traced by runs (``HeldBackRuns``):
/// consecutive ones of one context (and entity and call site) make one
/// event with their `count`, traced when the run ends. Every other event
/// is traced alone, after the runs it ends. A lock orders the two. A
/// store whose only sink taking each row-cache fault is this one has its
/// contexts extend their fault runs in place (``RowCacheFaultRun``,
/// ``keepsRowCacheFaultRuns``): the sink gets each run's first fault, and
/// closes the run when it traces anything else, as it ends the runs it
/// holds.
///
/// A trace says each thing once. A cache miss is the `miss_reason` field
/// of the fault that reads the database. A statement's shape is traced
/// once per session, as a `faultline:sql_shape` event giving its number
/// and text, on the thread that first runs a statement of that shape and
/// before that statement's `faultline:sql` event (under the lock, so that
/// no other thread's event of that shape comes first); each `sql` event
/// carries the shape's number, and its own text only when that is not the
/// shape's text or the shape was never traced (`sql_shape` not enabled).
/// A call site is numbered the same way (``TracedCallSites``): a
/// `faultline:call_site` event gives its number and text once per session,
/// before the first event of that site, and each event carries the number.
/// A statement's texts are lent to the sink
/// (``takesLentStatementTexts``), not copied.
public final class LTTngSink: EventSink, @unchecked Sendable {
    /// The environment variable that names the provider library.
    public static let providerVariable = "FAULTLINE_TRACEPOINT_PROVIDER"
    /// The provider library's file name.
    public static let providerFileName = "libFaultlineTracepointProvider.so"

    private let lock = PlainLock()
    /// Guarded by `lock`, which also makes the exclusivity checks that
    /// each access would otherwise pay for unnecessary.
    @exclusivity(unchecked) private var runs = HeldBackRuns()
    /// The shapes traced so far (guarded by `lock`).
    @exclusivity(unchecked) private var tracedShapes = TracedShapes()
    /// The call sites traced so far, by number (guarded by `lock`).
    @exclusivity(unchecked) private var tracedCallSites = TracedCallSites()
    /// Set when this process was seen with every faultline tracepoint off
    /// (``noteWhetherASessionRecords()``): no session recorded its events
    /// then, so a session that does later is another one, whose trace has
    /// none of the shapes and call sites traced so far. The next event traced
    /// forgets them (``forgetWhatAnEndedSessionWasTold()``), under the lock.
    private let sessionsEnded = Atomic<Bool>(false)

    private init() {}

    /// Loads the provider and returns the sink, or says why tracing is off.
    ///
    /// The provider is looked for at `providerPath`, else at the path in
    /// `FAULTLINE_TRACEPOINT_PROVIDER`, else beside the running executable.
    public static func load(providerPath: String? = nil) -> Result<LTTngSink, LTTngUnavailable> {
        let path = providerPath ?? ProcessInfo.processInfo.environment[providerVariable] ?? defaultProviderPath()
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(LTTngUnavailable(reason: "the tracepoint provider \(path) does not exist"))
        }
        // Under FileMappings: loading maps the provider's file, and a
        // provider of another version is closed again, both of which a
        // capture of the images on another thread must not meet. The lock
        // also makes one load at a time (the C side keeps its handle and
        // its message in statics), and the message is read under it. While
        // lttng-ust's constructors register the process with a session
        // daemon (up to its LTTNG_UST_REGISTER_TIMEOUT), closing a
        // connection on another thread waits: a load comes before the work.
        let error = FileMappings.holdingStill { faultline_tracepoints_load(path).map { String(cString: $0) } }
        if let error {
            return .failure(LTTngUnavailable(reason: "cannot load the tracepoint provider \(path): \(error)"))
        }
        if let reason = tracepointLibraryMissing() { return .failure(reason) }
        _ = flushAtExit
        return .success(shared)
    }

    /// Why ``load(providerPath:)`` would fail, as far as can be told without
    /// loading anything (loading starts lttng-ust in this process): the
    /// provider is missing, or lttng-ust's tracepoint library. Nil when the
    /// load may succeed (a provider that is there can still fail to load).
    public static func unavailability(providerPath: String? = nil) -> LTTngUnavailable? {
        let path = providerPath ?? ProcessInfo.processInfo.environment[providerVariable] ?? defaultProviderPath()
        guard FileManager.default.fileExists(atPath: path) else {
            return LTTngUnavailable(reason: "the tracepoint provider \(path) does not exist")
        }
        return tracepointLibraryMissing()
    }

    /// liblttng-ust-tracepoint, which this program's tracepoints opened when it started.
    private static func tracepointLibraryMissing() -> LTTngUnavailable? {
        faultline_lttng_available() != 0
            ? nil : LTTngUnavailable(reason: "liblttng-ust-tracepoint.so.1 is not installed (Debian: liblttng-ust1)")
    }

    /// The runs still held back when the program exits are traced then
    /// (before lttng-ust's own destructor, which runs after `atexit`
    /// handlers registered later than it loaded).
    private static let flushAtExit: Void = {
        atexit { LTTngSink.shared.flush() }
    }()

    private static let shared = LTTngSink()

    /// `libFaultlineTracepointProvider.so` in the directory of the executable.
    public static func defaultProviderPath() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? "."
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(providerFileName).path
    }

    /// Whether a session enabled the tracepoint of `kind` now.
    public func isEnabled(_ kind: EventKind) -> Bool {
        let on: Bool =
            switch kind {
            case .fetch: faultline_tp_fetch_enabled() != 0
            case .fault: faultline_tp_fault_on() != 0
            case .relationshipFault: faultline_tp_relationship_fault_enabled() != 0
            case .save: faultline_tp_save_enabled() != 0
            case .batchRequest: faultline_tp_batch_request_enabled() != 0
            case .sql: faultline_tp_sql_on() != 0
            case .context: faultline_tp_context_on() != 0
            case .scenario: faultline_tp_scenario_enabled() != 0
            }
        // A statement not traced: perhaps between two sessions.
        if !on, kind == .sql { noteWhetherASessionRecords() }
        return on
    }

    /// Bound values while the `sql` tracepoint is on; every refresh while
    /// the `context` tracepoint is on.
    public var details: EventDetails {
        // Read inline: the engine asks per statement.
        var details: EventDetails = []
        if faultline_tp_sql_on() != 0 { details.insert(.sqlArguments) }
        if faultline_tp_context_on() != 0 { details.insert(.contextChanges) }
        return details
    }

    /// Bound values while the `sql` tracepoint is on (``isEnabled(_:)``
    /// and ``details`` in one question, asked per statement).
    @_spi(FastPath) public var statementDetails: EventDetails? {
        guard faultline_tp_sql_on() != 0 else {
            noteWhetherASessionRecords()
            return nil
        }
        return details
    }

    /// What an enabled `sql` or `context` tracepoint asks for.
    @_spi(FastPath) public var possibleDetails: EventDetails { [.sqlArguments, .contextChanges] }

    /// Every text of every statement goes into its `sql` event: lent, not
    /// copied.
    @_spi(FastPath) public var takesLentStatementTexts: Bool { true }

    /// Traces the event: a row-cache fault or a refresh joins (or starts)
    /// its run; any other event ends the runs held back, then is traced
    /// alone.
    public func receive(_ event: Event) {
        switch event {
        case .fetch(let e): alone { trace(e) }
        case .fault(let e): receive(fault: e)
        case .relationshipFault(let e): alone { trace(e) }
        case .save(let e): alone { trace(e) }
        case .batchRequest(let e): alone { trace(e) }
        case .sql(let e): receive(sql: e)
        case .context(let e): receive(context: e)
        case .scenario(let e): alone { trace(e) }
        }
    }

    /// Traces the runs held back. (At the end of each outermost `perform`
    /// block: also where a session's end is noticed when no statement ran
    /// since.)
    public func flush() {
        noteWhetherASessionRecords()
        lock.withLock {
            forgetWhatAnEndedSessionWasTold()
            endRuns()
        }
    }

    /// Notes that no session records this process's events now, if none
    /// does: asked when `faultline:sql` is found off (a statement not
    /// traced) and at ``flush()``. Once noted, nothing more is asked until
    /// a session records again. Between two sessions this process may run
    /// nothing that asks: the second then continues the first's shapes and
    /// call sites (its trace names those `#N`).
    @inline(never)
    private func noteWhetherASessionRecords() {
        if !sessionsEnded.load(ordering: .relaxed), faultline_tp_any_enabled() == 0 {
            sessionsEnded.store(true, ordering: .relaxed)
        }
    }

    /// Takes the lock to trace (``forgetWhatAnEndedSessionWasTold()``).
    @inline(__always)
    private func lockToTrace() {
        lock.lock()
        forgetWhatAnEndedSessionWasTold()
    }

    /// Under the lock, at the start of what traces: after a session ended,
    /// once a session records again, the shapes and call sites told so far
    /// are told again (a site keeps its number). While none records (a run
    /// traced at a `flush()` after the session's end goes nowhere), the
    /// note is kept for the next session.
    @inline(__always)
    private func forgetWhatAnEndedSessionWasTold() {
        guard sessionsEnded.load(ordering: .relaxed), faultline_tp_any_enabled() != 0 else { return }
        sessionsEnded.store(false, ordering: .relaxed)
        tracedShapes = TracedShapes()
        tracedCallSites.forgetTold()
    }

    /// Traces an event that no run holds back: after the runs, which it ends.
    @inline(__always)
    private func alone(_ trace: () -> Void) {
        lock.withLock {
            forgetWhatAnEndedSessionWasTold()
            endRuns()
            trace()
        }
    }

    /// Under the lock. Nearly every event finds no run held back: that is
    /// asked inline, the runs are traced out of line.
    @inline(__always)
    private func endRuns() {
        if !runs.isEmpty { traceEndedRuns() }
    }

    @inline(never)
    private func traceEndedRuns() {
        for run in runs.endAll() {
            switch run {
            case .faults(let run): trace(run)
            case .refreshes(let run): trace(run)
            }
        }
    }

    // The most frequent events go to their tracepoints from their fields,
    // never through an `Event`. These trace unconditionally: the engine
    // asks `isEnabled` first.

    /// No event is made for a fault, but for the first of a run of
    /// row-cache faults: a fault from the database is traced from its
    /// parts, its miss's reason with it, and a row-cache fault that
    /// continues the pending run only adds to its count and duration.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        // Locked without a closure: one would copy each text it captured.
        guard source == .rowCache else {
            let site = callSite()
            lockToTrace()
            endRuns()
            traceFault(
                context: context, entity: entity, primaryKey: primaryKey, source: source, missReason: missReason, count: 1,
                durationNanoseconds: durationNanoseconds, callSite: site)
            lock.unlock()
            return
        }
        lockToTrace()
        if !runs.extendFaults(entity: entity, context: context, callSite: callSite, durationNanoseconds: durationNanoseconds),
            let ended = runs.add(rowCacheFault: event())
        {
            trace(ended)
        }
        lock.unlock()
    }

    /// Row-cache faults by runs that each context extends in place: the
    /// sink gets a run's first fault only.
    @_spi(FastPath) public var keepsRowCacheFaultRuns: Bool { true }

    /// Opens `run` with its first fault as the pending fault run, after
    /// the run it ends (a pending one, held here or another context's).
    @_spi(FastPath) public func startRowCacheFaultRun(_ run: RowCacheFaultRun, durationNanoseconds: UInt64, event: () -> FaultEvent) {
        lockToTrace()
        // Off since the engine asked (a session that just ended): the runs
        // end, and this one stays closed (the context asks again).
        if faultline_tp_fault_on() == 0 {
            endRuns()
        } else if let ended = runs.add(run: run, first: event(), durationNanoseconds: durationNanoseconds) {
            trace(ended)
        }
        lock.unlock()
    }

    /// Refreshes by runs that each context extends in place: the sink gets
    /// a run's first refresh only. (Every refresh is traced while the
    /// `context` tracepoint is on, which ``details`` says.)
    @_spi(FastPath) public var keepsRefreshRuns: Bool { true }

    /// Opens `run` with its first refresh as the pending refresh run, after
    /// the run it ends.
    @_spi(FastPath) public func startRefreshRun(_ run: RefreshRun, event: () -> ContextEvent) {
        lockToTrace()
        if faultline_tp_context_on() == 0 {
            endRuns()
        } else if let ended = runs.add(run: run, first: event()) {
            trace(ended)
        }
        lock.unlock()
    }

    /// A fault given by its parts without its miss's reason (a producer
    /// other than the engine): the event of a fault from the database has it.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        guard source == .rowCache else { return receive(fault: event()) }
        receiveFault(
            entity: entity, primaryKey: primaryKey, context: context, source: source, missReason: nil,
            durationNanoseconds: durationNanoseconds, origin: { nil }, callSite: callSite, event: event)
    }

    /// Adds a row-cache fault to its run; traces any other fault alone,
    /// after the runs held back.
    @_spi(FastPath) public func receive(fault e: FaultEvent) {
        guard e.source == .rowCache else { return alone { trace(fault: e, count: 1, durationNanoseconds: e.durationNanoseconds) } }
        lock.withLock {
            forgetWhatAnEndedSessionWasTold()
            if let ended = runs.add(rowCacheFault: e) { trace(ended) }
        }
    }



    /// Traces the statement after the runs held back, its shape first when
    /// the shape was not traced yet in this session.
    @_spi(FastPath) public func receive(sql e: SQLEvent) {
        alone { trace(StatementParts(e), StatementTexts(e)) }
    }

    /// From the figures and texts: no ``SQLEvent`` is made.
    @_spi(FastPath) public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        alone { trace(parts, texts()) }
    }

    /// From the figures and the texts lent: nothing is copied, and no
    /// ``SQLEvent`` or ``StatementTexts`` made.
    @_spi(FastPath) public func receiveStatement(
        _ parts: StatementParts, sql: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, event: () -> SQLEvent
    ) {
        // Locked without a closure: one would copy each text it captured.
        lockToTrace()
        endRuns()
        traceStatement(
            parts, sql: sql, shape: nil, sqlIsShape: sqlIsShape, arguments: arguments, purpose: purpose, queryPlan: queryPlan)
        lock.unlock()
    }

    /// Adds a refresh to its run; traces any other change alone, after the
    /// runs held back.
    @_spi(FastPath) public func receive(context e: ContextEvent) {
        guard e.kind == .refresh else { return alone { traceContext(e, count: 1) } }
        lock.withLock {
            forgetWhatAnEndedSessionWasTold()
            if let ended = runs.add(refresh: e) { trace(ended) }
        }
    }

    /// A refresh that continues the pending run only updates its count and
    /// registration counts: no event is made for it.
    @_spi(FastPath) public func receiveRefresh(context: String, objectsRegistered: Int, objectsRegisteredPeak: Int, event: () -> ContextEvent) {
        lock.withLock {
            forgetWhatAnEndedSessionWasTold()
            let extended = runs.extendRefreshes(
                context: context, objectsRegistered: objectsRegistered, objectsRegisteredPeak: objectsRegisteredPeak)
            if extended { return }
            if let ended = runs.add(refresh: event()) { trace(ended) }
        }
    }

    private func trace(_ run: HeldBackRuns.Faults) {
        trace(fault: run.first, count: run.count, durationNanoseconds: run.durationNanoseconds)
    }

    private func trace(_ run: HeldBackRuns.Refreshes) {
        traceContext(run.last, count: run.count)
    }
}

// One function per tracepoint. Strings reach C through `withCString`, which
// lends a native string's own bytes (and copies a small one to the stack);
// an implicit String-to-pointer argument would allocate and copy an array
// for each string of each event. A call site is interned
// (``callSiteNumber(_:)``). Each is called with the lock held.
extension LTTngSink {
    /// The `call_site` field of an event of `site`: its number, after its
    /// `faultline:call_site` event when this session was not told it
    /// (``TracedCallSites``). Taken before the event is traced.
    @inline(__always)
    private func callSiteNumber(_ site: CallSite) -> UInt64 {
        tracedCallSites.number(of: site, tell: Self.tell)
    }

    /// Traces a call site's number and text, if the `call_site` tracepoint
    /// is on; whether it traced them. The function is `""`: the engine's
    /// call sites name a file and a line (`#fileID`, `#line`).
    private static func tell(_ number: UInt64, _ site: CallSite) -> Bool {
        guard faultline_tp_call_site_enabled() != 0 else { return false }
        site.module.withCString { module in
            site.traceFile.withCString { file in
                faultline_tp_call_site(number, module, file, Int64(site.traceLine), StatementArguments.emptyCString)
            }
        }
        return true
    }

    private func trace(fault e: FaultEvent, count: UInt64, durationNanoseconds: UInt64) {
        traceFault(
            context: e.context, entity: e.entity, primaryKey: e.primaryKey, source: e.source, missReason: e.missReason,
            count: count, durationNanoseconds: durationNanoseconds, callSite: e.callSite)
    }

    private func traceFault(
        context: String, entity: String, primaryKey: Int64, source: FaultSource, missReason: CacheMissReason?, count: UInt64,
        durationNanoseconds: UInt64, callSite: CallSite
    ) {
        let site = callSiteNumber(callSite)
        context.withCString { context in
            entity.withCString { entity in
                faultline_tp_fault(
                    context, entity, primaryKey, source.traceValue, Self.missField(source, missReason), count,
                    durationNanoseconds, site)
            }
        }
    }

    /// The `miss_reason` field: for a fault from the database its reason
    /// (`absent` when its producer gave none: every such fault is a miss,
    /// and a reader counts misses from this field), `""` for any other.
    private static func missField(_ source: FaultSource, _ reason: CacheMissReason?) -> Int32 {
        source == .database ? (reason ?? .absent).traceValue : Int32(FAULTLINE_MISS_NONE.rawValue)
    }

    private func traceContext(_ e: ContextEvent, count: UInt64) {
        let detail = e.detail
        e.context.withCString { context in
            e.kind.rawValue.withCString { kind in
                detail.withCString { detail in
                    faultline_tp_context(
                        context, kind, count, UInt64(e.objectsRegistered), UInt64(e.objectsRegisteredPeak), detail)
                }
            }
        }
    }

    /// The statement's shape first if it was never traced (and the
    /// `sql_shape` tracepoint is on: a session that enables it later
    /// still gets it), then the statement: its text only when it is not
    /// the shape's or the shape was never traced.
    private func trace(_ e: StatementParts, _ texts: StatementTexts) {
        traceStatement(
            e, sql: texts.sql, shape: texts.shape, sqlIsShape: texts.sql == texts.shape,
            arguments: texts.arguments.isEmpty ? .none : .rendered(texts.arguments), purpose: texts.purpose,
            queryPlan: texts.queryPlan)
    }

    /// The statement from its texts in place: `sql` is read only when it
    /// is not the shape's text or the shape's text was never traced,
    /// `shape` only when the shape is traced (nil: the statement's own
    /// text when that is the shape's, else the text the shape's number
    /// names). The call site is the one `e` carries. Inlined: called per
    /// statement, from two places.
    @inline(__always)
    private func traceStatement(
        _ e: StatementParts, sql: String, shape: String?, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?
    ) {
        var shapeTraced = tracedShapes.contains(e.shapeID)
        if !shapeTraced, faultline_tp_sql_shape_enabled() != 0 {
            let shape = shape ?? (sqlIsShape ? sql : SQLShape.text(ofShape: e.shapeID))
            shape.withCString { faultline_tp_sql_shape(UInt64(bitPattern: Int64(e.shapeID)), $0) }
            tracedShapes.insert(e.shapeID)
            shapeTraced = true
        }
        // The text is left out only where a reader finds it in the shape's
        // event: with `faultline:sql_shape` not enabled, each statement
        // carries its own text.
        let textInShape = sqlIsShape && shapeTraced
        let empty = StatementArguments.emptyCString
        var fields = faultline_sql_fields(
            shape: UInt64(bitPattern: Int64(e.shapeID)), statement: empty, arguments: empty,
            duration_ns: e.durationNanoseconds, rows_returned: UInt64(e.rowsReturned), rows_changed: UInt64(e.rowsChanged),
            full_scan_steps: UInt64(e.fullScanSteps), sorts: UInt64(e.sorts), auto_indexes: UInt64(e.autoIndexes),
            vm_steps: UInt64(e.vmSteps), purpose: empty, query_plan: empty, call_site: callSiteNumber(e.callSite))
        // Nearly every statement: no text of its own, no plan.
        if textInShape, queryPlan == nil { return Self.send(&fields, arguments: arguments, purpose: purpose) }
        let plan = queryPlan?.joined(separator: "\n") ?? ""
        (textInShape ? "" : sql).withCString { statement in
            plan.withCString { plan in
                fields.statement = statement
                fields.query_plan = plan
                Self.send(&fields, arguments: arguments, purpose: purpose)
            }
        }
    }

    /// Traces a statement's fields with the texts of its bound values and
    /// purpose, which are lent for the call only (a key lookup's one
    /// integer written on the stack).
    @inline(__always)
    private static func send(_ fields: inout faultline_sql_fields, arguments: StatementArguments, purpose: String) {
        purpose.withCString { purpose in
            fields.purpose = purpose
            arguments.withCString { arguments in
                fields.arguments = arguments
                faultline_tp_sql(&fields)
            }
        }
    }

    private func trace(_ e: FetchEvent) {
        let site = callSiteNumber(e.callSite)
        e.context.withCString { context in
            e.entity.withCString { entity in
                e.predicate.withCString { predicate in
                    e.sort.withCString { sort in
                        e.resultType.withCString { resultType in
                            e.prefetch.withCString { prefetch in
                                var fields = faultline_fetch_fields(
                                    context: context, entity: entity, predicate: predicate, sort: sort,
                                    result_type: resultType, result_count: UInt64(e.resultCount),
                                    duration_ns: e.durationNanoseconds, fetch_limit: Int64(e.fetchLimit),
                                    fetch_offset: Int64(e.fetchOffset), batch_size: Int64(e.fetchBatchSize),
                                    returns_faults: e.returnsObjectsAsFaults ? 1 : 0,
                                    includes_values: e.includesPropertyValues ? 1 : 0,
                                    includes_pending: e.includesPendingChanges ? 1 : 0, prefetch: prefetch, call_site: site)
                                faultline_tp_fetch(&fields)
                            }
                        }
                    }
                }
            }
        }
    }

    private func trace(_ e: RelationshipFaultEvent) {
        let site = callSiteNumber(e.callSite)
        e.context.withCString { context in
            e.entity.withCString { entity in
                e.relationship.withCString { relationship in
                    e.destinationEntity.withCString { destination in
                        var fields = faultline_relationship_fault_fields(
                            context: context, entity: entity, relationship: relationship, primary_key: e.primaryKey,
                            destination_entity: destination, destination_count: UInt64(e.destinationCount),
                            source: e.source.traceValue, miss_reason: Self.missField(e.source, e.missReason),
                            duration_ns: e.durationNanoseconds, call_site: site)
                        faultline_tp_relationship_fault(&fields)
                    }
                }
            }
        }
    }

    private func trace(_ e: SaveEvent) {
        let site = callSiteNumber(e.callSite)
        e.context.withCString { context in
            e.error.withCString { error in
                faultline_tp_save(
                    context, UInt64(e.inserted), UInt64(e.updated), UInt64(e.deleted), e.durationNanoseconds,
                    e.success ? 1 : 0, error, site)
            }
        }
    }

    private func trace(_ e: BatchRequestEvent) {
        let site = callSiteNumber(e.callSite)
        e.kind.withCString { kind in
            e.entity.withCString { entity in
                faultline_tp_batch_request(kind, entity, UInt64(e.rowsAffected), e.durationNanoseconds, site)
            }
        }
    }

    private func trace(_ e: ScenarioEvent) {
        e.scenario.withCString { scenario in
            e.phase.rawValue.withCString { phase in
                e.step.withCString { step in faultline_tp_scenario(scenario, phase, step, Int64(e.iteration)) }
            }
        }
    }
}

/// Why LTTng tracing is off.
public struct LTTngUnavailable: Error, Sendable, CustomStringConvertible {
    /// What is missing or failed, in one line: the provider not found, not
    /// loadable, or lttng-ust not installed.
    public let reason: String
    /// ``reason``.
    public var description: String { reason }
}

@_spi(FastPath) extension LTTngSink: FastPathEventSink {}

extension LTTngSink {
    /// The event fields its tracepoints do not carry, and why (a test
    /// traces every field changed in turn and checks this list against
    /// what babeltrace2 reads back).
    public static let fieldsLeftOut: [EventField: String] = EventField.leftOut([
        ("the tracer stamps each event with its own clock, process and thread (vpid, vtid)", [
            .fetch: ["start", "thread"], .fault: ["start", "thread"], .relationshipFault: ["start", "thread"],
            .save: ["start", "thread"], .batchRequest: ["start", "thread"], .sql: ["start", "thread"],
            .context: ["start", "thread"], .scenario: ["start", "thread"],
        ]),
        ("a shape's text is told once per session, in its sql_shape event; each sql event carries its number", [
            .sql: ["shape"],
        ]),
        ("the recorder's own: where an object came from (its lazy loads by origin; a trace has the fetch before the fault), a text's number, the facts its rules read, the lazy loads a fetch intends", [
            .fault: ["origin"], .relationshipFault: ["origin"], .sql: ["textID", "facts"], .fetch: ["intendedLazyLoads"],
        ]),
        ("a load the engine makes for its own bookkeeping is told by its statement's purpose (`engine inverse Category.recipes`), which the sql event carries", [
            .fault: ["engineWork"], .relationshipFault: ["engineWork"],
        ]),
        ("objects' IDs and values are for level-3 SQL debug logs (EventDetails.objectValues), which the tracepoints never ask for", [
            .fault: ["values"], .fetch: ["objects"],
        ]),
    ])
}
