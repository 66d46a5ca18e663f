import Foundation

/// The history in PostgreSQL, for a fleet of runners: every runner adds to
/// one database (``HistorySchema``), through libpq.
///
/// The tables are made on first use, under a transaction-scoped advisory
/// lock (``schemaLock``), so that runners starting at once never fail on
/// each other's `CREATE TABLE`. A run whose identity is kept already is
/// left as it is (`ON CONFLICT DO NOTHING`); each add is one transaction.
public final class PostgreSQLHistoryStore: HistoryStore, @unchecked Sendable {
    /// The advisory lock (a bigint of the database's) taken while the
    /// tables are made: "FLTHIST1" in ASCII.
    public static let schemaLock: Int64 = 0x464C_5448_4953_5431

    /// The store as errors name it (`--history postgresql://user:***@host/db`).
    public let name: String
    private let address: PostgreSQLAddress
    private let connection: PostgreSQLConnection
    private let lock = NSLock()
    private let schema = HistorySchema(dialect: .postgreSQL)

    /// Connects to `address` and checks the history's tables: `creating`
    /// them when missing, or only reading an existing history. `name` is
    /// how errors name the store (never with the password).
    public init(address: PostgreSQLAddress, creating: Bool = true, name: String? = nil) throws(HistoryError) {
        self.address = address
        self.name = name ?? address.description
        do {
            connection = try PostgreSQLConnection(url: address.url)
        } catch {
            throw HistoryError("\(name ?? address.description): cannot connect: \(address.scrub(error.message))")
        }
        try prepareSchema(creating: creating)
    }

    private func prepareSchema(creating: Bool) throws(HistoryError) {
        let exists = try run("cannot read the history's schema") { () throws(PostgreSQLError) in
            try connection.execute("SELECT to_regclass($1) IS NOT NULL", [HistorySchema.schemaTable]).rows.first?.first == "t"
        }
        if !exists {
            guard creating else { throw HistoryError("\(name): holds no history (perf-run history add creates it)") }
            try run("cannot create the history's tables") { () throws(PostgreSQLError) in
                try transaction { () throws(PostgreSQLError) in
                    // Runners starting at once make the tables one at a time.
                    try connection.execute("SELECT pg_advisory_xact_lock($1)", [String(Self.schemaLock)])
                    for statement in schema.creation.dropLast() { try connection.execute(statement) }
                    try connection.execute(schema.creation.last!, HistorySchema.versionRow)
                }
            }
        }
        let rows = try run("cannot read the history's schema version") { () throws(PostgreSQLError) in
            try connection.execute(schema.versionQuery, ["history"]).rows
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
        return try run("cannot add runs") { () throws(PostgreSQLError) -> Int in
            var count = 0
            try transaction { () throws(PostgreSQLError) in
                count = 0
                for (run, json) in rows {
                    count += try connection.execute(schema.insert, HistorySchema.insertValues(run, reportJSON: json, added: added)).affectedRows
                }
            }
            return count
        }
    }

    public func runs(_ query: HistoryQuery) throws(HistoryError) -> [HistoryRun] {
        let (sql, values) = schema.select(query)
        lock.lock()
        defer { lock.unlock() }
        let rows = try run("cannot read runs") { () throws(PostgreSQLError) in try connection.execute(sql, values).rows }
        return try rows.map { row throws(HistoryError) in try HistorySchema.run(row, store: name) }
    }

    /// `body`, its PostgreSQL error as a history error: what was being done
    /// and the server's message (without the password).
    private func run<R>(_ doing: String, _ body: () throws(PostgreSQLError) -> R) throws(HistoryError) -> R {
        do {
            return try body()
        } catch {
            throw HistoryError("\(name): \(doing): \(address.scrub(error.message))")
        }
    }

    /// `body` in one transaction, rolled back on an error.
    private func transaction(_ body: () throws(PostgreSQLError) -> Void) throws(PostgreSQLError) {
        try connection.execute("BEGIN")
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
