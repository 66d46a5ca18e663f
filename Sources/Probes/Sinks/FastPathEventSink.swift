/// The engine's fast path into a sink: the most frequent events as their
/// parts, before (and usually instead of) making the event.
///
/// The recorder, the LTTng tracepoints, the measurement slot and the
/// multiplex implement it: a sink that keeps totals or writes fields uses
/// the parts in place, as building an event, wrapping it in ``Event`` and
/// copying it out again costs more than either does with it. Everything
/// here has a default that makes the event and passes it on, so a sink
/// implements only what it uses. The engine takes every sink through this
/// protocol: one that conforms only to ``EventSink`` is wrapped
/// (``EventSink/fastPath``) and gets every event whole.
///
/// Not part of the stable API (`@_spi(FastPath) import Probes`): its
/// requirements follow the engine's hot paths and change with them.
@_spi(FastPath) public protocol FastPathEventSink: EventSink {
    /// Every optional part the sink may ever want (``details`` may change
    /// over time, as the LTTng sink's do when a session starts). The engine
    /// reads it once, so that a part no sink can want costs nothing to
    /// leave out, not even the question. By default, every part.
    var possibleDetails: EventDetails { get }
    /// nil when the sink wants no SQL event now (``EventSink/isEnabled(_:)``
    /// for ``EventKind/sql``), else the ``details`` a statement's event is
    /// to carry: the one question the engine asks per executed statement.
    /// By default, `isEnabled(.sql) ? details : nil`.
    var statementDetails: EventDetails? { get }
    /// Receives an object fault.
    func receive(fault: FaultEvent)
    /// Receives an object fault as its parts, the event made by `event`
    /// only if the sink needs it whole: the engine's hot path (a fault per
    /// object read in a loop). `context` and `callSite` are there for a
    /// sink that groups faults by them (the LTTng sink's runs); the call
    /// site is made only when asked for. By default,
    /// `receive(fault: event())`.
    func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent)
    /// Receives an object fault as its parts, with what makes a fault from
    /// the database a lazy load: why the row cache missed, and where the
    /// object came from (made by `origin` only when asked for; nil for an
    /// object no fetch produced). By default the parts without those.
    func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent)
    /// How the sink takes row-cache faults (``RowCacheFaultDelivery``).
    /// The engine reads it once per store. By default, each fault as it
    /// happens.
    var rowCacheFaultDelivery: RowCacheFaultDelivery { get }
    /// Starts reading a store's row-cache faults from its tally: called
    /// once per store, when it opens, for a sink whose
    /// ``rowCacheFaultDelivery`` counts them (and by a measurement slot
    /// for the recorder it attaches). A sink that answers ``RowCacheFaultDelivery/tally``
    /// reads the tally it is given: the store sends it no row-cache fault.
    /// By default, nothing.
    func countRowCacheFaults(from tally: RowCacheFaultTally)
    /// Receives a row-cache fault of a store that counts them in `tally`
    /// (``countRowCacheFaults(from:)``), for a sink whose
    /// ``rowCacheFaultDelivery`` takes each one (a multiplex passes it on
    /// to the sinks that do). A sink that reads `tally` ignores it: the
    /// fault is counted there. By default, the fault's parts go to
    /// ``receiveFault(entity:primaryKey:context:source:missReason:durationNanoseconds:origin:callSite:event:)``.
    func receiveRowCacheFault(
        entity: String, primaryKey: Int64, context: String, durationNanoseconds: UInt64, tally: RowCacheFaultTally,
        callSite: () -> CallSite, event: () -> FaultEvent)
    /// Whether the sink traces row-cache faults by runs that each context
    /// extends in place (``RowCacheFaultRun``): the engine then sends the
    /// sink only a run's first fault (``startRowCacheFaultRun(_:durationNanoseconds:event:)``),
    /// and no row-cache fault one by one. Read once per store; a multiplex
    /// answers true only when such a sink is the only one of its sinks that
    /// takes each row-cache fault (the others count them from a tally, or
    /// want none). By default, false.
    var keepsRowCacheFaultRuns: Bool { get }
    /// Starts a run of row-cache faults in `run`, a context's, with the
    /// fault `event` makes (which took `durationNanoseconds`): the context
    /// extends it in place until a fault does not continue it, and the sink
    /// ends it (``RowCacheFaultRun/close()``) when it traces anything else.
    /// Called only for a sink that ``keepsRowCacheFaultRuns``. By default,
    /// the fault is received as any other.
    func startRowCacheFaultRun(_ run: RowCacheFaultRun, durationNanoseconds: UInt64, event: () -> FaultEvent)
    /// Receives an executed statement.
    func receive(sql: SQLEvent)
    /// Receives an executed statement as its figures, its texts made by
    /// `texts` and the event by `event` only if the sink needs them: a
    /// statement per fault in a loop. By default, `receive(sql: event())`.
    func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent)
    /// Whether the sink takes a statement's texts lent
    /// (``receiveStatement(_:sql:sqlIsShape:arguments:purpose:queryPlan:event:)``)
    /// rather than made on demand (``receiveStatement(_:texts:event:)``).
    /// The engine reads it once: lending reads every text of every
    /// statement, which a sink that seldom needs them (the recorder adds
    /// most statements up from their figures) is better without. By
    /// default, false.
    var takesLentStatementTexts: Bool { get }
    /// Receives an executed statement as its figures with its texts lent
    /// for the call, not copied into ``StatementTexts``: what the engine
    /// sends a sink that ``takesLentStatementTexts``. `sqlIsShape` says whether `sql` is its shape's text (values
    /// bound, none in the text), found once per prepared statement; the
    /// shape's text is otherwise `SQLShape.text(ofShape: parts.shapeID)`,
    /// and the call site is `parts.callSite` (neither is lent again, so
    /// neither is copied per statement);
    /// `arguments` are there only when some sink asked for bound values
    /// (``EventDetails/sqlArguments``). A sink that writes texts out (the
    /// LTTng tracepoints) uses them in place. By default, the texts are
    /// made into ``StatementTexts`` only if the sink asks for them:
    /// `receiveStatement(parts, texts:event:)`.
    func receiveStatement(
        _ parts: StatementParts, sql: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, event: () -> SQLEvent)
    /// Receives a change of a context's state.
    func receive(context: ContextEvent)
    /// Receives the refresh of one object (sent only to a sink whose
    /// ``details`` ask for ``EventDetails/contextChanges``) as its parts,
    /// the event made by `event` only if the sink needs it whole: a
    /// refresh per object in a loop. By default, `receive(context: event())`.
    func receiveRefresh(context: String, objectsRegistered: Int, objectsRegisteredPeak: Int, event: () -> ContextEvent)
    /// Whether the sink traces refreshes by runs that each context extends
    /// in place (``RefreshRun``), as it takes every refresh while it is
    /// enabled for ``EventKind/context``: the engine then sends it only a
    /// run's first refresh (``startRefreshRun(_:event:)``). Read once per
    /// store; a multiplex answers true only when such a sink is the only
    /// one of its sinks that may ask for every refresh
    /// (``EventDetails/contextChanges``). By default, false.
    var keepsRefreshRuns: Bool { get }
    /// Starts a run of refreshes in `run`, a context's, with the refresh
    /// `event` makes: the context extends it in place until the sink ends
    /// it (``RefreshRun/close()``) as it traces anything else. Called only
    /// for a sink that ``keepsRefreshRuns``. By default, the refresh is
    /// received as any other.
    func startRefreshRun(_ run: RefreshRun, event: () -> ContextEvent)
    /// Sends on whatever the sink holds back: the LTTng sink's runs of
    /// row-cache faults and refreshes, each traced as one event when it
    /// ends. The engine calls it when a context's outermost `perform`
    /// block returns; a program that reads a sink's output while it runs
    /// calls it first. By default, nothing.
    func flush()
    /// What the sink needs carried from a task that waits for a context's
    /// queue to the thread that runs the work there (a task-local value,
    /// such as the tracing bridge's current span), as a function that runs
    /// a body with it bound again; nil when it needs nothing. The engine
    /// asks in async `perform`, before the body leaves the calling task.
    /// By default, nil.
    func carryTaskContext() -> TaskContextCarrier?
}

