/// The in-process sink behind reports: exact counters, per-shape statement
/// aggregates and the insights' evidence, updated in place as each event
/// comes, and, only when asked for, a bounded buffer of recent events for
/// timelines and trace files (whose drops are counted).
///
/// Thread-safe; each event costs one lock and a few additions (statements
/// are aggregated by the shape number computed once per prepared
/// statement, each one's time recorded in its shape's
/// ``DurationHistogram``). Without an event buffer it reads row-cache
/// faults from each store's ``RowCacheFaultTally`` instead: no call and no
/// lock per fault.
public final class Recorder: EventSink, @unchecked Sendable {
    /// What the recorder holds at one moment.
    public struct Snapshot: Sendable {
        /// The exact counters.
        public var counters: Counters
        /// Statement aggregates, most total time first.
        public var statements: [StatementAggregate]
        /// The most recent events, oldest first (at most the buffer's capacity).
        public var events: [Event]
        /// Events that did not fit in the buffer.
        public var droppedEvents: Int
        /// What the insight rules need, from every event since the reset.
        public var evidence: InsightEvidence
        /// Nanoseconds spent in SQLite statements.
        public var sqlNanoseconds: UInt64
        /// Nanoseconds spent fulfilling faults from the row cache.
        public var rowCacheNanoseconds: UInt64
    }

    private struct State {
        var counters = Counters()
        var aggregates = InternedNumberTable<StatementAggregate>()
        /// Its statements are the aggregates, set when a snapshot is taken.
        var evidence = InsightEvidence(aggregatingStatements: false)
        /// Distinct lists of values per shape, up to ``StatementAggregate/distinctLimit``.
        var arguments: [InternedNumber: Set<ArgumentList>] = [:]
        var buffer: [Event] = []
        var next = 0
        var dropped = 0
        var sqlNanoseconds: UInt64 = 0
        var rowCacheNanoseconds: UInt64 = 0
        /// The shape and call site of the last statement counted at its
        /// site from its figures, and the evidence's slot for them: a loop
        /// runs one statement from one line, found again by two integer
        /// compares and a compare of the file's string with itself.
        var lastSite = SiteSlot(shape: -1, site: .unknown, slot: -1)
    }

    /// Where the evidence counts a shape's executions from a call site.
    private struct SiteSlot {
        var shape: Int
        var site: CallSite
        var slot: Int
    }

    /// A store's tally of row-cache faults, its counts when the recorder
    /// started reading it or was last reset, and for how many reasons it
    /// reads it (as a sink of the store, and once per attachment to a
    /// measurement slot).
    private struct Tallied {
        let tally: RowCacheFaultTally
        var baseline: RowCacheFaultCounts
        var readers: Int
    }

    /// Guards `state` and `tallied` (see ``PlainLock`` for why not `Mutex`).
    private let lock = PlainLock()
    @exclusivity(unchecked) private var state = State()
    /// The tallies the recorder reads its row-cache faults from.
    @exclusivity(unchecked) private var tallied: [Tallied] = []
    /// How many recent events are kept; 0 keeps none.
    public let bufferCapacity: Int
    /// Bound values when the recorder tracks arguments; every refresh when
    /// it keeps events.
    public let details: EventDetails
    /// The recorder's details do not change.
    @_spi(FastPath) public var possibleDetails: EventDetails { details }

    /// - Parameters:
    ///   - bufferCapacity: recent events kept for timelines (0: none, and
    ///     then the recorder does not ask for an event per object refreshed).
    ///   - tracksArguments: also count distinct argument lists per shape
    ///     (up to 64 each) and repeated identical statements, which needs
    ///     the SQL arguments built.
    public init(bufferCapacity: Int = 0, tracksArguments: Bool = false) {
        self.bufferCapacity = bufferCapacity
        var details: EventDetails = tracksArguments ? [.sqlArguments] : []
        if bufferCapacity > 0 { details.insert(.contextChanges) }
        self.details = details
    }

    /// Counts the event, adds it to the evidence and keeps it in the buffer
    /// when there is one.
    public func receive(_ event: Event) {
        switch event {
        case .fault(let e): receive(fault: e)
        case .sql(let e): receive(sql: e)
        case .context(let e): receive(context: e)
        default:
            lock.withLock {
                state.counters.count(event)
                state.evidence.add(event)
                if bufferCapacity > 0 { keep(event) }
            }
        }
    }

