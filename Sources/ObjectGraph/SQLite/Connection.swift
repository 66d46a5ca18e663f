import CSQLite
import Foundation
import Probes

/// One SQLite connection: a thin wrapper over `sqlite3*` with a statement
/// cache and a hook that sees every executed statement.
///
/// Not thread-safe by itself (it is opened with `SQLITE_OPEN_NOMUTEX`): the
/// store hands each connection to one thread at a time.
public final class Connection {
    /// Where a connection's database lives.
    public enum Location: Sendable, Equatable {
        /// A database file, created when missing.
        case file(String)
        /// A private in-memory database, gone when the connection closes.
        case memory
    }

    /// How a connection is opened.
    public struct Options: Sendable {
        /// WAL journal (files only). On by default: readers and one writer
        /// then work at the same time.
        public var walMode = true
        /// `PRAGMA synchronous`: `NORMAL` by default, which in WAL mode is
        /// durable across application crashes and costs far less per commit
        /// than `FULL`.
        public var synchronous: Synchronous = .normal
        /// How long a statement waits for a lock before `SQLITE_BUSY`.
        public var busyTimeoutMilliseconds: Int32 = 5_000
        /// Page cache size in KiB (`PRAGMA cache_size = -N`); nil keeps
        /// SQLite's default (2 MB).
        public var cacheSizeKiB: Int?
        /// Open read-only.
        public var readOnly = false

        /// The default options: WAL, `synchronous = NORMAL`, a 5-second busy
        /// timeout, SQLite's default cache, read-write.
        public init() {}
    }

    /// `PRAGMA synchronous` levels.
    public enum Synchronous: String, Sendable {
        case off = "OFF", normal = "NORMAL", full = "FULL", extra = "EXTRA"
    }

    /// The database file, or `:memory:`.
    public let path: String
    let handle: OpaquePointer

    /// Called after every statement this connection executes, BEGIN and
    /// COMMIT included. Nil costs nothing. Setting it replaces any hook a
    /// store installed on the connection.
    public var statementHook: StatementHook? {
        didSet {
            executionHook = statementHook.map { hook in { statement, arguments, figures in hook(ExecutedStatement(statement, arguments, figures)) } }
        }
    }

    /// What every execution is reported to: ``statementHook``, or the
    /// engine's instrumentation (a store's connections), which is lent the
    /// statement and its values instead of an ``ExecutedStatement``.
    var executionHook: ExecutionHook?

    /// Testing aid: called before each execution with the SQL; a thrown
    /// error fails that statement as if SQLite had failed it.
    var failureInjection: ((String) throws -> Void)?

    private var cache: [SQLText: Statement] = [:]
    /// The cache's front, for the texts the engine runs again and again.
    private var recent = RecentStatements()

