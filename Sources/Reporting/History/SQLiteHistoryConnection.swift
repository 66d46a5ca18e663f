import CSQLite
import Foundation
import Probes

/// The history store's own SQLite connection: open a file (created when
/// missing), run statements with bound values (never spliced into the
/// SQL), read their rows as text. Errors carry the statement and SQLite's
/// message. Not thread-safe: its store holds it under a lock.
final class SQLiteHistoryConnection {
    /// A statement that failed: the SQL, SQLite's message and result code.
    struct Failure: Error, CustomStringConvertible {
        let sql: String?
        let message: String
        let code: Int32

        /// "database is locked", "database is busy": a retry may cure them.
        var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }

        var description: String { sql.map { "\(message) (in \(Self.oneLine($0)))" } ?? message }

        /// A statement in one line for a message.
        static func oneLine(_ sql: String) -> String {
            sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
    }

    private let handle: OpaquePointer

    /// Opens `path` read-write (`creating` a missing file, or not), waiting
    /// up to `busyTimeout` seconds for another writer's lock.
    init(path: String, creating: Bool, busyTimeout: Double) throws(Failure) {
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if creating { flags |= SQLITE_OPEN_CREATE }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            FileMappings.holdingStill { _ = sqlite3_close_v2(opened) }
            throw Failure(sql: nil, message: message, code: code)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
    }

    deinit {
        FileMappings.holdingStill { _ = sqlite3_close_v2(handle) }
    }

    /// Runs `sql` with `values` bound to its `?` parameters in order and
    /// returns its rows, each column as text (nil for NULL).
    @discardableResult
    func execute(_ sql: String, _ values: [String?] = []) throws(Failure) -> [[String?]] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw failure(sql, prepared) }
        defer { FileMappings.holdingStill { _ = sqlite3_finalize(statement) } }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let bound: Int32
            if let value {
                bound = sqlite3_bind_text64(statement, position, value, UInt64(value.utf8.count), faultline_sqlite_transient, UInt8(SQLITE_UTF8))
            } else {
                bound = sqlite3_bind_null(statement, position)
            }
            guard bound == SQLITE_OK else { throw failure(sql, bound) }
        }
        var rows: [[String?]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(sql, step) }
            let columns = sqlite3_column_count(statement)
            rows.append(
                (0..<columns).map { column in
                    guard sqlite3_column_type(statement, column) != SQLITE_NULL, let text = sqlite3_column_text(statement, column) else { return nil }
                    let count = Int(sqlite3_column_bytes(statement, column))
                    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
                })
        }
        return rows
    }

    /// Rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func failure(_ sql: String, _ code: Int32) -> Failure {
        Failure(sql: sql, message: String(cString: sqlite3_errmsg(handle)), code: code)
    }
}
