/// What the statements of one shape did in a run.
public struct StatementAggregate: Codable, Equatable, Sendable {
    /// The shape (``SQLShape``) the statements share.
    public var shape: String
    /// Why the engine ran the first statement of this shape (`fault`, `prefetch Selfie.people`, …).
    public var purpose: String
    /// Executions.
    public var count = 0
    /// Their time, together.
    public var totalNanoseconds: UInt64 = 0
    /// The longest execution's time.
    public var maxNanoseconds: UInt64 = 0
    /// Rows returned, together.
    public var rowsReturned = 0
    /// Rows inserted, updated or deleted, together.
    public var rowsChanged = 0
    /// SQLite's full-scan steps, together.
    public var fullScanSteps = 0
    /// Sorts SQLite ran, together.
    public var sorts = 0
    /// Rows put in automatic indexes, together.
    public var autoIndexes = 0
    /// Virtual machine steps, together.
    public var vmSteps = 0
    /// The call site of the first statement of this shape.
    public var firstCallSite: CallSite
    /// The query plan, when one was recorded.
    public var queryPlan: [String]?
    /// The number of distinct argument lists seen, up to ``distinctLimit``
    /// (tells repeated identical statements from similar ones).
    public var distinctArgumentLists = 0
    /// What the engine knows of the statement (``SQLEvent/facts``), or a
    /// log reader derived from its text.
    public var facts: StatementFacts?
    /// The text of the first statement of this shape, as SQLite ran it
    /// (values bound, none spliced): what a plan is asked of afterwards,
    /// since a shape folds `IN` lists. The recorder keeps it; nil elsewhere.
    public var firstText: String?
    /// Every execution's time, when the aggregate keeps them (the
    /// recorder's do, for percentiles per shape; a log's do not): one
    /// addition per execution (``DurationHistogram``). Not encoded.
    public var durations: DurationHistogram?

    /// The most distinct argument lists counted per shape.
    public static let distinctLimit = 64

    /// An aggregate of no execution yet: add each with `add`.
    public init(shape: String, purpose: String, firstCallSite: CallSite, facts: StatementFacts? = nil) {
        self.shape = shape
        self.purpose = purpose
        self.firstCallSite = firstCallSite
        self.facts = facts
    }

    /// An aggregate of no execution yet that keeps the first statement's
    /// text and every execution's time (the recorder's).
    public init(shape: String, purpose: String, firstCallSite: CallSite, facts: StatementFacts?, firstText: String) {
        self.init(shape: shape, purpose: purpose, firstCallSite: firstCallSite, facts: facts)
        self.firstText = firstText
        durations = DurationHistogram()
    }

    private enum CodingKeys: String, CodingKey {
        case shape, purpose, count, totalNanoseconds, maxNanoseconds, rowsReturned, rowsChanged, fullScanSteps, sorts, autoIndexes
        case vmSteps, firstCallSite, queryPlan, distinctArgumentLists, facts, firstText
    }

    /// Adds an execution given by its figures (no query plan).
    public mutating func add(_ parts: StatementParts) {
        count += 1
        totalNanoseconds &+= parts.durationNanoseconds
        maxNanoseconds = max(maxNanoseconds, parts.durationNanoseconds)
        durations?.record(parts.durationNanoseconds)
        // Figures a SQL debug log gives can be anything up to Int.max: they saturate.
        rowsReturned.addSaturated(parts.rowsReturned)
        rowsChanged.addSaturated(parts.rowsChanged)
        fullScanSteps.addSaturated(parts.fullScanSteps)
        sorts.addSaturated(parts.sorts)
        autoIndexes.addSaturated(parts.autoIndexes)
        vmSteps.addSaturated(parts.vmSteps)
    }

    /// Adds an execution of these figures, its others 0: what ``add(_:)``
    /// adds of such parts, without making them (a SQL debug log's
    /// statement, whose figures are these at most).
    public mutating func add(durationNanoseconds: UInt64, rowsReturned: Int, fullScanSteps: Int, sorts: Int) {
        count += 1
        totalNanoseconds &+= durationNanoseconds
        maxNanoseconds = max(maxNanoseconds, durationNanoseconds)
        durations?.record(durationNanoseconds)
        self.rowsReturned.addSaturated(rowsReturned)
        self.fullScanSteps.addSaturated(fullScanSteps)
        self.sorts.addSaturated(sorts)
    }

    /// Adds an execution given by its event; its query plan and facts are
    /// kept when the aggregate has none yet.
    public mutating func add(_ event: SQLEvent) {
        add(StatementParts(event))
        if queryPlan == nil, let plan = event.queryPlan { queryPlan = plan }
        if facts == nil, let facts = event.facts { self.facts = facts }
    }
}