    /// Opens a connection to the database at `location`, creating a missing
    /// file unless `options` says read-only, and applies the options (WAL for
    /// a writable file, `synchronous`, the cache size).
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a
    ///   database (its schema is read at open), or a pragma fails.
    public init(_ location: Location, options: Options = Options()) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        flags |= options.readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let path: String
        switch location {
        case .file(let file): path = file
        case .memory: path = ":memory:"
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            Self.close(handle)
            throw SQLiteError(extendedResultCode: code, message: message, path: path)
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, options.busyTimeoutMilliseconds)
        // Reading the schema here turns "not a database" and "corrupt"
        // into an error at open time instead of at the first query. Every
        // property is set: when one of these throws, `deinit` runs and
        // closes the handle (closing it here too would close it twice).
        try executeUntraced("SELECT count(*) FROM sqlite_schema")
        if case .file = location, options.walMode, !options.readOnly {
            try executeUntraced("PRAGMA journal_mode = WAL")
        }
        try executeUntraced("PRAGMA synchronous = \(options.synchronous.rawValue)")
        if let kib = options.cacheSizeKiB {
            try executeUntraced("PRAGMA cache_size = -\(max(1, kib))")
        }
    }

    deinit {
        recent.removeAll()
        cache.removeAll()
        Self.close(handle)
    }

    /// Closes a handle while no image list is being captured: closing the
    /// last connection to a WAL database unmaps its shared-memory file,
    /// which a capture must not be reading then (``FileMappings``).
    private static func close(_ handle: OpaquePointer?) {
        FileMappings.holdingStill { _ = sqlite3_close_v2(handle) }
    }

    // MARK: Statements

    /// A prepared statement for `sql`, from the cache when it was prepared
    /// before on this connection.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = recent.statement(for: sql) { return statement }
        return try cachedStatementByText(sql)
    }

    /// The cache's dictionary, by the text's bytes (``SQLText``); fills
    /// the front.
    @inline(never)
    private func cachedStatementByText(_ sql: String) throws -> Statement {
        if let statement = cache[SQLText(sql)] {
            recent.keep(statement, for: sql)
            return statement
        }
        let statement = try Statement(connection: self, sql: sql)
        cache[SQLText(sql)] = statement
        recent.keep(statement, for: sql)
        return statement
    }

    /// Number of prepared statements in the cache.
    public var cachedStatementCount: Int { cache.count }

    /// Runs a statement that returns rows, calling `body` for each row.
    /// The row is only valid during the call.
    public func query(_ sql: String, _ arguments: [DatabaseValue] = [], row body: (Row) throws -> Void) throws {
        try execute(cachedStatement(sql), arguments, row: body)
    }

    /// Runs a statement to its end and returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> Int {
        try execute(cachedStatement(sql), arguments) { _ in }
    }

    /// Executes a prepared statement of this connection: binds, steps to the
    /// end, reports to the hook, resets. Returns rows changed.
    @discardableResult
    public func execute(_ statement: Statement, _ arguments: [DatabaseValue], row body: (Row) throws -> Void) throws -> Int {
        precondition(statement.connection === self, "statement belongs to another connection")
        let handle = statement.handle
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        if let failureInjection { try failureInjection(statement.sql) }
        try statement.bind(arguments)
        let changesBefore = statement.isReadOnly ? 0 : sqlite3_total_changes64(self.handle)
        let start = executionHook == nil ? 0 : ProbeClock.now()
        var rows = 0
        var code: Int32
        let row = Row(statement: statement)
        while true {
            code = sqlite3_step(handle)
            guard code == SQLITE_ROW else { break }
            rows += 1
            try body(row)
        }
        guard code == SQLITE_DONE else {
            let error = self.error(code: code, sql: statement.sql)
            report(statement, arguments, start: start, rows: rows, changed: 0)
            throw error
        }
        // total_changes, unlike changes, is not left over from an earlier
        // statement (BEGIN and COMMIT change nothing) and counts trigger rows.
        let changed = statement.isReadOnly ? 0 : Int(sqlite3_total_changes64(self.handle) - changesBefore)
        report(statement, arguments, start: start, rows: rows, changed: changed)
        return changed
    }

    @inline(__always)
    private func report(_ statement: Statement, _ arguments: [DatabaseValue], start: UInt64, rows: Int, changed: Int) {
        guard let executionHook else { return }
        let duration = ProbeClock.nanoseconds(since: start)
        let handle = statement.handle
        executionHook(statement, arguments, ExecutionFigures(
            durationNanoseconds: duration,
            rowsReturned: rows,
            rowsChanged: changed,
            fullScanSteps: Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1)),
            sorts: Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_SORT, 1)),
            autoIndexes: Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_AUTOINDEX, 1)),
            vmSteps: Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, 1)),
            start: start))
    }

    /// Runs SQL (possibly several statements) without preparing it for the
    /// cache and without reporting it: schema set-up and pragmas.
    public func executeUntraced(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(extendedResultCode: sqlite3_extended_errcode(handle), message: text, sql: sql, path: path)
        }
    }

    /// Makes the statement running now (and the next ones until it
    /// returns) fail with `SQLITE_INTERRUPT`. Safe from any thread.
    public func interrupt() {
        sqlite3_interrupt(handle)
    }

    // MARK: Transactions

    /// Whether a transaction is open (`sqlite3_get_autocommit` is 0).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// `BEGIN DEFERRED` (a read transaction until the first write).
    public func beginDeferred() throws { try run("BEGIN DEFERRED") }
    /// `BEGIN IMMEDIATE` (takes the write lock now).
    public func beginImmediate() throws { try run("BEGIN IMMEDIATE") }
    /// `COMMIT`.
    public func commit() throws { try run("COMMIT") }

    /// Rolls back if a transaction is open. Never throws: a failed rollback
    /// means SQLite already rolled back.
    public func rollbackIfNeeded() {
        guard isInTransaction else { return }
        _ = try? run("ROLLBACK")
    }

    // MARK: Errors

    func error(code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        let primary = code & 0xFF
        return SQLiteError(
            extendedResultCode: (extended & 0xFF) == primary ? extended : code,
            message: String(cString: sqlite3_errmsg(handle)),
            sql: sql, path: path)
    }

    /// SQLite's `EXPLAIN QUERY PLAN` for a statement, one string per plan
    /// row, indented two spaces per level. Runs untraced (it is not one of
    /// the application's statements); parameters are left unbound.
    public func explainQueryPlan(_ sql: String) -> [String] {
        var handle: OpaquePointer?
        guard sqlite3_prepare_v2(self.handle, "EXPLAIN QUERY PLAN " + sql, -1, &handle, nil) == SQLITE_OK, let handle else {
            return []
        }
        defer { sqlite3_finalize(handle) }
        var depth: [Int32: Int] = [0: -1]
        var rows: [String] = []
        while sqlite3_step(handle) == SQLITE_ROW {
            let id = sqlite3_column_int(handle, 0)
            let parent = sqlite3_column_int(handle, 1)
            let level = (depth[parent] ?? -1) + 1
            depth[id] = level
            let detail = sqlite3_column_text(handle, 3).map { String(cString: $0) } ?? ""
            rows.append(String(repeating: "  ", count: level) + detail)
        }
        return rows
    }

    /// The SQLite library version (`sqlite3_libversion`).
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// Nanoseconds on the monotonic clock's scale: ``ProbeClock/now()``,
    /// the clock of every event's `start` and duration.
    @available(*, deprecated, renamed: "ProbeClock.now()", message: "the events' clock is ProbeClock (Probes)")
    @inline(__always)
    public static func monotonicNanoseconds() -> UInt64 { ProbeClock.now() }
}
