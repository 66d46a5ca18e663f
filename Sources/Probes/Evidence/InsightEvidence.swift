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
/// - Saves that succeeded, by call site; prefetch usage; fetch usage (what
///   the application read of each fetch site's objects); and which
///   entities were read (faulted, or fetched with values).
public struct InsightEvidence: Sendable {
    /// Executions of one statement text with one list of bound values.
    public struct Repetition: Sendable {
        /// How many times the text ran with these values.
        public var count: Int
        /// The first execution with these values: what the report names
        /// of it (its call site, purpose, shape, entity).
        public var firstExecution: FirstExecution

        /// The first execution with these values, as an event made from
        /// ``firstExecution``: its text, shape and shape number, text
        /// number, bound values, purpose, call site, facts, start,
        /// duration and thread. Its other figures (rows, full-scan steps,
        /// sorts, automatic indexes, VM steps) are 0 and its query plan
        /// nil: the evidence no longer keeps a whole event per list of
        /// values (the statement's aggregate has the figures and plan).
        @available(*, deprecated, renamed: "firstExecution", message: "the evidence keeps what the report needs of a first execution (firstExecution); this event has 0 for its rows and statement counters, and no query plan")
        public var first: SQLEvent {
            get { firstExecution.event }
            set { firstExecution = FirstExecution(newValue) }
        }

        init(count: Int, firstExecution: FirstExecution) {
            self.count = count
            self.firstExecution = firstExecution
        }
    }

    /// What the evidence keeps of the first execution of a statement text
    /// with one list of bound values.
    public struct FirstExecution: Sendable, Equatable {
        /// ``SQLEvent/sql``.
        public var sql: String
        /// ``SQLEvent/arguments``.
        public var arguments: [String]
        /// ``SQLEvent/shape``.
        public var shape: String
        /// ``SQLEvent/purpose``.
        public var purpose: String
        /// ``SQLEvent/callSite``.
        public var callSite: CallSite
        /// ``SQLEvent/facts``.
        public var facts: StatementFacts?
        /// ``SQLEvent/start``.
        public var start: UInt64
        /// ``SQLEvent/durationNanoseconds``.
        public var durationNanoseconds: UInt64
        /// ``SQLEvent/shapeID``.
        public var shapeID: Int
        /// ``SQLEvent/textID``.
        public var textID: Int?
        /// ``SQLEvent/thread``.
        public var thread: Int32

        /// What is kept of an execution, given field by field; `facts` and
        /// the fields after it default to nil or 0.
        public init(
            sql: String, arguments: [String], shape: String, purpose: String, callSite: CallSite, facts: StatementFacts? = nil,
            start: UInt64 = 0, durationNanoseconds: UInt64 = 0, shapeID: Int = 0, textID: Int? = nil, thread: Int32 = 0
        ) {
            self.sql = sql
            self.arguments = arguments
            self.shape = shape
            self.purpose = purpose
            self.callSite = callSite
            self.facts = facts
            self.start = start
            self.durationNanoseconds = durationNanoseconds
            self.shapeID = shapeID
            self.textID = textID
            self.thread = thread
        }

        /// What is kept of an event.
        public init(_ e: SQLEvent) {
            self.init(
                sql: e.sql, arguments: e.arguments, shape: e.shape, purpose: e.purpose, callSite: e.callSite, facts: e.facts,
                start: e.start, durationNanoseconds: e.durationNanoseconds, shapeID: e.shapeID, textID: e.textID, thread: e.thread)
        }

        /// An event of what is kept: 0 for the figures not kept, no plan.
        public var event: SQLEvent {
            SQLEvent(
                start: start, durationNanoseconds: durationNanoseconds, thread: thread, sql: sql, shape: shape, shapeID: shapeID,
                arguments: arguments, rowsReturned: 0, rowsChanged: 0, fullScanSteps: 0, sorts: 0, autoIndexes: 0, vmSteps: 0,
                purpose: purpose, queryPlan: nil, callSite: callSite, textID: textID, facts: facts)
        }
    }

