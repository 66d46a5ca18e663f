import CSQLite
import Foundation
import Probes

/// A prepared statement of one `Connection`.
///
/// Not thread-safe: it belongs to its connection, which the store only uses
/// under a lock. Executions go through ``Connection`` (`query`, `run`), which
/// bind, step, time and report them to the statement hook.
public final class Statement {
    /// The SQL text as it was prepared.
    public let sql: String
    /// A slot for an observer's per-statement data (computed once per
    /// prepared statement rather than once per execution). Used only by the
    /// statement's connection, like the statement: no dynamic exclusivity
    /// check on each execution.
    @exclusivity(unchecked) public var annotation: AnyObject?
    /// The engine's own per-statement data for its SQL events (shape,
    /// text number): typed, so that reading it is a load rather than a
    /// dynamic cast, and apart from ``annotation``, which stays the
    /// application's.
    @exclusivity(unchecked) var instrumentationInfo: StatementInfo?
    /// True when the statement does not write (`sqlite3_stmt_readonly`).
    public let isReadOnly: Bool
    /// Number of `?` parameters.
    public let parameterCount: Int

    let handle: OpaquePointer
    unowned let connection: Connection

    init(connection: Connection, sql: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw connection.error(code: code, sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.connection = connection
        self.isReadOnly = sqlite3_stmt_readonly(handle) != 0
        self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
    }

    deinit {
        // A statement that outlives its connection's close closes it when
        // finalized, which may unmap the database's shared-memory file.
        FileMappings.holdingStill { _ = sqlite3_finalize(handle) }
    }

    // MARK: Binding

    func bind(_ arguments: [DatabaseValue]) throws {
        guard arguments.count == parameterCount else {
            throw SQLiteError(
                extendedResultCode: SQLITE_RANGE,
                message: "statement expects \(parameterCount) arguments, got \(arguments.count)",
                sql: sql, path: connection.path)
        }
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let int):
                code = sqlite3_bind_int64(handle, index, int)
            case .real(let double):
                code = sqlite3_bind_double(handle, index, double)
            case .text(let string):
                var string = string
                code = string.withUTF8 { bytes in
                    sqlite3_bind_text64(
                        handle, index, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                        UInt64(bytes.count), faultline_sqlite_transient, UInt8(SQLITE_UTF8))
                }
            case .blob(let data):
                code = data.withUnsafeBytes { bytes in
                    sqlite3_bind_blob64(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count), faultline_sqlite_transient)
                }
            }
            guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
        }
    }

    // MARK: Reading the current row

    /// Number of columns in a result row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of a result column.
    public func columnName(_ index: Int) -> String {
        String(cString: sqlite3_column_name(handle, Int32(index)))
    }

    /// Whether the column of the current row is NULL.
    @inline(__always)
    public func isNull(_ index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// The column of the current row as an integer (SQLite's conversion: 0
    /// for NULL).
    @inline(__always)
    public func int64(_ index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    /// The column of the current row as a double (SQLite's conversion: 0 for
    /// NULL).
    @inline(__always)
    public func double(_ index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// The column of the current row as UTF-8 text; an empty string for NULL.
    public func string(_ index: Int) -> String {
        let index = Int32(index)
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column of the current row as bytes; empty for NULL or an empty
    /// blob.
    public func data(_ index: Int) -> Data {
        let index = Int32(index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// The column of the current row in its storage class.
    public func value(_ index: Int) -> DatabaseValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(int64(index))
        case SQLITE_FLOAT: .real(double(index))
        case SQLITE_TEXT: .text(string(index))
        default: .blob(data(index))
        }
    }
}

/// A read-only view of the current row, handed to `Connection.query`.
public struct Row {
    let statement: Statement

    /// Number of columns.
    public var count: Int { statement.columnCount }
    /// Whether column `index` is NULL.
    public func isNull(_ index: Int) -> Bool { statement.isNull(index) }
    /// Column `index` as an integer (0 for NULL).
    public func int64(_ index: Int) -> Int64 { statement.int64(index) }
    /// Column `index` as a double (0 for NULL).
    public func double(_ index: Int) -> Double { statement.double(index) }
    /// Column `index` as text (empty for NULL).
    public func string(_ index: Int) -> String { statement.string(index) }
    /// Column `index` as bytes (empty for NULL).
    public func data(_ index: Int) -> Data { statement.data(index) }
    /// Column `index` in its storage class.
    public func value(_ index: Int) -> DatabaseValue { statement.value(index) }
    /// Column `index` as an integer, or nil when it is NULL.
    public func optionalInt64(_ index: Int) -> Int64? { statement.isNull(index) ? nil : statement.int64(index) }
}
