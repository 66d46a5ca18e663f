/// What the insight rules read: facts of a run or of a log, added up event
/// by event so that insights come from every event and never from a
/// truncated list. The recorder (a run, `Faultline.measure`) and the SQL
/// debug log reader (`perf-run log`, Faultline's logs and Core Data's)
/// feed the same events into it; the rules (Reporting's `InsightRule`s)
/// read only what is here, never SQL text.
///
/// - Lazy loads (``lazyLoads``): faults and relationship faults that ran a
///   query, by the fetch their object came from and the key path that led
///   there, execution by execution: the N+1 pattern.
/// - Statements (``statements``): per shape, what the engine knows of it
///   (``StatementFacts``) and what SQLite did (full-scan steps, sorts).
/// - Repetitions (``repetitions``): executions of one read with one list of
///   bound values. The one bound: at most
///   ``distinctArgumentListsPerStatement`` lists are counted per statement
///   text (``uncountedExecutions`` says how many executions that left out).
/// - Saves of one or two objects, prefetch usage, and which entities were
///   read (faulted, or fetched with values).
public struct InsightEvidence: Sendable {
    /// Executions of one statement text with one list of bound values.
    public struct Repetition: Sendable {
        public var count: Int
        public var first: SQLEvent
    }

    /// Saves of one or two objects in one context.
    public struct SmallSaves: Sendable {
        public var count = 0
        public var objects = 0
        public var first: SaveEvent

        mutating func add(objects: Int) {
            count += 1
            self.objects += objects
        }
    }

    /// What became of one prefetched relationship, over the run.
    public struct PrefetchTotals: Sendable, Equatable {
        public var prefetched: Int
        public var read: Int
        public var context: String
        public var callSite: String
    }

    public static let distinctArgumentListsPerStatement = 4_096

    // MARK: Lazy loads

    private var tallies: [LazyLoadPath: LazyLoadTally] = [:]
    /// The path of the last lazy load and its place in `tallies`: loads
    /// come in runs of one path, so comparing with it spares hashing three
    /// strings per load.
    private var lastPath: LazyLoadPath?
    private var lastPosition: Dictionary<LazyLoadPath, LazyLoadTally>.Index?

    /// The lazy loads by path, every execution settled.
    public var lazyLoads: [LazyLoadPath: LazyLoads] { tallies.mapValues(\.settled) }

    // MARK: Statements

    /// Every statement shape: facts, executions, rows, full-scan steps,
    /// sorts, time, the first call site. A producer with its own table of
    /// shapes (the recorder) sets it when it takes a snapshot; otherwise
    /// the events added are added up here.
    public var statements: [StatementAggregate] {
        get { ownStatements.map { shapes in shapeOrder.compactMap { shapes[$0] } } ?? givenStatements }
        set {
            givenStatements = newValue
            ownStatements = nil
        }
    }
    private var givenStatements: [StatementAggregate] = []
    private var ownStatements: [String: StatementAggregate]?
    private var shapeOrder: [String] = []
    /// Whether ``statements``' full-scan steps and sorts were counted (a
    /// run, Faultline's log); false where the source does not say them (a
    /// Core Data log: its query plans say whether a statement scans or sorts).
    public var scanStepsKnown = true

    // MARK: Repetitions

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
    /// Numbers for texts of events that came without one (built by hand).
    private var textIDs: [String: Int] = [:]
    public private(set) var uncountedExecutions = 0

    // MARK: Saves, reads, prefetches

    /// Saves of one or two objects, by context.
    public private(set) var smallSaves: [String: SmallSaves] = [:]
    /// Entities of which some object fault fired.
    public private(set) var faultedEntities: Set<String> = []
    /// Entities some fetch returned as objects with their values.
    public private(set) var fetchedWithValues: Set<String> = []
    public private(set) var prefetchUsage: [String: PrefetchTotals] = [:]
    private var lastFaultedEntity = ""