    /// The saves that succeeded from one call site.
    public struct SiteSaves: Sendable {
        /// How many saves succeeded there.
        public var count = 0
        /// The objects those saves inserted, updated and deleted, together.
        public var objects = 0
        /// The first of them.
        public var first: SaveEvent

        mutating func add(objects: Int) {
            count = count.addingSaturated(1)
            self.objects = self.objects.addingSaturated(objects)
        }
    }

    /// Saves of one or two objects in one context.
    public struct SmallSaves: Sendable {
        /// How many such saves the context made.
        public var count = 0
        /// The objects those saves inserted, updated and deleted, together.
        public var objects = 0
        /// The first such save.
        public var first: SaveEvent

        mutating func add(objects: Int) {
            count += 1
            self.objects += objects
        }
    }

    /// A prefetched relationship (`Entity.relationship`) at the site that
    /// asked for it (`Module/File.swift:12`).
    public struct PrefetchSite: Sendable, Hashable, Comparable {
        public var relationship: String
        public var callSite: String

        public init(relationship: String, callSite: String) {
            self.relationship = relationship
            self.callSite = callSite
        }

        public static func < (lhs: PrefetchSite, rhs: PrefetchSite) -> Bool {
            (lhs.relationship, lhs.callSite) < (rhs.relationship, rhs.callSite)
        }
    }

    /// What became of one prefetched relationship, over the run.
    public struct PrefetchTotals: Sendable, Equatable {
        /// The objects it was prefetched for, summed over the run.
        public var prefetched: Int
        /// How many of those then read it.
        public var read: Int
        /// The first context that reported its usage.
        public var context: String
        /// Where its first reported prefetch was asked for (`File.swift:12`).
        public var callSite: String
    }

    /// The most lists of bound values counted per statement text; executions
    /// with a further list add to ``uncountedExecutions`` instead.
    public static let distinctArgumentListsPerStatement = 4_096

    // MARK: Lazy loads

    private var tallies: [LazyLoadPath: LazyLoadTally] = [:]
    /// The paths of the last lazy loads and their places in `tallies`:
    /// loads come in runs of one path, or take turns among a few (a loop
    /// that reads two relationships of each object), so comparing with
    /// them spares hashing three strings per load. Valid until a path is
    /// added, which empties it.
    private var recentPaths: [(path: LazyLoadPath, position: Dictionary<LazyLoadPath, LazyLoadTally>.Index)] = []
    /// The entry of `recentPaths` replaced next.
    private var nextRecentPath = 0
    private static let recentPathLimit = 4

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
    /// The same, by the text's interned number: an array read per
    /// execution instead of a hash of the statement's text.
    private var repetitionsByText = InternedNumberTable<TextRepetitions>()
    /// Numbers for texts of events that came without one (built by hand).
    private var textIDs: [String: Int] = [:]
    /// Executions left out of ``repetitions`` because their text had
    /// ``distinctArgumentListsPerStatement`` lists of values already.
    public private(set) var uncountedExecutions = 0

    // MARK: Statements by call site

    private var sites = SiteTallies()
    /// Whether the evidence may span repeats of the same work (a log that
    /// does not mark a run's iterations: an application's, Core Data's): a
    /// statement per screen or per iteration then adds up to a loop that is
    /// none, and the query-in-a-loop rule counts runs of a statement
    /// (``SiteExecutions/longestRun``) instead of its executions.
    public var spansIterations = false
    /// The name a log's own lines carry as call sites (a statement whose
    /// operation names no site is placed at its line of the log): such a
    /// place is not the application's code, and the query-in-a-loop rule
    /// counts the statement as of no known site.
    public var logName: String?
    /// Executions of each statement shape from each call site, whatever
    /// their bound values (the query-in-a-loop rule's evidence).
    public var siteExecutions: [SiteExecutions] {
        sites.entries.sorted { ($0.callSite.file, $0.callSite.line, $0.shape) < ($1.callSite.file, $1.callSite.line, $1.shape) }
    }
    /// Counts an execution of a shape from a call site both seen before,
    /// in place; false (and nothing counted) when the pair is new (its
    /// event says its shape and purpose).
    public mutating func countSiteExecution(shape: Int, site: CallSite, nanoseconds: UInt64) -> Bool {
        sites.countIfKnown(SiteTallies.Key(shape: shape, site: tallied(site)), nanoseconds: nanoseconds)
    }

