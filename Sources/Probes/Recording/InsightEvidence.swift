/// What the insight rules need to know of a run, kept up to date event by
/// event, so that insights come from every event of the run and never from
/// a truncated list.
///
/// Each part is a running total or the first event of its kind (for the
/// call site an insight quotes). The only bounded part is the count of
/// executions per (statement, bound values), which keeps at most
/// ``distinctArgumentListsPerStatement`` argument lists per statement text
/// and counts the executions it could not key (``uncountedExecutions``): a
/// repetition whose first execution came after the bound is then missed,
/// and the report says how many executions that could concern.
public struct InsightEvidence: Sendable {
    /// Database faults of an entity after a relationship fault led to it.
    public struct FaultStorm: Sendable, Equatable {
        public var count: Int
        /// `Entity.relationship` of the relationship fault that led there.
        public var relationship: String
        public var callSite: CallSite
        /// Of `count`, the faults that re-read a row the row cache held but
        /// found stale (a staleness interval): prefetching would not save them.
        public var stale = 0
    }

    /// Executions of one statement text with one list of bound values.
    public struct Repetition: Sendable {
        public var count: Int
        public var first: SQLEvent
    }

    /// Full table scans of one statement shape.
    public struct FullScans: Sendable {
        public var steps: Int
        public var executions: Int
        public var first: SQLEvent
    }

    /// Relationship faults of one relationship.
    public struct RelationshipFaults: Sendable {
        public var count: Int
        public var first: RelationshipFaultEvent
    }

    /// What became of one prefetched relationship, over the run.
    public struct PrefetchTotals: Sendable, Equatable {
        public var prefetched: Int
        public var read: Int
        public var context: String
        public var callSite: String
    }

    public static let distinctArgumentListsPerStatement = 4_096

    /// The relationship fault that last led to each destination entity.
    public private(set) var leadingRelationship: [String: String] = [:]
    /// Database faults of an entity after a relationship fault led to it,
    /// with the faults of the storm under way added in.
    public var faultStorms: [String: FaultStorm] {
        guard let run = stormRun else { return storms }
        var storms = storms
        storms[run.entity]?.count += run.count
        return storms
    }
    private var storms: [String: FaultStorm] = [:]
    /// The faults of the storm under way not yet added to `storms`: a
    /// storm's faults come in a run of one entity, and looking each up by
    /// its name hashed the name for every fault (300 instructions, a tenth
    /// of what the recorder costs on a loop of misses).
    private var stormRun: (entity: String, count: Int)?
    /// Executions per statement text and list of bound values, of reads
    /// only: the advice for a repeated statement is to keep its result. A
    /// write's argument lists (a new key per insert) were hashed for
    /// nothing, a fifth of what the recorder cost on a loop of inserts.
    public var repetitions: [String: [[String]: Repetition]] {
        Dictionary(uniqueKeysWithValues: repetitionsByText.values.filter(\.isRead).map { ($0.sql, $0.allLists) })
    }
    /// The same, keyed by the text's interned number: hashing an integer per
    /// execution instead of the statement's text.
    private var repetitionsByText: [InternedNumber: TextRepetitions] = [:]

    /// One statement text's executions per list of bound values. The empty
    /// list (every execution, for a recorder that does not track values) is
    /// kept beside the table: no empty array hashed per execution.
    private struct TextRepetitions {
        var sql: String
        /// Found once per text (``InsightEvidence/isRead(_:)``): a write's
        /// executions are not counted.
        var isRead: Bool
        var withoutArguments: Repetition?
        var lists: [[String]: Repetition] = [:]

        var listCount: Int { lists.count + (withoutArguments == nil ? 0 : 1) }

        var allLists: [[String]: Repetition] {
            var all = lists
            if let withoutArguments { all[[]] = withoutArguments }
            return all
        }

        /// Counts an execution without values in place, when one was seen
        /// before (or the text does not read); false otherwise.
        mutating func countWithoutArguments() -> Bool {
            guard isRead else { return true }
            guard withoutArguments != nil else { return false }
            withoutArguments!.count += 1
            return true
        }

