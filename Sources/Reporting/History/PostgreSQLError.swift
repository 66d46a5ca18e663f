import Foundation

/// What went wrong talking to PostgreSQL: the statement (nil for a
/// connection that failed), PostgreSQL's message in one line, and its
/// SQLSTATE code when the server sent one (`25006`: a read-only
/// transaction; `23505`: a unique violation).
public struct PostgreSQLError: Error, Equatable, Sendable, CustomStringConvertible {
    public let sql: String?
    public let message: String
    public let sqlState: String?

    public init(sql: String?, message: String, sqlState: String? = nil) {
        self.sql = sql
        self.message = message
        self.sqlState = sqlState
    }

    public var description: String {
        sql.map { "\(message) (in \($0.split(whereSeparator: \.isWhitespace).joined(separator: " ")))" } ?? message
    }

    /// libpq's text, which may span lines (`DETAIL:`, `HINT:`, a tab), as one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
