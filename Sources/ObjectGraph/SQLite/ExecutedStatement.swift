/// What one execution of a prepared statement did, as the statement hook
/// sees it once the statement has run to its end (or was reset early): a
/// value, as GRDB's `Database.trace` reports one. Why the engine ran it and
/// for which call site are the engine's business, not SQLite's: the engine
/// knows them from the connection it ran the statement on.
///
/// Durations come from the monotonic clock: SQLite's own profile trace has
/// only millisecond resolution in common builds.
public struct ExecutedStatement {
    /// The prepared statement; its `annotation` slot lets an observer keep
    /// work done once per prepared statement (such as the statement's shape).
    public let statement: Statement
    /// The values bound for this execution, in parameter order.
    public let arguments: [DatabaseValue]
    /// What the execution measured.
    let figures: ExecutionFigures
    /// The connection's database file (`:memory:` for memory), kept: the
    /// statement does not keep its connection alive.
    public let path: String

    /// Wall time from the first step to the last, in nanoseconds.
    public var durationNanoseconds: UInt64 { figures.durationNanoseconds }
    /// Rows returned by SQLite (`SQLITE_ROW` results).
    public var rowsReturned: Int { figures.rowsReturned }
    /// Rows inserted, updated or deleted (`sqlite3_changes64`); 0 for reads.
    public var rowsChanged: Int { figures.rowsChanged }
    /// `SQLITE_STMTSTATUS_FULLSCAN_STEP` for this execution.
    public var fullScanSteps: Int { figures.fullScanSteps }
    /// `SQLITE_STMTSTATUS_SORT` for this execution.
    public var sorts: Int { figures.sorts }
    /// `SQLITE_STMTSTATUS_AUTOINDEX` for this execution.
    public var autoIndexes: Int { figures.autoIndexes }
    /// `SQLITE_STMTSTATUS_VM_STEP` for this execution.
    public var vmSteps: Int { figures.vmSteps }
    /// When the first step began (monotonic nanoseconds).
    public var start: UInt64 { figures.start }

    /// The statement's SQL text as prepared.
    public var sql: String { statement.sql }

    /// Which connection ran it: equal for the statements of one connection
    /// while it is open (a replay opens one connection per identity).
    public var connectionID: ObjectIdentifier { ObjectIdentifier(statement.connection) }
}

/// Called after every statement a connection executes.
public typealias StatementHook = (ExecutedStatement) -> Void

/// What one execution measured: an ``ExecutedStatement``'s figures without
/// its statement, values and path, which the engine's own hook is lent.
struct ExecutionFigures {
    var durationNanoseconds: UInt64
    var rowsReturned: Int
    var rowsChanged: Int
    var fullScanSteps: Int
    var sorts: Int
    var autoIndexes: Int
    var vmSteps: Int
    var start: UInt64
}

/// The hook a connection calls after every statement: the statement and
/// its bound values lent for the call, the figures by value. A
/// ``StatementHook`` gets them as an ``ExecutedStatement``; the engine's
/// instrumentation takes them as they are, so that a statement costs no
/// retain and release of what an `ExecutedStatement` would hold.
typealias ExecutionHook = (Statement, [DatabaseValue], ExecutionFigures) -> Void

extension ExecutedStatement {
    init(_ statement: Statement, _ arguments: [DatabaseValue], _ figures: ExecutionFigures) {
        self.init(statement: statement, arguments: arguments, figures: figures, path: statement.connection.path)
    }
}
