import Foundation

/// An attribute value, typed as the model sees it.
///
/// `Value` is what key-value access, predicates, dictionary results and
/// snapshots use; typed properties convert to and from Swift types through
/// ``AttributeValue``.
public enum Value: Hashable, Sendable {
    /// No value (nil).
    case null
    /// An integer, for `int16`, `int32` and `int64` attributes.
    case integer(Int64)
    /// A double.
    case double(Double)
    /// A bool, stored as 0 or 1.
    case bool(Bool)
    /// A string.
    case string(String)
    /// A date, stored as seconds since 1970.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// A UUID, stored as its 16 bytes.
    case uuid(UUID)

    /// Whether the value is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "nil"
        case .integer: "integer"
        case .double: "double"
        case .bool: "bool"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .uuid: "uuid"
        }
    }

    /// Whether this value may be stored in an attribute of `type` (nil
    /// aside, which optionality decides). Integers are range-checked.
    func fits(_ type: AttributeType) -> Bool {
        switch (self, type) {
        case (.null, _): true
        case (.integer(let v), .int16): v >= Int64(Int16.min) && v <= Int64(Int16.max)
        case (.integer(let v), .int32): v >= Int64(Int32.min) && v <= Int64(Int32.max)
        case (.integer, .int64): true
        case (.double, .double), (.bool, .bool), (.string, .string), (.date, .date), (.data, .data), (.uuid, .uuid): true
        default: false
        }
    }

    /// The value converted for `type` where the conversion loses nothing
    /// (an integer for a double attribute, 0/1 for a bool), or nil.
    func converted(to type: AttributeType) -> Value? {
        if fits(type) { return self }
        switch (self, type) {
        case (.integer(let v), .double): return .double(Double(v))
        case (.double(let v), .int16), (.double(let v), .int32), (.double(let v), .int64):
            guard v.rounded() == v, let int = Int64(exactly: v) else { return nil }
            let value = Value.integer(int)
            return value.fits(type) ? value : nil
        case (.integer(let v), .bool) where v == 0 || v == 1: return .bool(v == 1)
        case (.bool(let v), .int16), (.bool(let v), .int32), (.bool(let v), .int64): return .integer(v ? 1 : 0)
        default: return nil
        }
    }

    /// The value as SQLite stores it.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let v): .integer(v)
        case .double(let v): .real(v)
        case .bool(let v): .integer(v ? 1 : 0)
        case .string(let v): .text(v)
        case .date(let v): .real(v.timeIntervalSince1970)
        case .data(let v): .blob(v)
        case .uuid(let v): .blob(withUnsafeBytes(of: v.uuid) { Data($0) })
        }
    }

    /// Reads column `index` of a row as a value of `type`.
    static func read(_ row: Row, _ index: Int, as type: AttributeType) -> Value {
        if row.isNull(index) { return .null }
        switch type {
        case .int16, .int32, .int64: return .integer(row.int64(index))
        case .double: return .double(row.double(index))
        case .bool: return .bool(row.int64(index) != 0)
        case .string: return .string(row.string(index))
        case .date: return .date(Date(timeIntervalSince1970: row.double(index)))
        case .data: return .data(row.data(index))
        case .uuid:
            let data = row.data(index)
            guard data.count == 16 else { return .null }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: data) }
            return .uuid(UUID(uuid: uuid))
        }
    }
}

extension Value: CustomStringConvertible {
    /// The value in predicate-literal syntax, which the predicate parser
    /// reads back: `nil`, `42`, `2.5`, `YES`, `"text"`,
    /// `CAST(721692800.0, "NSDate")` (seconds since 2001-01-01),
    /// `CAST("00ff", "NSData")`, `CAST("E621E1F8-…", "UUID")`.
    public var description: String {
        switch self {
        case .null: "nil"
        case .integer(let v): String(v)
        case .double(let v): String(v)
        case .bool(let v): v ? "YES" : "NO"
        case .string(let v): "\"" + v.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .date(let v): "CAST(\(v.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .data(let v): "CAST(\"\(v.map { String(format: "%02x", $0) }.joined())\", \"NSData\")"
        case .uuid(let v): "CAST(\"\(v.uuidString)\", \"UUID\")"
        }
    }
}

extension Value: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// An ``integer(_:)`` value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A ``double(_:)`` value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A ``string(_:)`` value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A ``bool(_:)`` value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// The ``null`` value.
    public init(nilLiteral: ()) { self = .null }
}
