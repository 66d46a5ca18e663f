/// Sends each event to every sink that wants it.
public final class MultiplexSink: EventSink {
    /// The sinks events go to, in order.
    public let sinks: [any EventSink]
    /// ``sinks`` as the engine takes them (``EventSink/fastPath``).
    private let fast: [any FastPathEventSink]
    private let lendsTexts: Bool
    /// The sinks that take each row-cache fault of a store with a tally
    /// (the others count them from it).
    private let eachRowCacheFault: [any FastPathEventSink]
    /// The sinks that count row-cache faults from a store's tally.
    private let countingRowCacheFaults: [any FastPathEventSink]
    /// ``RowCacheFaultDelivery/eachFault`` when no sink counts row-cache
    /// faults from a tally, ``RowCacheFaultDelivery/tally`` when no sink takes
    /// each one, ``RowCacheFaultDelivery/tallyAndEachFault`` otherwise.
    @_spi(FastPath) public let rowCacheFaultDelivery: RowCacheFaultDelivery
    /// The sink that keeps runs of row-cache faults, when it is the only
    /// one that takes each row-cache fault (``keepsRowCacheFaultRuns``):
    /// the engine asks it whether it wants faults now before a context
    /// extends its run (the multiplex wants them while any sink does).
    @_spi(FastPath) public let rowCacheFaultRunKeeper: (any FastPathEventSink)?

    /// A sink that sends each event to those of `sinks` that want it. Each
    /// sink's answers that the engine reads once (delivery of row-cache
    /// faults, runs, lent texts) are read here, once.
    public init(_ sinks: [any EventSink]) {
        self.sinks = sinks
        var fast: [any FastPathEventSink] = []
        for sink in sinks { fast.append(sink.fastPath) }
        self.fast = fast
        lendsTexts = fast.contains { $0.takesLentStatementTexts }
        eachRowCacheFault = fast.filter { $0.rowCacheFaultDelivery != .tally }
        countingRowCacheFaults = fast.filter { $0.rowCacheFaultDelivery != .eachFault }
        rowCacheFaultDelivery =
            countingRowCacheFaults.isEmpty ? .eachFault : eachRowCacheFault.isEmpty ? .tally : .tallyAndEachFault
        // Runs only when no other sink wants the faults one by one.
        rowCacheFaultRunKeeper =
            eachRowCacheFault.count == 1 && eachRowCacheFault[0].keepsRowCacheFaultRuns ? eachRowCacheFault[0] : nil
        let refreshTakers = fast.filter { $0.possibleDetails.contains(.contextChanges) }
        refreshRunKeeper = refreshTakers.count == 1 && refreshTakers[0].keepsRefreshRuns ? refreshTakers[0] : nil
    }

    /// The sink that keeps runs of refreshes, when it is the only one that
    /// may ask for every refresh (``keepsRefreshRuns``): the engine asks
    /// it whether it wants them now before a context extends its run.
    @_spi(FastPath) public let refreshRunKeeper: (any FastPathEventSink)?

    /// Whether ``refreshRunKeeper`` is set.
    @_spi(FastPath) public var keepsRefreshRuns: Bool { refreshRunKeeper != nil }

    /// Passes the run to ``refreshRunKeeper`` when it wants context events
    /// now; drops it otherwise.
    @_spi(FastPath) public func startRefreshRun(_ run: RefreshRun, event: () -> ContextEvent) {
        guard let keeper = refreshRunKeeper, keeper.isEnabled(.context) else { return }
        keeper.startRefreshRun(run, event: event)
    }

    /// Whether ``rowCacheFaultRunKeeper`` is set.
    @_spi(FastPath) public var keepsRowCacheFaultRuns: Bool { rowCacheFaultRunKeeper != nil }

    /// Passes the run to ``rowCacheFaultRunKeeper`` when it wants faults now;
    /// drops it otherwise.
    @_spi(FastPath) public func startRowCacheFaultRun(_ run: RowCacheFaultRun, durationNanoseconds: UInt64, event: () -> FaultEvent) {
        guard let keeper = rowCacheFaultRunKeeper, keeper.isEnabled(.fault) else { return }
        keeper.startRowCacheFaultRun(run, durationNanoseconds: durationNanoseconds, event: event)
    }

    /// Hands `tally` to the sinks that count row-cache faults from a tally.
    @_spi(FastPath) public func countRowCacheFaults(from tally: RowCacheFaultTally) {
        for sink in countingRowCacheFaults { sink.countRowCacheFaults(from: tally) }
    }

    /// To the sinks that take each row-cache fault; the event is made at
    /// most once.
    @_spi(FastPath) public func receiveRowCacheFault(
        entity: String, primaryKey: Int64, context: String, durationNanoseconds: UInt64, tally: RowCacheFaultTally,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        var made: FaultEvent?
        for sink in eachRowCacheFault where sink.isEnabled(.fault) {
            sink.receiveRowCacheFault(
                entity: entity, primaryKey: primaryKey, context: context, durationNanoseconds: durationNanoseconds, tally: tally,
                callSite: callSite
            ) { Self.once(&made, event) }
        }
    }

