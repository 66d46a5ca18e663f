/// Something that receives the engine's events: the LTTng tracepoints, the
/// recorder, the SQL debug log, a test's collector.
///
/// In the manner of swift-log's handlers: a small protocol, and sinks that
/// combine (``MultiplexSink``) or do nothing (``NoOpSink``). Adding a sink
/// touches no engine code, and the engine treats every sink alike. `receive`
/// is called on the thread the event happened on, possibly from several
/// threads at once.
///
/// The three most frequent kinds (faults, statements, context changes:
/// nearly all of a fault loop's events) arrive through their own
/// `receive(fault:)`, `receive(sql:)` and `receive(context:)`, which by
/// default wrap the event and call ``receive(_:)``. From the engine they
/// arrive as their parts first (`receiveFault`, `receiveStatement`,
/// `receiveRefresh`), with a closure that makes the event, which by
/// default is made and passed on. A cache miss is no event of its own: a
/// fault whose source is the database carries the miss's reason. A sink that keeps totals (the recorder)
/// or writes fields (the LTTng tracepoints) implements them to use the
/// parts in place: building an event, wrapping it in ``Event`` and
/// copying it out again costs more than either does with it.
public protocol EventSink: AnyObject, Sendable {
    /// Whether the sink wants events of this kind now. The engine asks
    /// before it builds an event, so an unwanted event costs one call.
    func isEnabled(_ kind: EventKind) -> Bool
    /// Optional, costlier parts of events the sink wants now.
    var details: EventDetails { get }
    /// Every optional part the sink may ever want (``details`` may change
    /// over time, as the LTTng sink's do when a session starts). The engine
    /// reads it once, so that a part no sink can want costs nothing to
    /// leave out, not even the question. By default, every part.
    var possibleDetails: EventDetails { get }
    /// Receives one event.
    func receive(_ event: Event)
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
    /// Receives a fault the row cache could not serve. The engine never
    /// calls it (a fault from the database carries the miss's reason); a
    /// program that still sends cache-miss events may. By default,
    /// `receive(.cacheMiss(cacheMiss))`.
    @available(*, deprecated, message: "the engine no longer sends cache misses: a fault whose source is .database carries the miss in its missReason")
    func receive(cacheMiss: CacheMissEvent)
    /// Receives a cache miss as its parts, the event made by `event` only
    /// if the sink needs it whole. The engine never calls it (a fault from
    /// the database carries the miss's reason). By default,
    /// `receive(cacheMiss: event())`.
    @available(*, deprecated, message: "the engine no longer sends cache misses: a fault whose source is .database carries the miss in its missReason")
    func receiveCacheMiss(entity: String, primaryKey: Int64, reason: String, event: () -> CacheMissEvent)
    /// Receives an executed statement.
    func receive(sql: SQLEvent)
    /// Receives an executed statement as its figures, its texts made by
    /// `texts` and the event by `event` only if the sink needs them: a
    /// statement per fault in a loop. By default, `receive(sql: event())`.
    func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent)
    /// Whether the sink takes a statement's texts lent
    /// (``receiveStatement(_:sql:shape:sqlIsShape:arguments:purpose:queryPlan:callSite:event:)``)
    /// rather than made on demand (``receiveStatement(_:texts:event:)``).
    /// The engine reads it once: lending reads every text of every
    /// statement, which a sink that seldom needs them (the recorder adds
    /// most statements up from their figures) is better without. By
    /// default, false.
    var takesLentStatementTexts: Bool { get }
    /// Receives an executed statement as its figures with its texts lent
    /// for the call, not copied into ``StatementTexts``: what the engine
    /// sends a sink that ``takesLentStatementTexts``. `sqlIsShape` says whether `sql` is its shape's text (values
    /// bound, none in the text), found once per prepared statement;
    /// `arguments` are there only when some sink asked for bound values
    /// (``EventDetails/sqlArguments``). A sink that writes texts out (the
    /// LTTng tracepoints) uses them in place. By default, the texts are
    /// made into ``StatementTexts`` only if the sink asks for them:
    /// `receiveStatement(parts, texts:event:)`.
    func receiveStatement(
        _ parts: StatementParts, sql: String, shape: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, callSite: CallSite, event: () -> SQLEvent)
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
/// (``EventSink/carryTaskContext()``).
public typealias TaskContextCarrier = @Sendable (_ body: () -> Void) -> Void

