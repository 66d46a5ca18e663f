/// One statement executed on SQLite, BEGIN and COMMIT included.
public struct SQLEvent: Sendable {
    /// When the first step began, in monotonic nanoseconds (``ProbeClock/now()``).
    public var start: UInt64
    /// Time from the first step to the last.
    public var durationNanoseconds: UInt64
    /// The Linux thread ID of the thread it ran on.
    public var thread: Int32
    /// The statement as prepared.
    public var sql: String
    /// Its shape (``SQLShape``), computed once per prepared statement.
    public var shape: String
    /// A number for the shape, the same for every statement of that shape
    /// in this process (``SQLShape/intern(_:)``).
    public var shapeID: Int
    /// A number for the exact text (``SQLShape/internText(_:)``), or nil
    /// when the producer did not intern it.
    public var textID: Int?
    /// Bound values in SQL literal syntax, in parameter order.
    public var arguments: [String]
    /// Rows SQLite returned.
    public var rowsReturned: Int
    /// Rows inserted, updated or deleted; 0 for reads.
    public var rowsChanged: Int
    /// Steps through whole tables (`SQLITE_STMTSTATUS_FULLSCAN_STEP`).
    public var fullScanSteps: Int
    /// Sorts SQLite ran because no index gave the order
    /// (`SQLITE_STMTSTATUS_SORT`).
    public var sorts: Int
    /// Rows put in indexes SQLite built for this execution
    /// (`SQLITE_STMTSTATUS_AUTOINDEX`).
    public var autoIndexes: Int
    /// Virtual machine steps (`SQLITE_STMTSTATUS_VM_STEP`): the statement's
    /// work, whatever its duration.
    public var vmSteps: Int
    /// Why the engine ran it: `fetch`, `fault`, `relationship fault`,
    /// `prefetch`, `batch page`, `count`, `save`, `batch`, `transaction`.
    public var purpose: String
    /// The purpose of the BEGIN and COMMIT statements the store runs itself.
    public static let transactionPurpose = "transaction"
    /// The purpose of a statement whose source says none (a Core Data log's).
    public static let unknownPurpose = "statement"
    /// `EXPLAIN QUERY PLAN` rows (`SCAN Person`), when a sink asked for plans
    /// and this is the first execution of its shape.
    public var queryPlan: [String]?
    /// The line the statement is attributed to: the call site of the work
    /// that ran it.
    public var callSite: CallSite
    /// What the engine knows of the statement it generated (its entity,
    /// filtered and sorted attributes); nil for statements without such
    /// facts (transactions, writes, key lookups).
    public var facts: StatementFacts?

    /// An SQL event with these fields; `textID` and `facts` are optional.
    public init(
        start: UInt64, durationNanoseconds: UInt64, thread: Int32, sql: String, shape: String, shapeID: Int, arguments: [String],
        rowsReturned: Int, rowsChanged: Int, fullScanSteps: Int, sorts: Int, autoIndexes: Int, vmSteps: Int, purpose: String,
        queryPlan: [String]?, callSite: CallSite, textID: Int? = nil, facts: StatementFacts? = nil
    ) {
        self.facts = facts
        self.textID = textID
        self.start = start
        self.durationNanoseconds = durationNanoseconds
        self.thread = thread
        self.sql = sql
        self.shape = shape
        self.shapeID = shapeID
        self.arguments = arguments
        self.rowsReturned = rowsReturned
        self.rowsChanged = rowsChanged
        self.fullScanSteps = fullScanSteps
        self.sorts = sorts
        self.autoIndexes = autoIndexes
        self.vmSteps = vmSteps
        self.purpose = purpose
        self.queryPlan = queryPlan
        self.callSite = callSite
    }
}
