@_spi(FastPath) import Probes
import Synchronization

/// The one place the engine emits events (docs/tracepoints.md lists them).
///
/// Every call site asks ``isOn(_:)`` before it builds anything: with no sink
/// that is one branch, and with `FAULTLINE_NO_INSTRUMENTATION=1` at build
/// time it is compiled out. Every sink is treated alike (the LTTng
/// tracepoints, the recorder, the SQL debug log, a test's collector): the
/// store's sinks are combined into one, and the most frequent events reach
/// it through the sink's typed entry points (``FastPathEventSink/receive(fault:)``
/// and its siblings) rather than as an ``Event``. It also keeps the count of
/// objects registered in all contexts of the store, and the peak.
public final class Instrumentation: Sendable {
    /// The sinks, combined; nil when there are none.
    let sink: (any FastPathEventSink)?
    /// Whether some sink may ever ask for an event per refreshed object:
    /// when none can, a refresh does not even ask.
    let refreshEventsPossible: Bool
    private let registered = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)
    private let fetchExecutions = Atomic<UInt64>(0)
    /// Whether contexts note where their objects came from (``ObjectOrigin``):
    /// only a store with some sink pays for it.
    let tracksOrigins: Bool
    /// Whether the sinks take statements' texts lent
    /// (``FastPathEventSink/takesLentStatementTexts``) rather than made on demand.
    let lendsStatementTexts: Bool

    /// The store's count of row-cache faults, when a sink reads them from
    /// it (``FastPathEventSink/rowCacheFaultDelivery``): each context counts in a
    /// cell of its own.
    let rowCacheFaultTally: RowCacheFaultTally?
    /// Whether a store with a tally also sends each row-cache fault (to the
    /// sinks that take each one).
    let sendsEachRowCacheFault: Bool
    /// Whether a row-cache fault is only counted in the tally (which sends
    /// no fault on): it then reads no call site, and the traced typed read
    /// counts it in place (one test).
    let rowCacheFaultsAreOnlyCounted: Bool
    /// Whether each context keeps its run of row-cache faults
    /// (``RowCacheFaultRun``) for the sinks, which take runs only
    /// (``FastPathEventSink/keepsRowCacheFaultRuns``).
    let keepsRowCacheFaultRuns: Bool
    /// Whether each context keeps its run of refreshes (``RefreshRun``)
    /// for the sinks, which take runs only (``FastPathEventSink/keepsRefreshRuns``).
    let keepsRefreshRuns: Bool
    /// The sinks of a multiplex that keep the runs, asked whether they want
    /// faults (or context changes) now before a context extends its run:
    /// ``isOn(_:)`` asks every sink. Nil for a store with one sink, which
    /// `isOn` asks.
    private let rowCacheFaultRunKeeper: (any FastPathEventSink)?
    private let refreshRunKeeper: (any FastPathEventSink)?

    /// Instrumentation for `sinks`, sending every row-cache fault one by one.
    public convenience init(sinks: [any EventSink]) {
        self.init(sinks: sinks, entityNames: nil)
    }

    /// Instrumentation for `sinks` of a store of the entities `entityNames`
    /// names (by their positions): a sink that counts row-cache faults
    /// reads them from the store's tally.
    init(sinks: [any EventSink], entityNames: [String]?) {
        switch sinks.count {
        case 0: sink = nil
        case 1: sink = sinks[0].fastPath
        default: sink = MultiplexSink(sinks)
        }
        #if FAULTLINE_NO_INSTRUMENTATION
        let delivery = RowCacheFaultDelivery.eachFault
        #else
        let delivery = entityNames == nil ? .eachFault : sink?.rowCacheFaultDelivery ?? .eachFault
        #endif
        if delivery != .eachFault, let entityNames, let sink {
            let tally = RowCacheFaultTally(entityNames: entityNames)
            sink.countRowCacheFaults(from: tally)
            rowCacheFaultTally = tally
        } else {
            rowCacheFaultTally = nil
        }
        sendsEachRowCacheFault = delivery != .tally
        rowCacheFaultsAreOnlyCounted = rowCacheFaultTally != nil && !sendsEachRowCacheFault
        #if FAULTLINE_NO_INSTRUMENTATION
        keepsRowCacheFaultRuns = false
        keepsRefreshRuns = false
        #else
        keepsRowCacheFaultRuns = sink?.keepsRowCacheFaultRuns == true
        keepsRefreshRuns = sink?.keepsRefreshRuns == true
        #endif
        rowCacheFaultRunKeeper = (sink as? MultiplexSink)?.rowCacheFaultRunKeeper
        refreshRunKeeper = (sink as? MultiplexSink)?.refreshRunKeeper
        refreshEventsPossible = sink?.possibleDetails.contains(.contextChanges) == true
        lendsStatementTexts = sink?.takesLentStatementTexts == true
        #if FAULTLINE_NO_INSTRUMENTATION
        tracksOrigins = false
        #else
        tracksOrigins = sink != nil
        #endif
    }

    deinit {
        // The store and its contexts are gone: the tally counts no more.
        rowCacheFaultTally?.close()
    }

    /// A new number for one run of a fetch, unique in the store.
    func nextFetchExecution() -> UInt64 {
        fetchExecutions.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Whether some sink wants events of `kind` now.
    @inline(__always)
    public func isOn(_ kind: EventKind) -> Bool {
        #if FAULTLINE_NO_INSTRUMENTATION
        return false
        #else
        return sink?.isEnabled(kind) == true
        #endif
    }


    /// Whether the store has a sink at all: without one, ``isOn(_:)`` is
    /// false for every kind, always.
    var hasSink: Bool {
        #if FAULTLINE_NO_INSTRUMENTATION
        return false
        #else
        return sink != nil
        #endif
    }

    /// The optional parts of events the sinks want now.
    var details: EventDetails { sink?.details ?? [] }

    /// nil when no sink wants SQL events now, else the parts a statement's
    /// event is to carry (``FastPathEventSink/statementDetails``): one
    /// question per statement rather than two.
    @inline(__always)
    var statementDetails: EventDetails? {
        #if FAULTLINE_NO_INSTRUMENTATION
        return nil
        #else
        return sink?.statementDetails
        #endif
    }

    /// Sends `event` to the sinks that want its kind now.
    public func emit(_ event: Event) {
        if let sink, sink.isEnabled(event.kind) { sink.receive(event) }
    }

    /// A fault fired, from `start` until now (`start` was taken when the
    /// fault began, if ``isOn(_:)`` said so for `.fault` then). `values`
    /// describes the loaded values, for sinks that want them (level 3 logs);
    /// `origin` says where the object came from, for sinks that take the
    /// whole event. A fault from the database is a cache miss: `missReason`
    /// says why, and no other event is sent for the miss.
    ///
    /// A fault the engine fired for its own bookkeeping (`engineWork`) goes
    /// to the sinks whole: the event says so, and such faults are few.
    @inline(__always)
    func fault(
        start: UInt64, context: String, id: ObjectID, source: FaultSource, missReason: CacheMissReason?, origin: () -> FaultOrigin?,
        callSite: () -> CallSite, engineWork: EngineWork? = nil, values: () -> String
    ) {
        guard sink != nil else { return }
        let duration = ProbeClock.nanoseconds(since: start)
        if let engineWork {
            sink?.receive(fault: FaultEvent(
                start: start, durationNanoseconds: duration, thread: ProbeClock.threadID(), context: context,
                entity: id.entityName, primaryKey: id.primaryKey, source: source, callSite: callSite(),
                values: details.contains(.objectValues) ? values() : nil, missReason: missReason, origin: origin(), engineWork: engineWork))
            return
        }
        // The event itself only for a sink that needs it whole (the
        // recorder counts a row-cache fault from these parts). Called
        // through the optional: a sink bound to a local is retained and
        // released around the call.
        sink?.receiveFault(
            entity: id.entityName, primaryKey: id.primaryKey, context: context, source: source, missReason: missReason,
            durationNanoseconds: duration, origin: origin, callSite: callSite
        ) {
            FaultEvent(
                start: start, durationNanoseconds: duration, thread: ProbeClock.threadID(), context: context,
                entity: id.entityName, primaryKey: id.primaryKey, source: source, callSite: callSite(),
                values: details.contains(.objectValues) ? values() : nil, missReason: missReason, origin: origin())
        }
    }

    /// A fault the row cache served, from `start` until now: the commonest
    /// traced event of a fault loop. Its parts carry no origin (a hit is no
    /// lazy load; the whole event has it), and the closures a sink may call
    /// capture only the context and the object: building the general ``fault(start:context:id:source:missReason:origin:callSite:values:)``'s
    /// closures over every part would cost more than the recorder's whole
    /// count.
    @inline(__always)
    func rowCacheFault(start: UInt64, context: ObjectContext, name: String, object: ManagedObject) {
        // Through the optional, as in `fault`: no retain of the sink.
        let duration = ProbeClock.nanoseconds(since: start)
        if rowCacheFaultTally != nil {
            // Counted in place; sent only to the sinks that take each one
            // (or added to the context's run, for a sink that keeps runs).
            // The cell is not bound across the call, which would retain
            // and release it.
            context.rowCacheFaultCell?.count(entity: object.entity.index, nanoseconds: duration)
            guard sendsEachRowCacheFault else { return }
            if context.rowCacheFaultRun != nil { return addToRun(start: start, context: context, object: object, duration: duration) }
            return sendRowCacheFault(context: context, name: name, object: object, start: start, duration: duration)
        }
        if context.rowCacheFaultRun != nil { return addToRun(start: start, context: context, object: object, duration: duration) }
        sink?.receiveFault(
            entity: object.objectID.entity.name, primaryKey: object.objectID.primaryKey, context: name, source: .rowCache, missReason: nil,
            durationNanoseconds: duration, origin: { nil }, callSite: { context.readSite }
        ) {
            context.rowCacheFaultEvent(object, start: start, durationNanoseconds: duration)
        }
    }

    /// A row-cache fault added to its context's run (a call into the sink
    /// only when it starts a new one), for the sinks that keep runs.
    @inline(__always)
    private func addToRun(start: UInt64, context: ObjectContext, object: ManagedObject, duration: UInt64) {
        guard let run = context.unmanagedRowCacheFaultRun else { return }
        // A multiplex's keeper may not want faults while another sink does.
        if let keeper = rowCacheFaultRunKeeper, !keeper.isEnabled(.fault) { return }
        // Outside a typed read the site is the context's current one,
        // compared where it is rather than copied (a retain and a release
        // per fault); a typed read's is found from the stack.
        let entity = ObjectIdentifier(object.entity)
        if !context.inTypedAccess, run._withUnsafeGuaranteedRef({ $0.matches(entity: entity, callSite: context.currentCallSite) }),
            run._withUnsafeGuaranteedRef({ $0.extend(durationNanoseconds: duration) })
        {
            return
        }
        let site = context.readSite
        if context.inTypedAccess,
            run._withUnsafeGuaranteedRef({ $0.extend(entity: entity, callSite: site, durationNanoseconds: duration) })
        {
            return
        }
        startRowCacheFaultRun(run.takeUnretainedValue(), context: context, object: object, site: site, start: start, duration: duration)
    }

    /// A row-cache fault that does not continue its context's run: a new
    /// run, which the sink opens.
    @inline(never)
    private func startRowCacheFaultRun(
        _ run: RowCacheFaultRun, context: ObjectContext, object: ManagedObject, site: CallSite, start: UInt64, duration: UInt64
    ) {
        run.expect(entity: ObjectIdentifier(object.entity), callSite: site)
        sink?.startRowCacheFaultRun(run, durationNanoseconds: duration) {
            context.rowCacheFaultEvent(object, start: start, durationNanoseconds: duration, callSite: site)
        }
    }

    /// A row-cache fault a tally counted, for the sinks that take each one.
    @inline(never)
    private func sendRowCacheFault(context: ObjectContext, name: String, object: ManagedObject, start: UInt64, duration: UInt64) {
        guard let tally = rowCacheFaultTally else { return }
        sink?.receiveRowCacheFault(
            entity: object.objectID.entity.name, primaryKey: object.objectID.primaryKey, context: name,
            durationNanoseconds: duration, tally: tally, callSite: { context.readSite }
        ) {
            context.rowCacheFaultEvent(object, start: start, durationNanoseconds: duration)
        }
    }

    /// What the sinks need carried from the calling task to the context's
    /// queue (``FastPathEventSink/carryTaskContext()``), for async `perform`.
    func carryTaskContext() -> TaskContextCarrier? {
        #if FAULTLINE_NO_INSTRUMENTATION
        return nil
        #else
        return sink?.carryTaskContext()
        #endif
    }

    /// Lets the sinks send on what they hold back (the LTTng sink's runs of
    /// row-cache faults and refreshes): when a context's outermost
    /// `perform` block returns, so that a run is traced when its work ends.
    func flush() {
        #if !FAULTLINE_NO_INSTRUMENTATION
        sink?.flush()
        #endif
    }

    // MARK: Registered objects

    /// Objects registered in all contexts of the store now.
    public var objectsRegistered: Int { registered.load(ordering: .relaxed) }
    /// The most objects registered at once since the last ``resetPeak()``.
    public var objectsRegisteredPeak: Int { peak.load(ordering: .relaxed) }

    /// Starts a new peak from the current count.
    public func resetPeak() {
        peak.store(registered.load(ordering: .relaxed), ordering: .relaxed)
    }

    @inline(__always)
    func didRegister() {
        let now = registered.wrappingAdd(1, ordering: .relaxed).newValue
        var current = peak.load(ordering: .relaxed)
        while now > current {
            let (exchanged, original) = peak.compareExchange(expected: current, desired: now, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    @inline(__always)
    func didUnregister(_ count: Int = 1) {
        registered.wrappingSubtract(count, ordering: .relaxed)
    }

    /// An object of `context` refreshed: a `context` event of kind
    /// `refresh` for the sinks that ask for every context change. Where
    /// the context keeps its run of refreshes (``keepsRefreshRuns``), one
    /// that continues the run is counted in place.
    @inline(__always)
    func refreshed(_ context: ObjectContext) {
        #if !FAULTLINE_NO_INSTRUMENTATION
        // A store whose sinks never ask for refreshes stops here.
        guard refreshEventsPossible else { return }
        guard let run = context.refreshRun else { return emitContextChange(context.name, kind: .refresh, prefetchUsage: nil) }
        guard refreshRunKeeper?.isEnabled(.context) ?? isOn(.context) else { return }
        let (registered, peak) = (objectsRegistered, objectsRegisteredPeak)
        if run.extend(objectsRegistered: registered, objectsRegisteredPeak: peak) { return }
        startRefreshRun(run, context: context.name, objectsRegistered: registered, objectsRegisteredPeak: peak)
        #endif
    }

    /// A refresh that does not continue its context's run: a new run,
    /// which the sink opens.
    @inline(never)
    private func startRefreshRun(_ run: RefreshRun, context: String, objectsRegistered: Int, objectsRegisteredPeak: Int) {
        sink?.startRefreshRun(run) {
            ContextEvent(
                start: ProbeClock.now(), thread: ProbeClock.threadID(), context: context, kind: .refresh,
                objectsRegistered: objectsRegistered, objectsRegisteredPeak: objectsRegisteredPeak)
        }
    }

    /// Emits a `context` event with the registration counts. A refresh
    /// (one per object in a fault loop) goes only to sinks that ask for
    /// every context change.
    @inline(__always)
    func contextChanged(_ context: String, kind: ContextChange, prefetchUsage: PrefetchUsage? = nil, fetchUsage: FetchUsage? = nil) {
        #if !FAULTLINE_NO_INSTRUMENTATION
        // Inlined into the caller: a fault loop's refreshes stop here.
        if kind == .refresh, !refreshEventsPossible { return }
        emitContextChange(context, kind: kind, prefetchUsage: prefetchUsage, fetchUsage: fetchUsage)
        #endif
    }

    private func emitContextChange(_ context: String, kind: ContextChange, prefetchUsage: PrefetchUsage?, fetchUsage: FetchUsage? = nil) {
        #if !FAULTLINE_NO_INSTRUMENTATION
        guard let sink, sink.isEnabled(.context) else { return }
        if kind == .refresh {
            guard sink.details.contains(.contextChanges) else { return }
            let (registered, peak) = (objectsRegistered, objectsRegisteredPeak)
            return sink.receiveRefresh(context: context, objectsRegistered: registered, objectsRegisteredPeak: peak) {
                ContextEvent(
                    start: ProbeClock.now(), thread: ProbeClock.threadID(), context: context, kind: .refresh,
                    objectsRegistered: registered, objectsRegisteredPeak: peak)
            }
        }
        sink.receive(context: ContextEvent(
            start: ProbeClock.now(), thread: ProbeClock.threadID(), context: context, kind: kind,
            objectsRegistered: objectsRegistered, objectsRegisteredPeak: objectsRegisteredPeak, prefetchUsage: prefetchUsage,
            fetchUsage: fetchUsage))
        #endif
    }

    /// The sinks a program gets from its environment:
    /// `FAULTLINE_SQL_DEBUG=1…4` (and `FAULTLINE_SQL_LOG=path`) adds the SQL
    /// debug log. A log file that cannot be opened or written is said once
    /// on standard error: the program sees no error of it otherwise.
    public static func environmentSinks() -> [any EventSink] {
        environmentLog.map { [$0] } ?? []
    }

    /// The environment's SQL debug log, made once per process (from the
    /// environment as it was then) and shared by every store: each
    /// `StoreConfiguration()` asks, and a sink per configuration opened the
    /// log's file again, even for one whose sinks were then replaced.
    private static let environmentLog = SQLDebugLogSink.fromEnvironment(saying: SQLDebugLogSink.standardErrorLine)
}