/// Runs a body with what a sink carried from the calling task bound again
/// (``FastPathEventSink/carryTaskContext()``).
public typealias TaskContextCarrier = @Sendable (_ body: () -> Void) -> Void

@_spi(FastPath) extension FastPathEventSink {
    /// Every part.
    public var possibleDetails: EventDetails { .all }
    /// The details, while the sink wants SQL events.
    public var statementDetails: EventDetails? { isEnabled(.sql) ? details : nil }
    /// False: texts are made on demand.
    public var takesLentStatementTexts: Bool { false }
    /// Wraps the event and passes it to ``receive(_:)``.
    public func receive(fault: FaultEvent) { receive(.fault(fault)) }
    /// Makes the event and passes it to ``receive(fault:)``.
    public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        receive(fault: event())
    }
    /// Passes the parts on without the miss reason and the origin, to
    /// ``receiveFault(entity:primaryKey:context:source:durationNanoseconds:callSite:event:)``.
    public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        receiveFault(
            entity: entity, primaryKey: primaryKey, context: context, source: source, durationNanoseconds: durationNanoseconds,
            callSite: callSite, event: event)
    }
    /// Each fault as it happens.
    public var rowCacheFaultDelivery: RowCacheFaultDelivery { .eachFault }
    /// Does nothing.
    public func countRowCacheFaults(from tally: RowCacheFaultTally) {}
    /// Passes the fault's parts on as a fault whose source is the row cache,
    /// with no miss reason and no origin.
    public func receiveRowCacheFault(
        entity: String, primaryKey: Int64, context: String, durationNanoseconds: UInt64, tally: RowCacheFaultTally,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        receiveFault(
            entity: entity, primaryKey: primaryKey, context: context, source: .rowCache, missReason: nil,
            durationNanoseconds: durationNanoseconds, origin: { nil }, callSite: callSite, event: event)
    }
    /// False: row-cache faults come one by one.
    public var keepsRowCacheFaultRuns: Bool { false }
    /// False: refreshes come one by one.
    public var keepsRefreshRuns: Bool { false }
    /// Makes the event and passes it to ``receive(context:)``; `run` is not
    /// used.
    public func startRefreshRun(_ run: RefreshRun, event: () -> ContextEvent) {
        receive(context: event())
    }
    /// Makes the event and passes it to ``receive(fault:)``; `run` is not
    /// used.
    public func startRowCacheFaultRun(_ run: RowCacheFaultRun, durationNanoseconds: UInt64, event: () -> FaultEvent) {
        receive(fault: event())
    }
    /// Wraps the event and passes it to ``receive(_:)``.
    public func receive(sql: SQLEvent) { receive(.sql(sql)) }
    /// Makes the event and passes it to ``receive(sql:)``.
    public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        receive(sql: event())
    }
    /// Copies the lent texts into ``StatementTexts`` only when asked for, and
    /// passes the statement on to ``receiveStatement(_:texts:event:)``.
    public func receiveStatement(
        _ parts: StatementParts, sql: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, event: () -> SQLEvent
    ) {
        receiveStatement(parts, texts: {
            StatementTexts(
                sql: sql, shape: sqlIsShape ? sql : SQLShape.text(ofShape: parts.shapeID), arguments: arguments.text,
                purpose: purpose, queryPlan: queryPlan, callSite: parts.callSite)
        }, event: event)
    }
    /// Wraps the event and passes it to ``receive(_:)``.
    public func receive(context: ContextEvent) { receive(.context(context)) }
    /// Makes the event and passes it to ``receive(context:)``.
    public func receiveRefresh(context: String, objectsRegistered: Int, objectsRegisteredPeak: Int, event: () -> ContextEvent) {
        receive(context: event())
    }
    /// Does nothing.
    public func flush() {}
    /// Nil: nothing to carry.
    public func carryTaskContext() -> TaskContextCarrier? { nil }
}

extension EventSink {
    /// The sink as the engine takes it: itself when it has a fast path,
    /// else wrapped so that every event reaches ``receive(_:)`` whole.
    @_spi(FastPath) public var fastPath: any FastPathEventSink {
        self as? any FastPathEventSink ?? WholeEventSink(self)
    }
}

/// A sink without a fast path, as the engine takes it: every event is made
/// and passed to ``EventSink/receive(_:)``.
private final class WholeEventSink: FastPathEventSink {
    let base: any EventSink
    init(_ base: any EventSink) { self.base = base }
    func isEnabled(_ kind: EventKind) -> Bool { base.isEnabled(kind) }
    var details: EventDetails { base.details }
    func receive(_ event: Event) { base.receive(event) }
}