    /// Where the executions of a shape from a call site are counted, when
    /// the pair was counted before: for a producer that looks once and
    /// counts later (``countSiteExecution(atSlot:nanoseconds:)``).
    public func siteSlot(shape: Int, site: CallSite) -> Int? {
        sites.slot(of: SiteTallies.Key(shape: shape, site: tallied(site)))
    }

    /// Counts an execution at a slot ``siteSlot(shape:site:)`` gave.
    public mutating func countSiteExecution(atSlot slot: Int, nanoseconds: UInt64) {
        sites.count(at: slot, nanoseconds: nanoseconds)
    }

    /// Counts an execution of `shape` from `site` at the slot
    /// ``siteSlot(shape:site:)`` gave for them, and keeps the pair among
    /// the last few looked up, so that the next lookup of a statement a
    /// loop repeats compares them, not a dictionary's hash.
    public mutating func countSiteExecution(atSlot slot: Int, shape: Int, site: CallSite, nanoseconds: UInt64) {
        sites.remember(SiteTallies.Key(shape: shape, site: tallied(site)), slot)
        sites.count(at: slot, nanoseconds: nanoseconds)
    }

    /// The site a statement's executions are counted at: none for a place
    /// in a log (``logName``).
    @inline(__always)
    private func tallied(_ site: CallSite) -> CallSite {
        logName != nil && site.file == logName ? CallSite(noSiteBecause: .notLogged) : site
    }

    // MARK: Names

    /// Names entities as the model names them, where a source named them
    /// otherwise: a Core Data log names a fetch's and a statement's entity
    /// by its table (`ZPOST`); `names` maps tables to entities (`ZPOST`:
    /// `Post`). Lazy loads, statements, site executions, read entities and
    /// prefetch usage are renamed; two tables named alike are added up.
    public mutating func renameEntities(_ names: [String: String]) {
        guard !names.isEmpty else { return }
        func name(_ entity: String) -> String { names[entity] ?? entity }
        var renamed: [LazyLoadPath: LazyLoadTally] = [:]
        for (path, tally) in tallies {
            var path = path
            path.fetchEntity = name(path.fetchEntity)
            var tally = tally
            tally.loads.destinationEntity = name(tally.loads.destinationEntity)
            if renamed[path] == nil { renamed[path] = tally }
        }
        tallies = renamed
        recentPaths.removeAll()
        nextRecentPath = 0
        lastFaultedEntity = ""
        faultedEntities = Set(faultedEntities.map(name))
        fetchedWithValues = Set(fetchedWithValues.map(name))
        func renamedRelationship(_ key: String) -> String {
            let dot = key.firstIndex(of: ".") ?? key.endIndex
            return name(String(key[..<dot])) + key[dot...]
        }
        var usage: [String: PrefetchTotals] = [:]
        for (key, totals) in prefetchUsage { usage[renamedRelationship(key), default: totals] = totals }
        prefetchUsage = usage
        var usageBySite: [PrefetchSite: PrefetchTotals] = [:]
        for (site, totals) in prefetchUsageBySite {
            usageBySite[PrefetchSite(relationship: renamedRelationship(site.relationship), callSite: site.callSite), default: totals] = totals
        }
        prefetchUsageBySite = usageBySite
        func renaming(_ aggregate: StatementAggregate) -> StatementAggregate {
            var aggregate = aggregate
            if let entity = aggregate.facts?.entity { aggregate.facts?.entity = name(entity) }
            return aggregate
        }
        if let own = ownStatements {
            ownStatements = own.mapValues(renaming)
        } else {
            givenStatements = givenStatements.map(renaming)
        }
        sites.renameEntities(name)
    }

    // MARK: Saves, reads, prefetches