        /// Counts an execution in place; false when it has a new list of
        /// values and the text already has `limit` lists.
        mutating func count(_ e: SQLEvent, limit: Int) -> Bool {
            if e.arguments.isEmpty {
                if countWithoutArguments() { return true }
            } else {
                guard isRead else { return true }
                if let inner = lists.index(forKey: e.arguments) {
                    lists.values[inner].count += 1
                    return true
                }
            }
            guard listCount < limit else { return false }
            if e.arguments.isEmpty {
                withoutArguments = Repetition(count: 1, first: e)
            } else {
                lists[e.arguments] = Repetition(count: 1, first: e)
            }
            return true
        }
    }
    /// Numbers for texts of events that came without one (built by hand).
    private var textIDs: [String: Int] = [:]
    public private(set) var uncountedExecutions = 0
    public private(set) var fullScans: [String: FullScans] = [:]
    /// Saves of one or two objects: how many, how many objects, the first.
    public private(set) var smallSaves = 0
    public private(set) var smallSaveObjects = 0
    public private(set) var firstSmallSave: SaveEvent?
    public private(set) var relationshipFaults: [String: RelationshipFaults] = [:]
    /// Entities of which some object fault fired.
    public private(set) var faultedEntities: Set<String> = []
    /// Entities some fetch returned as objects with their values.
    public private(set) var fetchedWithValues: Set<String> = []
    public private(set) var prefetchUsage: [String: PrefetchTotals] = [:]
    private var lastFaultedEntity = ""
    /// Stale misses of an entity whose first storm fault has not come yet.
    private var pendingStale: [String: Int] = [:]

    public init() {}

    /// The evidence of a list of events.
    public init(_ events: [Event]) {
        for event in events { add(event) }
    }

    /// Adds one event.
    public mutating func add(_ event: Event) {
        switch event {
        case .relationshipFault(let e):
            leadingRelationship[e.destinationEntity] = "\(e.entity).\(e.relationship)"
            let key = "\(e.entity).\(e.relationship)"
            if relationshipFaults[key] == nil {
                relationshipFaults[key] = RelationshipFaults(count: 1, first: e)
            } else {
                relationshipFaults[key]!.count += 1
            }
        case .fault(let e): add(fault: e)
        case .cacheMiss(let e): add(cacheMiss: e)
        case .sql(let e): add(sql: e)
        case .save(let e):
            let objects = e.inserted + e.updated + e.deleted
            guard objects <= 2 else { return }
            smallSaves += 1
            smallSaveObjects += objects
            if firstSmallSave == nil { firstSmallSave = e }
        case .context(let e): add(context: e)
        case .fetch(let e):
            // Objects that come back with their values are there to be read.
            if e.resultType == "objects", !e.returnsObjectsAsFaults, e.resultCount > 0 { fetchedWithValues.insert(e.entity) }
        default:
            return
        }
    }

    /// Notes that an object of `entity` was faulted.
    @inline(__always)
    public mutating func noteFaulted(_ entity: String) {
        // Faults come in runs of one entity: hash its name once a run.
        if entity != lastFaultedEntity {
            faultedEntities.insert(entity)
            lastFaultedEntity = entity
        }
    }

    /// Adds a fault given by its parts: its event is made only for a fault
    /// from the database of an entity reached through a relationship fault,
    /// which may count toward a fault storm (and needs its call site).
    /// The same evidence as ``add(fault:)``.
    public mutating func addFault(entity: String, source: FaultSource, event: () -> FaultEvent) {
        noteFaulted(entity)
        guard source == .database, !leadingRelationship.isEmpty else { return }
        // A storm under way only counts; its first fault needs the event.
        if stormRun?.entity == entity {
            stormRun!.count += 1
            return
        }
        if storms[entity] != nil {
            endStormRun()
            stormRun = (entity, 1)
            return
        }
        guard leadingRelationship[entity] != nil else { return }
        add(fault: event())
    }

    /// Adds the faults of the storm under way to its entity's storm.
    private mutating func endStormRun() {
        guard let run = stormRun else { return }
        storms[run.entity]?.count += run.count
        stormRun = nil
    }

