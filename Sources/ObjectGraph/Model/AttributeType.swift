/// The type of an attribute, and how it is stored in SQLite.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    case int16, int32, int64, double, bool, string, date, data, uuid

    /// The SQLite column type used in the schema.
    var columnType: String {
        switch self {
        case .int16, .int32, .int64, .bool: "INTEGER"
        case .double, .date: "REAL"
        case .string: "TEXT"
        case .data, .uuid: "BLOB"
        }
    }

    /// Whether values of this type are compared as numbers.
    var isNumeric: Bool {
        switch self {
        case .int16, .int32, .int64, .double, .bool, .date: true
        case .string, .data, .uuid: false
        }
    }
}
