import CLibPQ
import Foundation

/// A thin wrapper of libpq, PostgreSQL's own C client: connect with a
/// connection URL, run a statement with its values bound as parameters
/// (`$1`, `$2`, …, never spliced into the SQL), read the rows as text.
/// Not thread-safe: its store holds it under a lock.
public final class PostgreSQLConnection {
    /// The rows of a statement, each value as PostgreSQL's text (nil for
    /// NULL), and the rows an INSERT, UPDATE or DELETE changed.
    public struct Result: Equatable, Sendable {
        public var rows: [[String?]]
        public var affectedRows: Int
    }

    private let connection: OpaquePointer

    /// Connects with `url` (`postgresql://user@host:port/database?…`, or
    /// any libpq connection string), waiting at most `connectTimeout`
    /// seconds unless the URL says otherwise. A password may come in the
    /// URL, from `PGPASSWORD` or from `~/.pgpass`, as for psql.
    public init(url: String, connectTimeout: Int = 10) throws(PostgreSQLError) {
        // Later keywords win: the URL's own connect_timeout over ours.
        let keywords = ["connect_timeout", "fallback_application_name", "dbname"]
        let values = [String(connectTimeout), "faultline", url]
        let opened = Self.withCStrings(keywords) { keywords in
            Self.withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let opened else { throw PostgreSQLError(sql: nil, message: "out of memory") }
        guard PQstatus(opened) == CONNECTION_OK else {
            let message = PostgreSQLError.oneLine(String(cString: PQerrorMessage(opened)))
            PQfinish(opened)
            throw PostgreSQLError(sql: nil, message: message)
        }
        connection = opened
        // The server's notices ("relation … already exists, skipping")
        // would go to standard error: they are not the command's output.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(connection) }

    /// Why `url` is not a connection string libpq accepts, or nil.
    public static func problem(in url: String) -> String? {
        var error: UnsafeMutablePointer<CChar>?
        let options = PQconninfoParse(url, &error)
        defer {
            if let options { PQconninfoFree(options) }
            if let error { PQfreemem(error) }
        }
        guard options == nil else { return nil }
        return error.map { PostgreSQLError.oneLine(String(cString: $0)) } ?? "not a connection URL"
    }

    /// Runs `sql` with `parameters` bound to `$1`, `$2`, … (as text;
    /// PostgreSQL casts them to the columns' types).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgreSQLError) -> Result {
        let result = Self.withCStrings(parameters) { values in
            PQexecParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        guard let result else {
            throw PostgreSQLError(sql: sql, message: PostgreSQLError.oneLine(String(cString: PQerrorMessage(connection))))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = primary ?? PostgreSQLError.oneLine(String(cString: PQresultErrorMessage(result)))
            throw PostgreSQLError(sql: sql, message: message.isEmpty ? String(cString: PQresStatus(status)) : message, sqlState: state)
        }
        var rows: [[String?]] = []
        let columns = PQnfields(result)
        for row in 0..<PQntuples(result) {
            rows.append(
                (0..<columns).map { column in
                    PQgetisnull(result, row, column) != 0 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
        return Result(rows: rows, affectedRows: Int(String(cString: PQcmdTuples(result))) ?? 0)
    }

    /// `body` with `strings` as an array of C strings (NULL for nil) that
    /// live while it runs.
    private static func withCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        // One NULL more: an empty list is still an array to point at.
        let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