extension EventSink {
    /// Every kind, always.
    public func isEnabled(_ kind: EventKind) -> Bool { true }
    /// No optional part.
    public var details: EventDetails { [] }
    /// Every part.
    public var possibleDetails: EventDetails { .all }
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
    @available(*, deprecated, message: "the engine no longer sends cache misses: a fault whose source is .database carries the miss in its missReason")
    public func receive(cacheMiss: CacheMissEvent) { receive(.cacheMiss(cacheMiss)) }
    /// Makes the event and passes it to ``receive(cacheMiss:)``.
    @available(*, deprecated, message: "the engine no longer sends cache misses: a fault whose source is .database carries the miss in its missReason")
    public func receiveCacheMiss(entity: String, primaryKey: Int64, reason: String, event: () -> CacheMissEvent) {
        receive(cacheMiss: event())
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
        _ parts: StatementParts, sql: String, shape: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, callSite: CallSite, event: () -> SQLEvent
    ) {
        receiveStatement(parts, texts: {
            StatementTexts(
                sql: sql, shape: shape, arguments: arguments.text, purpose: purpose, queryPlan: queryPlan, callSite: callSite)
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

/// Optional parts of events, built only when a sink asks for them.
///
/// The options are computed, not stored: a stored static is reached
/// through an accessor call (and a once-check) from another module, and
/// the engine asks for details at every traced statement and fault.
public struct EventDetails: OptionSet, Sendable {
    /// The parts as bits.
    public let rawValue: Int
    /// The parts whose bits are `rawValue`.
    @inlinable public init(rawValue: Int) { self.rawValue = rawValue }

    /// Bound values of SQL statements.
    @inlinable public static var sqlArguments: EventDetails { EventDetails(rawValue: 1) }
    /// IDs and values of fetched and faulted objects.
    @inlinable public static var objectValues: EventDetails { EventDetails(rawValue: 2) }
    /// `EXPLAIN QUERY PLAN` of each statement shape, once.
    @inlinable public static var queryPlans: EventDetails { EventDetails(rawValue: 4) }
    /// A `context` event for every object refreshed (a fault loop's worth
    /// of them), not only for resets, saves, merges and prefetch usage.
    @inlinable public static var contextChanges: EventDetails { EventDetails(rawValue: 8) }
    /// Every part.
    @inlinable public static var all: EventDetails { [.sqlArguments, .objectValues, .queryPlans, .contextChanges] }
}

/// A sink that wants nothing.
public final class NoOpSink: EventSink {
    /// A sink that wants nothing.
    public init() {}
    /// False for every kind.
    public func isEnabled(_ kind: EventKind) -> Bool { false }
    /// Drops the event.
    public func receive(_ event: Event) {}
}

/// Sends each event to every sink that wants it.
public final class MultiplexSink: EventSink {
    /// The sinks events go to, in order.
    public let sinks: [any EventSink]
    private let lendsTexts: Bool
    /// The sinks that take each row-cache fault of a store with a tally
    /// (the others count them from it).
    private let eachRowCacheFault: [any EventSink]
    /// The sinks that count row-cache faults from a store's tally.
    private let countingRowCacheFaults: [any EventSink]
    /// ``RowCacheFaultDelivery/eachFault`` when no sink counts row-cache
    /// faults from a tally, ``RowCacheFaultDelivery/tally`` when no sink takes
    /// each one, ``RowCacheFaultDelivery/tallyAndEachFault`` otherwise.
    public let rowCacheFaultDelivery: RowCacheFaultDelivery
    /// The sink that keeps runs of row-cache faults, when it is the only
    /// one that takes each row-cache fault (``keepsRowCacheFaultRuns``):
    /// the engine asks it whether it wants faults now before a context
    /// extends its run (the multiplex wants them while any sink does).
    public let rowCacheFaultRunKeeper: (any EventSink)?

    /// A sink that sends each event to those of `sinks` that want it. Each
    /// sink's answers that the engine reads once (delivery of row-cache
    /// faults, runs, lent texts) are read here, once.
    public init(_ sinks: [any EventSink]) {
        self.sinks = sinks
        lendsTexts = sinks.contains { $0.takesLentStatementTexts }
        eachRowCacheFault = sinks.filter { $0.rowCacheFaultDelivery != .tally }
        countingRowCacheFaults = sinks.filter { $0.rowCacheFaultDelivery != .eachFault }
        rowCacheFaultDelivery =
            countingRowCacheFaults.isEmpty ? .eachFault : eachRowCacheFault.isEmpty ? .tally : .tallyAndEachFault
        // Runs only when no other sink wants the faults one by one.
        rowCacheFaultRunKeeper =
            eachRowCacheFault.count == 1 && eachRowCacheFault[0].keepsRowCacheFaultRuns ? eachRowCacheFault[0] : nil
        let refreshTakers = sinks.filter { $0.possibleDetails.contains(.contextChanges) }
        refreshRunKeeper = refreshTakers.count == 1 && refreshTakers[0].keepsRefreshRuns ? refreshTakers[0] : nil
    }

    /// The sink that keeps runs of refreshes, when it is the only one that
    /// may ask for every refresh (``keepsRefreshRuns``): the engine asks
    /// it whether it wants them now before a context extends its run.
    public let refreshRunKeeper: (any EventSink)?

    /// Whether ``refreshRunKeeper`` is set.
    public var keepsRefreshRuns: Bool { refreshRunKeeper != nil }

    /// Passes the run to ``refreshRunKeeper`` when it wants context events
    /// now; drops it otherwise.
    public func startRefreshRun(_ run: RefreshRun, event: () -> ContextEvent) {
        guard let keeper = refreshRunKeeper, keeper.isEnabled(.context) else { return }
        keeper.startRefreshRun(run, event: event)
    }

    /// Whether ``rowCacheFaultRunKeeper`` is set.
    public var keepsRowCacheFaultRuns: Bool { rowCacheFaultRunKeeper != nil }

    /// Passes the run to ``rowCacheFaultRunKeeper`` when it wants faults now;
    /// drops it otherwise.
    public func startRowCacheFaultRun(_ run: RowCacheFaultRun, durationNanoseconds: UInt64, event: () -> FaultEvent) {
        guard let keeper = rowCacheFaultRunKeeper, keeper.isEnabled(.fault) else { return }
        keeper.startRowCacheFaultRun(run, durationNanoseconds: durationNanoseconds, event: event)
    }

    /// Hands `tally` to the sinks that count row-cache faults from a tally.
    public func countRowCacheFaults(from tally: RowCacheFaultTally) {
        for sink in countingRowCacheFaults { sink.countRowCacheFaults(from: tally) }
    }

    /// To the sinks that take each row-cache fault; the event is made at
    /// most once.
    public func receiveRowCacheFault(
        entity: String, primaryKey: Int64, context: String, durationNanoseconds: UInt64, tally: RowCacheFaultTally,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        var made: FaultEvent?
        for sink in eachRowCacheFault where sink.isEnabled(.fault) {
            sink.receiveRowCacheFault(
                entity: entity, primaryKey: primaryKey, context: context, durationNanoseconds: durationNanoseconds, tally: tally,
                callSite: callSite
            ) {
                if let made { return made }
                let new = event()
                made = new
                return new
            }
        }
    }

    /// Whether any of the sinks wants events of `kind` now.
    public func isEnabled(_ kind: EventKind) -> Bool {
        for sink in sinks where sink.isEnabled(kind) { return true }
        return false
    }

    /// The parts any of the sinks wants now.
    public var details: EventDetails {
        sinks.reduce(into: EventDetails()) { $0.formUnion($1.details) }
    }

    /// The parts any of the sinks may ever want.
    public var possibleDetails: EventDetails {
        sinks.reduce(into: EventDetails()) { $0.formUnion($1.possibleDetails) }
    }

    /// Sends the event to the sinks that want its kind.
    public func receive(_ event: Event) {
        let kind = event.kind
        for sink in sinks where sink.isEnabled(kind) { sink.receive(event) }
    }

    /// Sends the fault to the sinks that want faults.
    public func receive(fault: FaultEvent) {
        for sink in sinks where sink.isEnabled(.fault) { sink.receive(fault: fault) }
    }

    /// The event is made at most once, for the sinks that need it whole.
    public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        var made: FaultEvent?
        for sink in sinks where sink.isEnabled(.fault) {
            sink.receiveFault(
                entity: entity, primaryKey: primaryKey, context: context, source: source,
                durationNanoseconds: durationNanoseconds, callSite: callSite
            ) {
                if let made { return made }
                let new = event()
                made = new
                return new
            }
        }
    }

    /// The event and the origin are made at most once, for the sinks that
    /// need them.
    public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        var made: FaultEvent?
        var madeOrigin: FaultOrigin??
        for sink in sinks where sink.isEnabled(.fault) {
            sink.receiveFault(
                entity: entity, primaryKey: primaryKey, context: context, source: source, missReason: missReason,
                durationNanoseconds: durationNanoseconds,
                origin: {
                    if let madeOrigin { return madeOrigin }
                    let new = made.map(\.origin) ?? origin()
                    madeOrigin = .some(new)
                    return new
                },
                callSite: callSite
            ) {
                if let made { return made }
                let new = event()
                made = new
                return new
            }
        }
    }

    /// The event is made at most once, for the sinks that need it whole;
    /// the texts come from it once it is made, so that bound values are
    /// not rendered twice.
    public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        var made: SQLEvent?
        for sink in sinks where sink.isEnabled(.sql) {
            sink.receiveStatement(parts, texts: { made.map(StatementTexts.init) ?? texts() }) {
                if let made { return made }
                let new = event()
                made = new
                return new
            }
        }
    }

    /// Whether one of the sinks takes a statement's texts lent.
    public var takesLentStatementTexts: Bool { lendsTexts }

    /// The texts are lent to each sink; the event is made at most once,
    /// for the sinks that need it whole.
    public func receiveStatement(
        _ parts: StatementParts, sql: String, shape: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, callSite: CallSite, event: () -> SQLEvent
    ) {
        var made: SQLEvent?
        for sink in sinks where sink.isEnabled(.sql) {
            sink.receiveStatement(
                parts, sql: sql, shape: shape, sqlIsShape: sqlIsShape, arguments: arguments, purpose: purpose,
                queryPlan: queryPlan, callSite: callSite
            ) {
                if let made { return made }
                let new = event()
                made = new
                return new
            }
        }
    }

    /// The event is made at most once, for the sinks that need it whole.
    @available(*, deprecated, message: "the engine no longer sends cache misses: a fault whose source is .database carries the miss in its missReason")
    public func receiveCacheMiss(entity: String, primaryKey: Int64, reason: String, event: () -> CacheMissEvent) {
        var made: CacheMissEvent?
        for sink in sinks where sink.isEnabled(.cacheMiss) {
            sink.receiveCacheMiss(entity: entity, primaryKey: primaryKey, reason: reason) {
                if let made { return made }
                let new = event()
                made = new
                return new
            }
        }
    }

    /// Sends the cache miss to the sinks that want cache misses.
    @available(*, deprecated, message: "the engine no longer sends cache misses: a fault whose source is .database carries the miss in its missReason")
    public func receive(cacheMiss: CacheMissEvent) {
        for sink in sinks where sink.isEnabled(.cacheMiss) { sink.receive(cacheMiss: cacheMiss) }
    }

    /// Sends the statement to the sinks that want SQL events.
    public func receive(sql: SQLEvent) {
        for sink in sinks where sink.isEnabled(.sql) { sink.receive(sql: sql) }
    }

    /// A refresh goes only to the sinks that ask for every context change.
    public func receive(context: ContextEvent) {
        for sink in sinks where sink.isEnabled(.context) {
            if context.kind == .refresh, !sink.details.contains(.contextChanges) { continue }
            sink.receive(context: context)
        }
    }

    /// The event is made at most once, for the sinks that ask for every
    /// context change and need it whole.
    public func receiveRefresh(context: String, objectsRegistered: Int, objectsRegisteredPeak: Int, event: () -> ContextEvent) {
        var made: ContextEvent?
        for sink in sinks where sink.isEnabled(.context) && sink.details.contains(.contextChanges) {
            sink.receiveRefresh(
                context: context, objectsRegistered: objectsRegistered, objectsRegisteredPeak: objectsRegisteredPeak
            ) {
                if let made { return made }
                let new = event()
                made = new
                return new
            }
        }
    }

    /// Flushes every sink, in order.
    public func flush() {
        for sink in sinks { sink.flush() }
    }

    /// Each sink's carrier, the first outermost; nil when none carries anything.
    public func carryTaskContext() -> TaskContextCarrier? {
        let carriers = sinks.compactMap { $0.carryTaskContext() }
        switch carriers.count {
        case 0: return nil
        case 1: return carriers[0]
        default:
            return { body in
                func run(_ index: Int) {
                    guard index < carriers.count else { return body() }
                    let carrier = carriers[index]
                    carrier { run(index + 1) }
                }
                run(0)
            }
        }
    }
}
