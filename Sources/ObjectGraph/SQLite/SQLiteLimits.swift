import CSQLite

/// Limits of the SQLite library the engine runs on, read once.
public enum SQLiteLimits {
    /// The most columns a table or a SELECT may have
    /// (`sqlite3_limit(…, SQLITE_LIMIT_COLUMN, -1)`: 2000 unless SQLite was
    /// built with another `SQLITE_MAX_COLUMN`), read from a new in-memory
    /// connection; 2000, SQLite's documented default, if none opens.
    public static let columns: Int = {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else { return 2000 }
        let limit = Int(sqlite3_limit(db, SQLITE_LIMIT_COLUMN, -1))
        return limit > 0 ? limit : 2000
    }()
}
