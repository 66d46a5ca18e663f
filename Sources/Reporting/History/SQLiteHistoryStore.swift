import Foundation

/// The history in a SQLite file: nothing to set up, the file is made on
/// first use (``HistorySchema``).
///
/// Several processes may add at once: the file is in WAL mode, each add is
/// one `BEGIN IMMEDIATE` transaction (writers take turns, readers never
/// wait), and a writer waits up to ``busyTimeout`` seconds for another's
/// turn to end. A run whose identity is kept already is left as it is
/// (`ON CONFLICT DO NOTHING`). WAL needs the file on a local file system
/// (not NFS); a fleet of machines shares a PostgreSQL store instead.
public final class SQLiteHistoryStore: HistoryStore, @unchecked Sendable {
    /// How long a writer waits for another's transaction (seconds).
    public static let busyTimeout = 60.0

    /// The store as errors name it (`--history PATH`).
    public let name: String
    private let connection: SQLiteHistoryConnection
    private let lock = NSLock()
    private let schema = HistorySchema(dialect: .sqlite)

    /// Opens the history at `path`: `creating` it (a missing file, and the
    /// tables in an empty one), or only an existing history. `name` is how
    /// errors name the store.
    public init(path: String, creating: Bool = true, name: String? = nil) throws(HistoryError) {
        let name = name ?? path
        self.name = name
        if !creating, !FileManager.default.fileExists(atPath: path) {
            throw HistoryError("\(name): no such file (perf-run history add creates it)")
        }
        do {
            connection = try SQLiteHistoryConnection(path: path, creating: creating, busyTimeout: Self.busyTimeout)
        } catch {
            throw HistoryError("\(name): cannot open: \(error.message)")
        }
        try prepareSchema(creating: creating)
    }

    /// Checks the schema, and creates it in a file that has none.
    private func prepareSchema(creating: Bool) throws(HistoryError) {
        let tables: [String]
        do {
            // Reading the schema turns "not a database" into an error now.
            tables = try connection.execute("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").compactMap { $0.first ?? nil }
        } catch {
            throw HistoryError("\(name): cannot open: \(error.message)")
        }
        if tables.contains(HistorySchema.schemaTable) {
            try checkVersion()
            return
        }
        let others = tables.filter { !$0.hasPrefix(HistorySchema.tablePrefix) }
        if !others.isEmpty {
            throw HistoryError("\(name): a SQLite database of something else (tables \(others.prefix(5).joined(separator: ", "))): give the history a file of its own")
        }
        guard creating else { throw HistoryError("\(name): holds no history (perf-run history add creates it)") }
        do {
            try retryingWhileBusy { () throws(SQLiteHistoryConnection.Failure) in try connection.execute("PRAGMA journal_mode = WAL") }
            try transaction { () throws(SQLiteHistoryConnection.Failure) in
                for statement in schema.creation.dropLast() { try connection.execute(statement) }
                try connection.execute(schema.creation.last!, HistorySchema.versionRow)
            }
        } catch {
            throw HistoryError("\(name): cannot create the history's tables: \(error.message)")
        }
        try checkVersion()
    }

    private func checkVersion() throws(HistoryError) {
        let rows: [[String?]]
        do {
            rows = try connection.execute(schema.versionQuery, ["history"])
        } catch {
            throw HistoryError("\(name): cannot read the history's schema version: \(error.message)")
        }
        guard let text = rows.first?.first ?? nil, let version = Int(text) else {
            throw HistoryError("\(name): the history has no schema version (\(HistorySchema.schemaTable) is empty)")
        }
        if version > HistorySchema.version {
            throw HistoryError("\(name): the history's schema version \(version) is newer than this tool's (\(HistorySchema.version)): use a newer perf-run")
        }
    }

    @discardableResult
    public func add(_ runs: [HistoryRun]) throws(HistoryError) -> Int {
        guard !runs.isEmpty else { return 0 }
        let rows = try runs.map { run throws(HistoryError) in (run, try HistorySchema.reportJSON(run, store: name)) }
        let added = HistoryTime.text(Date())
        lock.lock()
        defer { lock.unlock() }
        var count = 0
        do {
            try transaction { () throws(SQLiteHistoryConnection.Failure) in
                count = 0
                for (run, json) in rows {
                    try connection.execute(schema.insert, HistorySchema.insertValues(run, reportJSON: json, added: added))
                    count += connection.changes
                }
            }
        } catch {
            throw HistoryError("\(name): cannot add runs: \(error.message)")
        }
        return count
    }

    public func runs(_ query: HistoryQuery) throws(HistoryError) -> [HistoryRun] {
        let (sql, values) = schema.select(query)
        let rows: [[String?]]
        lock.lock()
        defer { lock.unlock() }
        do {
            rows = try connection.execute(sql, values)
        } catch {
            throw HistoryError("\(name): cannot read runs: \(error.message)")
        }
        return try rows.map { row throws(HistoryError) in try HistorySchema.run(row, store: name) }
    }

    /// `body` in one `BEGIN IMMEDIATE` transaction: it takes the write lock
    /// at once (waiting for another writer up to the busy timeout), so two
    /// writers never deadlock upgrading a read. Rolled back on an error.
    private func transaction(_ body: () throws(SQLiteHistoryConnection.Failure) -> Void) throws(SQLiteHistoryConnection.Failure) {
        try retryingWhileBusy { () throws(SQLiteHistoryConnection.Failure) in try connection.execute("BEGIN IMMEDIATE") }
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// `body` again while SQLite says busy without having waited (a
    /// journal-mode change, a lock its busy handler does not cover), for
    /// up to the busy timeout.
    private func retryingWhileBusy(_ body: () throws(SQLiteHistoryConnection.Failure) -> Void) throws(SQLiteHistoryConnection.Failure) {
        let deadline = Date().addingTimeInterval(Self.busyTimeout)
        while true {
            do {
                try body()
                return
            } catch where error.isBusy && Date() < deadline {
                usleep(20_000)
            }
        }
    }
}