    /// The saves that succeeded, by call site.
    public private(set) var saves: [CallSite: SiteSaves] = [:]
    /// Saves of one or two objects that succeeded, by context.
    @available(*, deprecated, message: "the save-in-loop rule reads saves, by call site, whatever the objects per save")
    public var smallSaves: [String: SmallSaves] { smallSavesByContext }
    private var smallSavesByContext: [String: SmallSaves] = [:]
    /// Paths whose lazy loads a fetch said are intended
    /// (``FetchEvent/intendedLazyLoads``): at most ``maximumIntendedLazyLoads``.
    public private(set) var intendedLazyLoads: Set<LazyLoadPath> = []
    /// Entities of which some object fault fired.
    public private(set) var faultedEntities: Set<String> = []
    /// Entities some fetch returned as objects with their values.
    public private(set) var fetchedWithValues: Set<String> = []
    /// What became of each prefetched relationship, by `Entity.relationship`,
    /// over every context that reported it (every site that asked for it).
    public private(set) var prefetchUsage: [String: PrefetchTotals] = [:]
    /// What became of each prefetched relationship at each site that asked
    /// for it (a search that prefetches `Recipe.ingredients` and reads none,
    /// beside a list that prefetches and reads them), over every context
    /// that reported it: what the unused-prefetch rule reads.
    public private(set) var prefetchUsageBySite: [PrefetchSite: PrefetchTotals] = [:]
    /// What became of the objects of each fetch site, over every context
    /// that reported it.
    public private(set) var fetchUsage: [FetchUsage.Site: FetchUsage] = [:]
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
        case .batchRequest, .scenario: return
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