    /// Counts the fault (a hit or a miss by its source), adds it to the
    /// evidence, and keeps it when there is a buffer.
    @_spi(FastPath) public func receive(fault e: FaultEvent) {
        lock.withLock {
            state.counters.count(fault: e)
            state.evidence.add(fault: e)
            if e.source == .rowCache { state.rowCacheNanoseconds &+= e.durationNanoseconds }
            if bufferCapacity > 0 { keep(.fault(e)) }
        }
    }

    /// Without an event buffer, a fault only adds to the counters and notes
    /// its entity; for a fault from the database of an object a fetch
    /// produced (a lazy load) it also adds to the lazy loads of its origin,
    /// whose call site is made only for a path seen for the first time. No
    /// event is made.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        guard bufferCapacity == 0 else { return receive(fault: event()) }
        lock.withLock {
            state.counters.count(.fault(source: source, times: 1))
            switch source {
            case .rowCache:
                state.rowCacheNanoseconds &+= durationNanoseconds
                state.evidence.noteFaulted(entity)
            case .database:
                if let origin = origin() {
                    state.evidence.addLazyLoad(
                        entity: entity, origin: origin, stale: missReason == .stale, nanoseconds: durationNanoseconds, read: callSite)
                } else {
                    state.evidence.noteFaulted(entity)
                }
            case .context:
                state.evidence.noteFaulted(entity)
            }
        }
    }

    /// Without an event buffer the recorder reads the row-cache faults of
    /// a store from its tally: each fault is then one addition in the
    /// context that fires it, not a call and a lock here. With a buffer it
    /// takes each fault, to keep it.
    @_spi(FastPath) public var rowCacheFaultDelivery: RowCacheFaultDelivery { bufferCapacity == 0 ? .tally : .eachFault }

    /// Starts reading the row-cache faults `tally` counts from now on; does
    /// nothing for a recorder with an event buffer, which takes each fault.
    @_spi(FastPath) public func countRowCacheFaults(from tally: RowCacheFaultTally) {
        guard bufferCapacity == 0 else { return }
        lock.withLock {
            if let index = tallied.firstIndex(where: { $0.tally === tally }) {
                tallied[index].readers += 1
            } else {
                tallied.append(Tallied(tally: tally, baseline: tally.counts(), readers: 1))
            }
        }
    }

    /// Ignored when the recorder reads `tally` (the fault is counted
    /// there); otherwise counted as any fault is.
    @_spi(FastPath) public func receiveRowCacheFault(
        entity: String, primaryKey: Int64, context: String, durationNanoseconds: UInt64, tally: RowCacheFaultTally,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        // A recorder with a buffer reads no tally: no lock to ask.
        if bufferCapacity == 0, lock.withLock({ tallied.contains { $0.tally === tally } }) { return }
        receiveFault(
            entity: entity, primaryKey: primaryKey, context: context, source: .rowCache, missReason: nil,
            durationNanoseconds: durationNanoseconds, origin: { nil }, callSite: callSite, event: event)
    }

    /// Stops reading `tallies` for one reason (a measurement slot's
    /// recorder detached): a tally read for no other reason has what it
    /// counted so far kept as the recorder's own, and no later fault.
    func stopCountingRowCacheFaults(from tallies: [RowCacheFaultTally]) {
        lock.withLock {
            for tally in tallies {
                guard let index = tallied.firstIndex(where: { $0.tally === tally }) else { continue }
                tallied[index].readers -= 1
                if tallied[index].readers == 0 { keepCounts(ofTallied: index) }
            }
        }
    }

    /// Moves what a tally counted since its baseline into the recorder's
    /// own figures and stops reading it. Under the lock.
    private func keepCounts(ofTallied index: Int) {
        let faults = addTalliedFaults(tallied[index], to: &state.counters)
        state.rowCacheNanoseconds &+= faults.nanoseconds
        for entity in faults.entities { state.evidence.noteFaulted(entity) }
        tallied.remove(at: index)
    }

    /// Keeps the counts of the tallies whose stores are gone (they count
    /// no more), so that a recorder that outlives many stores does not
    /// read them all at every question. Under the lock.
    private func keepClosedTallies() {
        for index in tallied.indices.reversed() where tallied[index].tally.isClosed {
            keepCounts(ofTallied: index)
        }
    }

    /// Adds the row-cache faults `entry`'s tally counted since its
    /// baseline to `counters`; returns their time and the entities
    /// faulted. Under the lock.
    private func addTalliedFaults(_ entry: Tallied, to counters: inout Counters) -> (nanoseconds: UInt64, entities: [String]) {
        let counts = entry.tally.counts().since(entry.baseline)
        var entities: [String] = []
        for (position, faults) in counts.faults.enumerated() where faults > 0 {
            counters.count(.fault(source: .rowCache, times: Int(faults)))
            entities.append(entry.tally.entityNames[position])
        }
        return (counts.nanoseconds, entities)
    }

    /// The counters with the tallies' row-cache faults. Under the lock.
    private func currentCounters() -> Counters {
        keepClosedTallies()
        var counters = state.counters
        for entry in tallied { _ = addTalliedFaults(entry, to: &counters) }
        return counters
    }

    /// A fault given by its parts without its origin (a producer other
    /// than the engine): the event of a fault from the database says where
    /// its object came from and why the row cache missed.
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        let made = source == .database ? event() : nil
        receiveFault(
            entity: entity, primaryKey: primaryKey, context: context, source: source, missReason: made?.missReason,
            durationNanoseconds: durationNanoseconds, origin: { made?.origin }, callSite: { made?.callSite ?? callSite() }
        ) { made ?? event() }
    }



    /// Without an event buffer or details, a statement whose shape and text
    /// were seen before (and that has no full scan to note) only adds to
    /// the counters, its aggregate and its repetition count: no event is
    /// made. Anything else takes the event.
    @_spi(FastPath) public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        guard bufferCapacity == 0, details.isEmpty, !parts.hasDetails, parts.fullScanSteps == 0,
              lock.withLock({ count(parts) })
        else { return receive(sql: event()) }
    }

    /// Counts a statement from its figures if nothing it adds needs its
    /// texts; false (and nothing counted) otherwise. Under the lock.
    private func count(_ parts: StatementParts) -> Bool {
        // The call site checked first: counting the execution changes the
        // evidence, and a new pair of shape and site needs the event. The
        // engine's own statements are no read of the application's.
        let counted = parts.isTransaction || parts.isEngineWork
        guard let aggregate = state.aggregates.position(of: parts.shapeID) else { return false }
        // Looked up once, counted once the rest is.
        let slot: Int?
        let repeated = state.lastSite.shape == parts.shapeID && state.lastSite.site.line == parts.callSite.line
            && state.lastSite.site.file == parts.callSite.file
        if counted {
            slot = nil
        } else if repeated {
            slot = state.lastSite.slot
        } else {
            slot = state.evidence.siteSlot(shape: parts.shapeID, site: parts.callSite)
        }
        guard counted || slot != nil,
              parts.isEngineWork || state.evidence.countExecution(text: parts.textID, isTransaction: parts.isTransaction)
        else { return false }
        if let slot {
            if repeated {
                state.evidence.countSiteExecution(atSlot: slot, nanoseconds: parts.durationNanoseconds)
            } else {
                state.evidence.countSiteExecution(
                    atSlot: slot, shape: parts.shapeID, site: parts.callSite, nanoseconds: parts.durationNanoseconds)
                state.lastSite = SiteSlot(shape: parts.shapeID, site: parts.callSite, slot: slot)
            }
        }
        state.counters.count(
            .sql(rowsReturned: parts.rowsReturned, rowsChanged: parts.rowsChanged, fullScanSteps: parts.fullScanSteps, vmSteps: parts.vmSteps))
        state.sqlNanoseconds &+= parts.durationNanoseconds
        state.aggregates[aggregate].add(parts)
        return true
    }

    /// Counts the statement, adds it to its shape's aggregate and to the
    /// evidence (its distinct lists of values when the recorder tracks
    /// arguments), and keeps it when there is a buffer.
    @_spi(FastPath) public func receive(sql e: SQLEvent) {
        // The list of values hashed once, outside the lock, for both the
        // evidence and the shape's distinct lists.
        let list = e.arguments.isEmpty ? nil : ArgumentList(e.arguments)
        lock.withLock {
            state.counters.count(sql: e)
            if let list { state.evidence.add(sql: e, list: list) } else { state.evidence.add(sql: e) }
            state.sqlNanoseconds &+= e.durationNanoseconds
            let shape = InternedNumber(e.shapeID)
            let position: Int
            if let found = state.aggregates.position(of: e.shapeID) {
                position = found
                state.aggregates[position].add(e)
            } else {
                var aggregate = StatementAggregate(
                    shape: e.shape, purpose: e.purpose, firstCallSite: e.callSite, facts: e.facts, firstText: e.sql)
                aggregate.add(e)
                position = state.aggregates.append(aggregate, for: e.shapeID)
            }
            if !details.isEmpty, let list {
                // One lookup of the set, updated in place (reading the
                // aggregate's count through `values` would copy the aggregate).
                if let lists = state.arguments.index(forKey: shape) {
                    if state.arguments.values[lists].count < StatementAggregate.distinctLimit {
                        state.arguments.values[lists].insert(list)
                        state.aggregates[position].distinctArgumentLists = state.arguments.values[lists].count
                    }
                } else {
                    state.arguments[shape] = [list]
                    state.aggregates[position].distinctArgumentLists = 1
                }
            }
            if bufferCapacity > 0 { keep(.sql(e)) }
        }
    }

    /// Follows the registered objects' peak, adds a prefetch's usage to the
    /// evidence, and keeps the event when there is a buffer.
    @_spi(FastPath) public func receive(context e: ContextEvent) {
        lock.withLock {
            state.counters.count(context: e)
            state.evidence.add(context: e)
            if bufferCapacity > 0 { keep(.context(e)) }
        }
    }

    /// Keeps an event in the ring buffer (callers check that there is one,
    /// before they build the event), counting the one it replaces. Called
    /// with the lock held.
    private func keep(_ event: Event) {
        if state.buffer.count < bufferCapacity {
            state.buffer.append(event)
        } else {
            state.buffer[state.next] = event
            state.next = (state.next + 1) % bufferCapacity
            state.dropped += 1
        }
    }

    /// The counters so far.
    public var counters: Counters { lock.withLock { currentCounters() } }

    /// The counters and the time in SQLite so far: cheap enough to take
    /// before and after a step of a scenario.
    public var totals: (counters: Counters, sqlNanoseconds: UInt64) {
        lock.withLock { (currentCounters(), state.sqlNanoseconds) }
    }

    /// Everything recorded so far.
    public func snapshot() -> Snapshot {
        lock.withLock { currentSnapshot() }
    }

    /// Everything recorded so far, forgotten at the same moment: no event
    /// falls between the snapshot and the reset (a watch that reads the
    /// recorder in windows, while the store works on other threads).
    public func snapshotAndReset() -> Snapshot {
        lock.withLock {
            let snapshot = currentSnapshot()
            resetState()
            return snapshot
        }
    }

    /// Under the lock.
    private func currentSnapshot() -> Snapshot {
        let events = state.next == 0 ? state.buffer : Array(state.buffer[state.next...] + state.buffer[..<state.next])
        let statements = state.aggregates.values.sorted {
            $0.totalNanoseconds != $1.totalNanoseconds ? $0.totalNanoseconds > $1.totalNanoseconds : $0.shape < $1.shape
        }
        keepClosedTallies()
        var evidence = state.evidence
        evidence.statements = statements
        var counters = state.counters
        var rowCacheNanoseconds = state.rowCacheNanoseconds
        for entry in tallied {
            let faults = addTalliedFaults(entry, to: &counters)
            rowCacheNanoseconds &+= faults.nanoseconds
            for entity in faults.entities { evidence.noteFaulted(entity) }
        }
        return Snapshot(
            counters: counters, statements: statements, events: events, droppedEvents: state.dropped, evidence: evidence,
            sqlNanoseconds: state.sqlNanoseconds, rowCacheNanoseconds: rowCacheNanoseconds)
    }

    /// Forgets everything recorded.
    /// Tallies start again from their counts now; those of stores that
    /// are gone are forgotten.
    public func reset() {
        lock.withLock { resetState() }
    }

    /// Under the lock.
    private func resetState() {
        state = State()
        tallied.removeAll { $0.tally.isClosed }
        for index in tallied.indices { tallied[index].baseline = tallied[index].tally.counts() }
    }
}

@_spi(FastPath) extension Recorder: FastPathEventSink {}