    /// Whether any of the sinks wants events of `kind` now.
    public func isEnabled(_ kind: EventKind) -> Bool {
        for sink in fast where sink.isEnabled(kind) { return true }
        return false
    }

    /// The parts any of the sinks wants now.
    public var details: EventDetails {
        sinks.reduce(into: EventDetails()) { $0.formUnion($1.details) }
    }

    /// The parts any of the sinks may ever want.
    @_spi(FastPath) public var possibleDetails: EventDetails {
        fast.reduce(into: EventDetails()) { $0.formUnion($1.possibleDetails) }
    }

    /// Sends the event to the sinks that want its kind.
    public func receive(_ event: Event) {
        let kind = event.kind
        for sink in fast where sink.isEnabled(kind) { sink.receive(event) }
    }

    /// Sends the fault to the sinks that want faults.
    @_spi(FastPath) public func receive(fault: FaultEvent) {
        for sink in fast where sink.isEnabled(.fault) { sink.receive(fault: fault) }
    }

    /// The event is made at most once, for the sinks that need it whole.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        var made: FaultEvent?
        for sink in fast where sink.isEnabled(.fault) {
            sink.receiveFault(
                entity: entity, primaryKey: primaryKey, context: context, source: source,
                durationNanoseconds: durationNanoseconds, callSite: callSite
            ) { Self.once(&made, event) }
        }
    }

    /// The event and the origin are made at most once, for the sinks that
    /// need them.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        var made: FaultEvent?
        var madeOrigin: FaultOrigin??
        for sink in fast where sink.isEnabled(.fault) {
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
            ) { Self.once(&made, event) }
        }
    }

    /// The event is made at most once, for the sinks that need it whole;
    /// the texts come from it once it is made, so that bound values are
    /// not rendered twice.
    @_spi(FastPath) public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        var made: SQLEvent?
        for sink in fast where sink.isEnabled(.sql) {
            sink.receiveStatement(parts, texts: { made.map(StatementTexts.init) ?? texts() }) { Self.once(&made, event) }
        }
    }

    /// Whether one of the sinks takes a statement's texts lent.
    @_spi(FastPath) public var takesLentStatementTexts: Bool { lendsTexts }

    /// The texts are lent to each sink; the event is made at most once,
    /// for the sinks that need it whole.
    @_spi(FastPath) public func receiveStatement(
        _ parts: StatementParts, sql: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, event: () -> SQLEvent
    ) {
        var made: SQLEvent?
        for sink in fast where sink.isEnabled(.sql) {
            sink.receiveStatement(
                parts, sql: sql, sqlIsShape: sqlIsShape, arguments: arguments, purpose: purpose, queryPlan: queryPlan
            ) { Self.once(&made, event) }
        }
    }



    /// Sends the statement to the sinks that want SQL events.
    @_spi(FastPath) public func receive(sql: SQLEvent) {
        for sink in fast where sink.isEnabled(.sql) { sink.receive(sql: sql) }
    }

    /// A refresh goes only to the sinks that ask for every context change.
    @_spi(FastPath) public func receive(context: ContextEvent) {
        for sink in fast where sink.isEnabled(.context) {
            if context.kind == .refresh, !sink.details.contains(.contextChanges) { continue }
            sink.receive(context: context)
        }
    }

    /// The event is made at most once, for the sinks that ask for every
    /// context change and need it whole.
    @_spi(FastPath) public func receiveRefresh(context: String, objectsRegistered: Int, objectsRegisteredPeak: Int, event: () -> ContextEvent) {
        var made: ContextEvent?
        for sink in fast where sink.isEnabled(.context) && sink.details.contains(.contextChanges) {
            sink.receiveRefresh(
                context: context, objectsRegistered: objectsRegistered, objectsRegisteredPeak: objectsRegisteredPeak
            ) { Self.once(&made, event) }
        }
    }

    /// Flushes every sink, in order.
    @_spi(FastPath) public func flush() {
        for sink in fast { sink.flush() }
    }

    /// Each sink's carrier, the first outermost; nil when none carries anything.
    @_spi(FastPath) public func carryTaskContext() -> TaskContextCarrier? {
        let carriers = fast.compactMap { $0.carryTaskContext() }
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

@_spi(FastPath) extension MultiplexSink: FastPathEventSink {
    /// `made`, made by `make` the first time it is asked for: an event the
    /// sinks share is made at most once.
    @inline(__always)
    private static func once<T>(_ made: inout T?, _ make: () -> T) -> T {
        if let made { return made }
        let new = make()
        made = new
        return new
    }
}
