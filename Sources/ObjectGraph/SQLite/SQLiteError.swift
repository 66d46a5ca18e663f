import CSQLite

/// An error reported by SQLite, with what is needed to act on it: the result
/// code, SQLite's message, the statement that failed and the database file.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
    public var resultCode: Int32 { extendedResultCode & 0xFF }
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, …).
    public let extendedResultCode: Int32
    /// SQLite's own message (`sqlite3_errmsg`).
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?
    /// The database file (`:memory:` for an in-memory database).
    public let path: String

    /// An error with SQLite's extended result code and message, the failing
    /// statement's SQL if there was one, and the database file.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil, path: String) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// SQLite's name for the result code, such as `SQLITE_CONSTRAINT_UNIQUE`.
    public var codeName: String { Self.name(of: extendedResultCode) }

    /// `SQLite error 2067 (SQLITE_CONSTRAINT_UNIQUE): message in "SQL" on path`;
    /// the statement part only when there was one.
    public var description: String {
        var text = "SQLite error \(extendedResultCode) (\(codeName)): \(message)"
        if let sql { text += " in \"\(sql)\"" }
        text += " on \(path)"
        return text
    }

    /// True for the "database is busy/locked" family, which a retry may cure.
    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }

    static func name(of code: Int32) -> String {
        switch code {
        case SQLITE_ERROR: "SQLITE_ERROR"
        case SQLITE_INTERNAL: "SQLITE_INTERNAL"
        case SQLITE_PERM: "SQLITE_PERM"
        case SQLITE_ABORT: "SQLITE_ABORT"
        case SQLITE_BUSY: "SQLITE_BUSY"
        case SQLITE_LOCKED: "SQLITE_LOCKED"
        case SQLITE_NOMEM: "SQLITE_NOMEM"
        case SQLITE_READONLY: "SQLITE_READONLY"
        case SQLITE_INTERRUPT: "SQLITE_INTERRUPT"
        case SQLITE_IOERR: "SQLITE_IOERR"
        case SQLITE_CORRUPT: "SQLITE_CORRUPT"
        case SQLITE_FULL: "SQLITE_FULL"
        case SQLITE_CANTOPEN: "SQLITE_CANTOPEN"
        case SQLITE_PROTOCOL: "SQLITE_PROTOCOL"
        case SQLITE_SCHEMA: "SQLITE_SCHEMA"
        case SQLITE_TOOBIG: "SQLITE_TOOBIG"
        case SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT"
        case SQLITE_MISMATCH: "SQLITE_MISMATCH"
        case SQLITE_MISUSE: "SQLITE_MISUSE"
        case SQLITE_RANGE: "SQLITE_RANGE"
        case SQLITE_NOTADB: "SQLITE_NOTADB"
        case 2067: "SQLITE_CONSTRAINT_UNIQUE"
        case 1555: "SQLITE_CONSTRAINT_PRIMARYKEY"
        case 1299: "SQLITE_CONSTRAINT_NOTNULL"
        case 275: "SQLITE_CONSTRAINT_CHECK"
        case 787: "SQLITE_CONSTRAINT_FOREIGNKEY"
        case 517: "SQLITE_BUSY_SNAPSHOT"
        case 261: "SQLITE_BUSY_RECOVERY"
        case 262: "SQLITE_LOCKED_SHAREDCACHE"
        case 11 | (1 << 8): "SQLITE_CORRUPT_VTAB"
        case 14 | (1 << 8): "SQLITE_CANTOPEN_NOTEMPDIR"
        case 14 | (2 << 8): "SQLITE_CANTOPEN_ISDIR"
        default:
            if let text = sqlite3_errstr(code) {
                "SQLITE code \(code): \(String(cString: text))"
            } else {
                "SQLITE code \(code)"
            }
        }
    }
}
