import Foundation

/// A value as SQLite stores it: one of its five storage classes.
public enum DatabaseValue: Hashable, Sendable {
    /// `NULL`.
    case null
    /// `INTEGER`.
    case integer(Int64)
    /// `REAL`.
    case real(Double)
    /// `TEXT`, UTF-8.
    case text(String)
    /// `BLOB`.
    case blob(Data)

    /// Whether the value is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension DatabaseValue: CustomStringConvertible {
    /// The value as the SQL debug log and error messages show it: SQL
    /// literal syntax, blobs in hex.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): sqlQuoted(value, quote: "'")
        case .blob(let data): "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}
