import Synchronization

/// A place to plug a recorder into a store for a while: a test measures a
/// block of code (`Faultline.measure`) by attaching a recorder, running the
/// block and detaching it. While nothing is attached the slot wants no
/// event, so a store that allows measurement costs one atomic load per
/// event check outside measured blocks.
public final class MeasurementSlot: EventSink, @unchecked Sendable {
    private let lock = PlainLock()
    private var attached: Recorder?
    private let isAttached = Atomic<Bool>(false)
    /// The tallies of the stores the slot is in: an attached recorder that
    /// counts row-cache faults from tallies reads them from the moment it
    /// is attached.
    private var tallies: [RowCacheFaultTally] = []
    /// Whether the attached recorder reads the tallies: then a row-cache
    /// fault sent to the slot is already counted, and goes no further
    /// (without taking a lock).
    private let attachedReadsTallies = Atomic<Bool>(false)

    /// An empty slot.
    public init() {}

    /// Attaches `recorder`; false when a recorder is attached.
    public func attach(_ recorder: Recorder) -> Bool {
        lock.withLock {
            guard attached == nil else { return false }
            attached = recorder
            for tally in tallies { recorder.countRowCacheFaults(from: tally) }
            attachedReadsTallies.store(recorder.rowCacheFaultDelivery == .tally && !tallies.isEmpty, ordering: .relaxed)
            isAttached.store(true, ordering: .releasing)
            return true
        }
    }

    /// Detaches the recorder attached now: it keeps the row-cache faults
    /// the slot's stores counted while it was attached, and reads no later
    /// one for the slot (a recorder that is also a sink of the store reads
    /// on as that).
    public func detach() {
        lock.withLock {
            attached?.stopCountingRowCacheFaults(from: tallies)
            attached = nil
            attachedReadsTallies.store(false, ordering: .relaxed)
            isAttached.store(false, ordering: .releasing)
        }
    }

    /// A recorder attached later may count row-cache faults from a tally
    /// or take each one.
    @_spi(FastPath) public var rowCacheFaultDelivery: RowCacheFaultDelivery { .tallyAndEachFault }

    /// Keeps `tally` for every recorder attached from now on, and hands it to
    /// the one attached now.
    @_spi(FastPath) public func countRowCacheFaults(from tally: RowCacheFaultTally) {
        lock.withLock {
            tallies.append(tally)
            if let attached {
                attached.countRowCacheFaults(from: tally)
                attachedReadsTallies.store(attached.rowCacheFaultDelivery == .tally, ordering: .relaxed)
            }
        }
    }

    /// Passes the fault to the attached recorder, unless it counts it from a
    /// tally; drops it when none is attached.
    @_spi(FastPath) public func receiveRowCacheFault(
        entity: String, primaryKey: Int64, context: String, durationNanoseconds: UInt64, tally: RowCacheFaultTally,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        guard !attachedReadsTallies.load(ordering: .relaxed) else { return }
        // The recorder and whether it reads the tallies, taken together
        // under the lock: a recorder attached and detached between a lone
        // load of the flag and the call would count the fault twice (in the
        // tally it read meanwhile, and here). Called outside the lock: the
        // event's closure asks the sinks for their details, the slot's
        // included.
        let recorder = lock.withLock { attachedReadsTallies.load(ordering: .relaxed) ? nil : attached }
        recorder?.receiveRowCacheFault(
            entity: entity, primaryKey: primaryKey, context: context, durationNanoseconds: durationNanoseconds, tally: tally,
            callSite: callSite, event: event)
    }

    private var current: Recorder? { lock.withLock { attached } }

    /// Whether a recorder is attached, for every kind.
    public func isEnabled(_ kind: EventKind) -> Bool { isAttached.load(ordering: .acquiring) }
    /// What the attached recorder asks for; none when none is attached.
    public var details: EventDetails { current?.details ?? [] }
    /// What an attached recorder may ask for: bound values, to count
    /// repeated statements, and every refresh, when it keeps events.
    @_spi(FastPath) public var possibleDetails: EventDetails { [.sqlArguments, .contextChanges] }
    /// Passes the event to the attached recorder, if any.
    public func receive(_ event: Event) { current?.receive(event) }
    /// Passes the fault to the attached recorder, if any.
    @_spi(FastPath) public func receive(fault: FaultEvent) { current?.receive(fault: fault) }
    /// Passes the fault's parts to the attached recorder, if any. (A fault
    /// with a miss reason and origin arrives here without them, and the
    /// recorder makes the event to read them.)
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        current?.receiveFault(
            entity: entity, primaryKey: primaryKey, context: context, source: source,
            durationNanoseconds: durationNanoseconds, callSite: callSite, event: event)
    }
    /// Passes the statement to the attached recorder, if any.
    @_spi(FastPath) public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        current?.receiveStatement(parts, texts: texts, event: event)
    }
    /// Passes the statement, its texts lent, to the attached recorder, if any.
    @_spi(FastPath) public func receiveStatement(
        _ parts: StatementParts, sql: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, event: () -> SQLEvent
    ) {
        current?.receiveStatement(
            parts, sql: sql, sqlIsShape: sqlIsShape, arguments: arguments, purpose: purpose, queryPlan: queryPlan,
            event: event)
    }
    /// Passes the statement to the attached recorder, if any.
    @_spi(FastPath) public func receive(sql: SQLEvent) { current?.receive(sql: sql) }
    /// Passes the context change to the attached recorder, if any.
    @_spi(FastPath) public func receive(context: ContextEvent) { current?.receive(context: context) }
    /// Passes the refresh to the attached recorder, if any.
    @_spi(FastPath) public func receiveRefresh(context: String, objectsRegistered: Int, objectsRegisteredPeak: Int, event: () -> ContextEvent) {
        current?.receiveRefresh(
            context: context, objectsRegistered: objectsRegistered, objectsRegisteredPeak: objectsRegisteredPeak, event: event)
    }
}

@_spi(FastPath) extension MeasurementSlot: FastPathEventSink {}
