/// What the statements of one shape did in a run.
public struct StatementAggregate: Codable, Equatable, Sendable {
    public var shape: String
    /// Why the engine ran the first statement of this shape (`fault`, `prefetch Selfie.people`, …).
    public var purpose: String
    public var count = 0
    public var totalNanoseconds: UInt64 = 0
    public var maxNanoseconds: UInt64 = 0
    public var rowsReturned = 0
    public var rowsChanged = 0
    public var fullScanSteps = 0
    public var sorts = 0
    public var autoIndexes = 0
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

    public static let distinctLimit = 64

    public init(shape: String, purpose: String, firstCallSite: CallSite, facts: StatementFacts? = nil) {
        self.shape = shape
        self.purpose = purpose
        self.firstCallSite = firstCallSite
        self.facts = facts
    }

    /// Adds an execution given by its figures (no query plan).
    public mutating func add(_ parts: StatementParts) {
        count += 1
        totalNanoseconds &+= parts.durationNanoseconds
        maxNanoseconds = max(maxNanoseconds, parts.durationNanoseconds)
        // Figures a SQL debug log gives can be anything up to Int.max: they saturate.
        rowsReturned.addSaturated(parts.rowsReturned)
        rowsChanged.addSaturated(parts.rowsChanged)
        fullScanSteps.addSaturated(parts.fullScanSteps)
        sorts.addSaturated(parts.sorts)
        autoIndexes.addSaturated(parts.autoIndexes)
        vmSteps.addSaturated(parts.vmSteps)
    }

    public mutating func add(_ event: SQLEvent) {
        add(StatementParts(event))
        if queryPlan == nil, let plan = event.queryPlan { queryPlan = plan }
        if facts == nil, let facts = event.facts { self.facts = facts }
    }
}