    /// Adds an object fault. One the engine fired for its own bookkeeping
    /// (``FaultEvent/engineWork``) is no read of the application's: neither
    /// a lazy load nor a read of its entity.
    public mutating func add(fault e: FaultEvent) {
        guard e.engineWork == nil else { return }
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

    /// Adds a relationship fault; one the engine fired for its own
    /// bookkeeping (``RelationshipFaultEvent/engineWork``) is no lazy load.
    public mutating func add(relationshipFault e: RelationshipFaultEvent) {
        guard e.source == .database, e.engineWork == nil, let origin = e.origin else { return }
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
        // The statement just counted was this load's: the N+1 rule's.
        sites.explainLast()
        let position = position(of: origin, destination: destination, read: read)
        // In place: reading through `tallies.values[position]` copied the tally.
        tallies.values[position].add(
            destination: destination, relationship: relationship, nanoseconds: nanoseconds, execution: origin.execution, update)
    }

    /// The place in `tallies` of the path of `origin`, added if new.
    private mutating func position(
        of origin: FaultOrigin, destination: String, read: () -> CallSite
    ) -> Dictionary<LazyLoadPath, LazyLoadTally>.Index {
        for index in recentPaths.indices where Self.isPath(recentPaths[index].path, of: origin) { return recentPaths[index].position }
        let path = LazyLoadPath(origin)
        let position: Dictionary<LazyLoadPath, LazyLoadTally>.Index
        if let found = tallies.index(forKey: path) {
            position = found
        } else {
            tallies[path] = LazyLoadTally(destinationEntity: destination, firstRead: read())
            position = tallies.index(forKey: path)!
            recentPaths.removeAll(keepingCapacity: true)
        }
        if recentPaths.count < Self.recentPathLimit {
            recentPaths.append((path, position))
        } else {
            recentPaths[nextRecentPath] = (path, position)
            nextRecentPath = (nextRecentPath + 1) % Self.recentPathLimit
        }
        return position
    }

    /// Whether `path` is the path of `origin` (``LazyLoadPath/init(_:)``),
    /// the line first.
    private static func isPath(_ path: LazyLoadPath, of origin: FaultOrigin) -> Bool {
        path.fetchSite.line == origin.fetchSite.line && path.keyPath == origin.keyPath && path.fetchEntity == origin.fetchEntity
            && path.fetchSite.file == origin.fetchSite.file
    }

    /// Adds a save: only a save that succeeded is evidence (a failed one
    /// wrote nothing).
    public mutating func add(save e: SaveEvent) {
        guard e.success else { return }
        let objects = e.inserted.addingSaturated(e.updated).addingSaturated(e.deleted)
        saves[e.callSite, default: SiteSaves(first: e)].add(objects: objects)
        if objects <= 2 { smallSavesByContext[e.context, default: SmallSaves(first: e)].add(objects: objects) }
    }

    /// Adds a fetch: objects that come back with their values are there to be read.
    public mutating func add(fetch e: FetchEvent) {
        if e.resultType == "objects", !e.returnsObjectsAsFaults, e.resultCount > 0 { fetchedWithValues.insert(e.entity) }
        if !e.intendedLazyLoads.isEmpty { addIntentions(e) }
    }

    /// The most intended lazy loads kept (``intendedLazyLoads``).
    public static let maximumIntendedLazyLoads = 1_024

    /// Notes the key paths a fetch's lazy loads are intended on.
    private mutating func addIntentions(_ e: FetchEvent) {
        for keyPath in e.intendedLazyLoads.split(separator: ",") where intendedLazyLoads.count < Self.maximumIntendedLazyLoads {
            // Key paths hold no spaces: those are the list's.
            let path = String(keyPath.filter { !$0.isWhitespace })
            if !path.isEmpty { intendedLazyLoads.insert(LazyLoadPath(fetchEntity: e.entity, keyPath: path, fetchSite: e.callSite)) }
        }
    }

    /// Counts an execution without bound values of a text seen before, in
    /// place; false (and nothing counted) when it needs its event: a text
    /// not seen yet, or one whose executions so far carried values.
    public mutating func countExecution(text: Int, isTransaction: Bool) -> Bool {
        guard !isTransaction else { return true }
        // A text without an interned number is known by its SQL only.
        guard text >= 0, let position = repetitionsByText.position(of: text) else { return false }
        return repetitionsByText[position].countWithoutArguments()
    }

    /// Counts an execution of a text seen before with these bound values
    /// in place, as ``add(sql:countingRepetitions:)`` would count its event
    /// (a statement that does not read is not counted, one with a new list
    /// of values beyond the bound adds to ``uncountedExecutions``); false
    /// (and nothing counted) when it needs its event: a text not seen yet,
    /// or a list of values to keep. It adds nothing to ``statements``: for
    /// a producer that keeps its own table of shapes.
    public mutating func countExecution(text: Int, arguments: [String], isTransaction: Bool) -> Bool {
        guard !arguments.isEmpty else { return countExecution(text: text, isTransaction: isTransaction) }
        return countExecution(text: text, arguments: ArgumentList(arguments), isTransaction: isTransaction)
    }

    /// The same, the list of values made already (hashed once by a
    /// producer that also needs its hash).
    public mutating func countExecution(text: Int, arguments list: ArgumentList, isTransaction: Bool) -> Bool {
        guard !list.values.isEmpty else { return countExecution(text: text, isTransaction: isTransaction) }
        guard !isTransaction else { return true }
        guard text >= 0, let position = repetitionsByText.position(of: text) else { return false }
        switch repetitionsByText[position].count(list, limit: Self.distinctArgumentListsPerStatement) {
        case .counted: return true
        case .overLimit:
            uncountedExecutions += 1
            return true
        case .new: return false
        }
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

    /// Adds a context change: only prefetch and fetch usage are evidence.
    public mutating func add(context e: ContextEvent) {
        if let usage = e.fetchUsage {
            let site = usage.site
            fetchUsage[site] = fetchUsage[site].map { $0.adding(usage) } ?? usage
        }
        guard let usage = e.prefetchUsage else { return }
        let site = PrefetchSite(relationship: usage.relationship, callSite: usage.callSite.description)
        prefetchUsage[usage.relationship] = Self.adding(usage, e.context, to: prefetchUsage[usage.relationship])
        prefetchUsageBySite[site] = Self.adding(usage, e.context, to: prefetchUsageBySite[site])
    }

    /// `totals` with `usage`, reported by `context`, added (the first
    /// context and site kept).
    private static func adding(_ usage: PrefetchUsage, _ context: String, to totals: PrefetchTotals?) -> PrefetchTotals {
        let current = totals ?? PrefetchTotals(prefetched: 0, read: 0, context: context, callSite: usage.callSite.description)
        return PrefetchTotals(
            prefetched: current.prefetched.addingSaturated(usage.prefetched), read: current.read.addingSaturated(usage.read),
            context: current.context, callSite: current.callSite)
    }

    /// Adds a statement. `countingRepetitions` false leaves it out of
    /// ``repetitions`` (a log that does not show its bound values).
    /// `shapeNumber` is the shape's number where the producer numbers
    /// shapes itself (a log's statements table); otherwise the event's
    /// interned ``SQLEvent/shapeID``, or for an event without one
    /// (``SQLEvent/textID`` nil: built by hand) a number of its shape's text.
    /// `countingSite` false leaves it out of ``siteExecutions`` (counted
    /// there already: ``countSiteExecution(shape:site:nanoseconds:)``).
    public mutating func add(sql e: SQLEvent, countingRepetitions: Bool = true, shapeNumber: Int? = nil, countingSite: Bool = true) {
        add(sql: e, countingRepetitions: countingRepetitions, list: nil, shapeNumber: shapeNumber, countingSite: countingSite)
    }

    /// Adds a statement whose list of values (not empty) a producer made
    /// already (the recorder, which counts distinct lists per shape).
    mutating func add(sql e: SQLEvent, list: ArgumentList) {
        add(sql: e, countingRepetitions: true, list: list, shapeNumber: nil, countingSite: true)
    }

    private mutating func add(sql e: SQLEvent, countingRepetitions: Bool, list: ArgumentList?, shapeNumber: Int?, countingSite: Bool) {
        if ownStatements != nil { aggregate(e) }
        // The engine's own statements (``EngineWork``) are no read of the
        // application's: not counted at a site, nor as a repetition.
        if countingSite, e.purpose != SQLEvent.transactionPurpose, !e.isEngineWork {
            let shape = shapeNumber ?? (e.textID == nil ? sites.number(ofShape: e.shape) : e.shapeID)
            let site = tallied(e.callSite)
            sites.count(SiteTallies.Key(shape: shape, site: site), nanoseconds: e.durationNanoseconds) {
                SiteExecutions(shape: e.shape, purpose: e.purpose, callSite: site, entity: e.facts?.entity, isRead: Self.isRead(e.sql))
            }
        }
        guard countingRepetitions, e.purpose != SQLEvent.transactionPurpose, !e.isEngineWork else { return }
        let text = e.textID ?? textID(of: e.sql)
        // Found by position and updated through it: one lookup per level,
        // in place (a force-unwrapped nested update copied the inner table).
        guard let position = repetitionsByText.position(of: text) else {
            var entry = TextRepetitions(sql: e.sql, isRead: Self.isRead(e.sql), textID: e.textID)
            _ = entry.count(e, list: list, limit: Self.distinctArgumentListsPerStatement)
            repetitionsByText.append(entry, for: text)
            return
        }
        if !repetitionsByText[position].count(e, list: list, limit: Self.distinctArgumentListsPerStatement) {
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

/// One statement text's executions per list of bound values, and what is
/// kept of the first execution with each list: its start, duration and
/// thread, and its call site, purpose, shape and facts, which executions
/// share from one list to the next (a list names the last of
/// ``firsts`` when they are the same, no copy made). The empty list
/// (every execution, for a recorder that does not track values) is kept
/// beside the table: no empty list hashed per execution.
struct TextRepetitions: Sendable {
    var sql: String
    /// Found once per text (``InsightEvidence/isRead(_:)``): a write's
    /// executions are not counted.
    var isRead: Bool
    /// The text's number in its first event (``SQLEvent/textID``).
    var textID: Int?
    var withoutArguments: ListTally?
    var lists: [ArgumentList: ListTally] = [:]
    var firsts: [FirstContext] = []

    /// What the first executions of lists of values share.
    struct FirstContext: Sendable {
        var shape: String
        var shapeID: Int
        var purpose: String
        var callSite: CallSite
        var facts: StatementFacts?

        init(_ e: SQLEvent) {
            (shape, shapeID, purpose, callSite, facts) = (e.shape, e.shapeID, e.purpose, e.callSite, e.facts)
        }

        /// Whether the event's are these (the facts without copies:
        /// ``StatementFacts/same(_:_:)``).
        func matches(_ e: SQLEvent) -> Bool {
            shapeID == e.shapeID && callSite.line == e.callSite.line && shape == e.shape && purpose == e.purpose
                && callSite.file == e.callSite.file && StatementFacts.same(facts, e.facts)
        }
    }

    /// The executions with one list of values, and its first one's figures.
    struct ListTally: Sendable {
        var count: Int
        var start: UInt64
        var durationNanoseconds: UInt64
        var thread: Int32
        /// Its place in ``TextRepetitions/firsts``.
        var first: Int32
    }

    /// What counting an execution came to.
    enum Outcome {
        /// Counted (or not a read, so not to be counted).
        case counted
        /// A new list of values, and the text has as many as it keeps.
        case overLimit
        /// A new list of values, to be added with its event.
        case new
    }

    init(sql: String, isRead: Bool, textID: Int?) {
        self.sql = sql
        self.isRead = isRead
        self.textID = textID
    }

    var listCount: Int { lists.count + (withoutArguments == nil ? 0 : 1) }

    /// The lists and their repetitions, each first execution made whole.
    var allLists: [[String]: InsightEvidence.Repetition] {
        var all: [[String]: InsightEvidence.Repetition] = [:]
        all.reserveCapacity(listCount)
        for (list, tally) in lists { all[list.values] = repetition(tally, arguments: list.values) }
        if let withoutArguments { all[[]] = repetition(withoutArguments, arguments: []) }
        return all
    }

    private func repetition(_ tally: ListTally, arguments: [String]) -> InsightEvidence.Repetition {
        let first = firsts[Int(tally.first)]
        return InsightEvidence.Repetition(
            count: tally.count,
            firstExecution: InsightEvidence.FirstExecution(
                sql: sql, arguments: arguments, shape: first.shape, purpose: first.purpose, callSite: first.callSite, facts: first.facts,
                start: tally.start, durationNanoseconds: tally.durationNanoseconds, shapeID: first.shapeID, textID: textID,
                thread: tally.thread))
    }

    /// Counts an execution without values in place, when one was seen
    /// before (or the text does not read); false otherwise.
    mutating func countWithoutArguments() -> Bool {
        guard isRead else { return true }
        guard withoutArguments != nil else { return false }
        withoutArguments!.count += 1
        return true
    }

    /// Counts an execution with these (non-empty) values in place, when
    /// they were seen before (or the text does not read).
    mutating func count(_ list: ArgumentList, limit: Int) -> Outcome {
        guard isRead else { return .counted }
        if let inner = lists.index(forKey: list) {
            lists.values[inner].count += 1
            return .counted
        }
        return listCount < limit ? .new : .overLimit
    }

    /// Counts an execution in place (its list of values made already,
    /// or not); false when it has a new list of values and the text
    /// already has `limit` lists.
    mutating func count(_ e: SQLEvent, list: ArgumentList? = nil, limit: Int) -> Bool {
        if e.arguments.isEmpty {
            if countWithoutArguments() { return true }
            guard listCount < limit else { return false }
            withoutArguments = tally(e)
            return true
        }
        let list = list ?? ArgumentList(e.arguments)
        switch count(list, limit: limit) {
        case .counted: return true
        case .overLimit: return false
        case .new:
            lists[list] = tally(e)
            return true
        }
    }

    /// The tally of a new list's first execution, `e`.
    private mutating func tally(_ e: SQLEvent) -> ListTally {
        // By index: `firsts.last` copied the context.
        if firsts.isEmpty || !firsts[firsts.count - 1].matches(e) { firsts.append(FirstContext(e)) }
        return ListTally(
            count: 1, start: e.start, durationNanoseconds: e.durationNanoseconds, thread: e.thread, first: Int32(firsts.count - 1))
    }
}