    /// - Parameter aggregatingStatements: add the statements up here
    ///   (false for a producer that keeps its own table of shapes and sets
    ///   ``statements``).
    public init(aggregatingStatements: Bool = true) {
        ownStatements = aggregatingStatements ? [:] : nil
    }

    /// The evidence of a list of events.
    public init(_ events: [Event]) {
        self.init()
        for event in events { add(event) }
    }

    /// Adds one event.
    public mutating func add(_ event: Event) {
        switch event {
        case .relationshipFault(let e): add(relationshipFault: e)
        case .fault(let e): add(fault: e)
        case .sql(let e): add(sql: e)
        case .save(let e): add(save: e)
        case .context(let e): add(context: e)
        case .fetch(let e): add(fetch: e)
        case .cacheMiss, .batchRequest, .scenario: return
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

    /// Adds a fault given by its parts: only a fault from the database is
    /// a lazy load, and only its event says where its object came from.
    /// The same evidence as ``add(fault:)``.
    @inline(__always)
    public mutating func addFault(entity: String, source: FaultSource, event: () -> FaultEvent) {
        guard source == .database else { return noteFaulted(entity) }
        add(fault: event())
    }

    /// Adds an object fault.
    public mutating func add(fault e: FaultEvent) {
        guard e.source == .database, let origin = e.origin else { return noteFaulted(e.entity) }
        addLazyLoad(entity: e.entity, origin: origin, stale: e.missReason == .stale, nanoseconds: e.durationNanoseconds) { e.callSite }
    }

    /// Adds an object fault from the database of an object that `origin`
    /// produced: a lazy load (the same evidence as ``add(fault:)``). `read`
    /// is asked for only for the first load of a path.
    public mutating func addLazyLoad(entity: String, origin: FaultOrigin, stale: Bool, nanoseconds: UInt64, read: () -> CallSite) {
        noteFaulted(entity)
        addLoad(origin, destination: entity, relationship: "", read: read, nanoseconds: nanoseconds) { loads in
            if stale { loads.staleReReads += 1 } else { loads.objectFaults += 1 }
            return stale ? nil : false
        }
    }

    /// Adds a relationship fault.
    public mutating func add(relationshipFault e: RelationshipFaultEvent) {
        guard e.source == .database, let origin = e.origin else { return }
        addLoad(origin, destination: e.destinationEntity, relationship: e.relationship, read: { e.callSite }, nanoseconds: e.durationNanoseconds) {
            $0.relationshipFaults += 1
            return true
        }
    }

    /// Adds a lazy load at its origin's path; `update` counts it and says
    /// whether it counts toward the N+1 pattern as a relationship fault
    /// (true) or an object fault (false), or not at all (nil).
    private mutating func addLoad(
        _ origin: FaultOrigin, destination: String, relationship: String, read: () -> CallSite, nanoseconds: UInt64,
        _ update: (inout LazyLoads) -> Bool?
    ) {
        let position: Dictionary<LazyLoadPath, LazyLoadTally>.Index
        if let last = lastPath, let lastPosition, last.fetchSite == origin.fetchSite, last.keyPath == origin.keyPath,
            last.fetchEntity == origin.fetchEntity
        {
            position = lastPosition
        } else {
            let path = LazyLoadPath(origin)
            if tallies[path] == nil { tallies[path] = LazyLoadTally(destinationEntity: destination, firstRead: read()) }
            position = tallies.index(forKey: path)!
            // Valid until another path is added, which sets it again.
            (lastPath, lastPosition) = (path, position)
        }
        // A log that names no relationship's destination (Core Data's:
        // `(comments)`) learns it from the destinations' faults.
        if tallies.values[position].loads.destinationEntity.hasPrefix("("), !destination.hasPrefix("(") {
            tallies.values[position].loads.destinationEntity = destination
        }
        if !relationship.isEmpty { tallies.values[position].loads.relationship = relationship }
        tallies.values[position].loads.nanoseconds &+= nanoseconds
        if let isRelationship = update(&tallies.values[position].loads) {
            tallies.values[position].count(execution: origin.execution, relationship: isRelationship)
        }
    }

    /// Adds a save: only saves of one or two objects are evidence.
    public mutating func add(save e: SaveEvent) {
        let objects = e.inserted.addingSaturated(e.updated).addingSaturated(e.deleted)
        guard objects <= 2 else { return }
        smallSaves[e.context, default: SmallSaves(first: e)].add(objects: objects)
    }

    /// Adds a fetch: objects that come back with their values are there to be read.
    public mutating func add(fetch e: FetchEvent) {
        if e.resultType == "objects", !e.returnsObjectsAsFaults, e.resultCount > 0 { fetchedWithValues.insert(e.entity) }
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
    public static func isRead(_ sql: String) -> Bool {
        var bytes = sql.utf8.makeIterator()
        let first = (bytes.next() ?? 0) | 0x20
        let second = (bytes.next() ?? 0) | 0x20
        if first == UInt8(ascii: "w") { return second == UInt8(ascii: "i") }
        return first == UInt8(ascii: "s") && second == UInt8(ascii: "e") && (bytes.next() ?? 0) | 0x20 == UInt8(ascii: "l")
    }

    /// Adds a context change: only prefetch usage is evidence.
    public mutating func add(context e: ContextEvent) {
        guard let usage = e.prefetchUsage else { return }
        let current = prefetchUsage[usage.relationship]
            ?? PrefetchTotals(prefetched: 0, read: 0, context: e.context, callSite: usage.callSite.description)
        prefetchUsage[usage.relationship] = PrefetchTotals(
            prefetched: current.prefetched.addingSaturated(usage.prefetched), read: current.read.addingSaturated(usage.read),
            context: current.context,
            callSite: current.callSite)
    }

    /// Adds a statement. `countingRepetitions` false leaves it out of
    /// ``repetitions`` (a log that does not show its bound values).
    public mutating func add(sql e: SQLEvent, countingRepetitions: Bool = true) {
        if ownStatements != nil { aggregate(e) }
        guard countingRepetitions, e.purpose != SQLEvent.transactionPurpose else { return }
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

    /// Adds a statement to the shapes kept here.
    private mutating func aggregate(_ e: SQLEvent) {
        if ownStatements![e.shape] == nil {
            ownStatements![e.shape] = StatementAggregate(shape: e.shape, purpose: e.purpose, firstCallSite: e.callSite, facts: e.facts)
            shapeOrder.append(e.shape)
        }
        ownStatements![e.shape]!.add(e)
    }

    /// A number for a text, negative so as not to meet interned ones.
    private mutating func textID(of sql: String) -> Int {
        if let id = textIDs[sql] { return id }
        let id = -1 - textIDs.count
        textIDs[sql] = id
        return id
    }
}

/// One statement text's executions per list of bound values. The empty
/// list (every execution, for a recorder that does not track values) is
/// kept beside the table: no empty array hashed per execution.
struct TextRepetitions: Sendable {
    var sql: String
    /// Found once per text (``InsightEvidence/isRead(_:)``): a write's
    /// executions are not counted.
    var isRead: Bool
    var withoutArguments: InsightEvidence.Repetition?
    var lists: [[String]: InsightEvidence.Repetition] = [:]

    init(sql: String, isRead: Bool) {
        self.sql = sql
        self.isRead = isRead
    }

    var listCount: Int { lists.count + (withoutArguments == nil ? 0 : 1) }

    var allLists: [[String]: InsightEvidence.Repetition] {
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
            withoutArguments = InsightEvidence.Repetition(count: 1, first: e)
        } else {
            lists[e.arguments] = InsightEvidence.Repetition(count: 1, first: e)
        }
        return true
    }
}