    /// Adds an object fault.
    @inline(__always)
    public mutating func add(fault e: FaultEvent) {
        noteFaulted(e.entity)
        guard e.source == .database, let relationship = leadingRelationship[e.entity] else { return }
        if storms[e.entity] == nil {
            storms[e.entity] = FaultStorm(
                count: 1, relationship: relationship, callSite: e.callSite, stale: pendingStale.removeValue(forKey: e.entity) ?? 0)
        } else {
            storms[e.entity]!.count += 1
        }
    }

    /// Adds a cache miss: a stale row re-read after a relationship fault led
    /// to its entity is part of that entity's fault storm, but not one that
    /// prefetching would save (the miss comes just before its fault).
    public mutating func add(cacheMiss e: CacheMissEvent) {
        guard e.reason == Self.staleMissReason, leadingRelationship[e.entity] != nil else { return }
        storms[e.entity]?.stale += 1
        if storms[e.entity] == nil { pendingStale[e.entity, default: 0] += 1 }
    }

    /// Counts an execution without bound values of a text seen before, in
    /// place; false (and nothing counted) when it needs its event: a text
    /// not seen yet, or one whose executions so far carried values.
    public mutating func countExecution(text: Int, isTransaction: Bool) -> Bool {
        guard !isTransaction else { return true }
        // A text without an interned number is known by its SQL only.
        guard text >= 0, let position = repetitionsByText.index(forKey: InternedNumber(text)) else { return false }
        return repetitionsByText.values[position].countWithoutArguments()
    }

    /// Whether a statement reads (`SELECT`, or `WITH` for a common table
    /// expression before one), by its first letters, in any case: enough to
    /// tell the statements SQLite takes apart (`SAVEPOINT` is the only other
    /// one starting with S and A-L, `WITH` the only one with W).
    static func isRead(_ sql: String) -> Bool {
        var bytes = sql.utf8.makeIterator()
        let first = (bytes.next() ?? 0) | 0x20
        let second = (bytes.next() ?? 0) | 0x20
        if first == UInt8(ascii: "w") { return second == UInt8(ascii: "i") }
        return first == UInt8(ascii: "s") && second == UInt8(ascii: "e") && (bytes.next() ?? 0) | 0x20 == UInt8(ascii: "l")
    }

    /// The reason of a miss on a row the cache held but found stale: the
    /// only misses that are evidence.
    public static let staleMissReason = "stale"

    /// Adds a context change: only prefetch usage is evidence.
    public mutating func add(context e: ContextEvent) {
        guard let usage = e.prefetchUsage else { return }
        let current = prefetchUsage[usage.relationship]
            ?? PrefetchTotals(prefetched: 0, read: 0, context: e.context, callSite: usage.callSite.description)
        prefetchUsage[usage.relationship] = PrefetchTotals(
            prefetched: current.prefetched + usage.prefetched, read: current.read + usage.read, context: current.context,
            callSite: current.callSite)
    }

    /// Adds a statement.
    public mutating func add(sql e: SQLEvent) {
        // A statement without WHERE wants every row: scanning is right.
        if e.fullScanSteps > 0, e.shape.contains(" WHERE ") {
            if fullScans[e.shape] == nil {
                fullScans[e.shape] = FullScans(steps: e.fullScanSteps, executions: 1, first: e)
            } else {
                fullScans[e.shape]!.steps += e.fullScanSteps
                fullScans[e.shape]!.executions += 1
            }
        }
        guard e.purpose != SQLEvent.transactionPurpose else { return }
        let text = InternedNumber(e.textID ?? textID(of: e.sql))
        // Found by index and updated through it: one lookup per level, in
        // place (a force-unwrapped nested update copied the inner table).
        guard let position = repetitionsByText.index(forKey: text) else {
            var entry = TextRepetitions(sql: e.sql, isRead: Self.isRead(e.sql))
            _ = entry.count(e, limit: Self.distinctArgumentListsPerStatement)
            repetitionsByText[text] = entry
            return
        }
        if !repetitionsByText.values[position].count(e, limit: Self.distinctArgumentListsPerStatement) {
            uncountedExecutions += 1
        }
    }

    /// A number for a text, negative so as not to meet interned ones.
    private mutating func textID(of sql: String) -> Int {
        if let id = textIDs[sql] { return id }
        let id = -1 - textIDs.count
        textIDs[sql] = id
        return id
    }
}
