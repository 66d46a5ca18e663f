/// The exact counters of one measured run (docs/report-schema.md defines
/// them): they count events, so the same work on the same data gives the
/// same numbers on any machine.
public struct Counters: Codable, Equatable, Sendable {
    /// Fetch requests executed by a context (not prefetches, pages or
    /// relationship faults).
    public var fetches = 0
    /// Object faults fired, whatever the source.
    public var faultsFired = 0
    /// Relationship faults fired.
    public var relationshipFaultsFired = 0
    /// Object faults fulfilled from the row cache.
    public var cacheHits = 0
    /// Object or relationship faults that needed a SQL round trip.
    public var cacheMisses = 0
    /// Statements executed on SQLite, BEGIN and COMMIT included.
    public var sqlStatements = 0
    /// Rows returned by SQLite.
    public var rowsRead = 0
    /// Rows inserted, updated or deleted.
    public var rowsWritten = 0
    /// Context saves that reached the store, failed ones too.
    public var saves = 0
    /// Batch update, insert and delete requests.
    public var batchRequests = 0
    /// SQLite's full-scan step counter, summed.
    public var fullScanSteps = 0
    /// SQLite's virtual-machine step counter (SQLITE_STMTSTATUS_VM_STEP),
    /// summed: the SQL work done, the same on every machine for the same
    /// work on the same data and SQLite version.
    public var vmSteps = 0
    /// The most objects registered in all contexts at once (advisory: it
    /// depends on when Swift frees objects).
    public var objectsRegisteredPeak = 0

    /// Every counter at 0.
    public init() {}

    /// Counter names in report order (``CounterName``'s raw values).
    public static let names = CounterName.allCases.map(\.rawValue)

    /// How much each counter grew since `earlier`, by name (the
    /// registered-objects peak, which is not a count, left out).
    public func difference(from earlier: Counters) -> [String: Int] {
        var grown: [String: Int] = [:]
        for counter in CounterName.allCases where counter != .objectsRegisteredPeak {
            grown[counter.rawValue] = self[counter] - earlier[counter]
        }
        return grown
    }

    /// Counters whose value depends on timing or memory management, never
    /// a gate in comparisons.
    public static let advisoryByNature: Set<String> = Set(CounterName.allCases.filter { $0.direction == .advisory }.map(\.rawValue))

    /// A counter.
    public subscript(counter: CounterName) -> Int {
        switch counter {
        case .fetches: fetches
        case .faultsFired: faultsFired
        case .relationshipFaultsFired: relationshipFaultsFired
        case .cacheHits: cacheHits
        case .cacheMisses: cacheMisses
        case .sqlStatements: sqlStatements
        case .rowsRead: rowsRead
        case .rowsWritten: rowsWritten
        case .saves: saves
        case .batchRequests: batchRequests
        case .fullScanSteps: fullScanSteps
        case .vmSteps: vmSteps
        case .objectsRegisteredPeak: objectsRegisteredPeak
        }
    }

    /// A counter by name; nil for a name that is not a counter.
    public subscript(name: String) -> Int? {
        CounterName(rawValue: name).map { self[$0] }
    }

    /// Name and value pairs in report order.
    public var all: [(name: String, value: Int)] { CounterName.allCases.map { ($0.rawValue, self[$0]) } }

    /// The counters by name, as reports hold them.
    public var byName: [String: Int] { Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.value) }) }

    /// Counts one event.
    public mutating func count(_ event: Event) {
        if let counted = CountedEvent(event) { count(counted) }
    }

    /// Counts what one event adds: the one rule the recorder and the
    /// trace read-back share. A fault from the row cache is a hit, one
    /// from the database (object or relationship) a miss.
    @inline(__always)
    public mutating func count(_ event: CountedEvent) {
        switch event {
        case .fetch: fetches += 1
        case .fault(let source, let times):
            faultsFired += times
            if source == .rowCache { cacheHits += times }
            if source == .database { cacheMisses += times }
        case .relationshipFault(let source):
            relationshipFaultsFired += 1
            if source == .database { cacheMisses += 1 }
        case .sql(let rowsReturned, let rowsChanged, let fullScanSteps, let vmSteps):
            sqlStatements += 1
            rowsRead += rowsReturned
            rowsWritten += rowsChanged
            self.fullScanSteps += fullScanSteps
            self.vmSteps += vmSteps
        case .save: saves += 1
        case .batchRequest: batchRequests += 1
        case .context(let peak): objectsRegisteredPeak = max(objectsRegisteredPeak, peak)
        }
    }

    /// Counts an object fault.
    @inline(__always)
    public mutating func count(fault e: FaultEvent) {
        count(.fault(source: e.source, times: 1))
    }

    /// Counts a statement.
    @inline(__always)
    public mutating func count(sql e: SQLEvent) {
        count(.sql(rowsReturned: e.rowsReturned, rowsChanged: e.rowsChanged, fullScanSteps: e.fullScanSteps, vmSteps: e.vmSteps))
    }

    /// Follows the registered objects' peak.
    @inline(__always)
    public mutating func count(context e: ContextEvent) {
        count(.context(objectsRegisteredPeak: e.objectsRegisteredPeak))
    }
}
