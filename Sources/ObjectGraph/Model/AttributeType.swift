/// The type of an attribute, and how it is stored in SQLite.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    case int16, int32, int64, double, bool, string, date, data, uuid

    /// Whether values of this type are compared as numbers.
    var isNumeric: Bool {
        switch self {
        case .int16, .int32, .int64, .double, .bool, .date: true
        case .string, .data, .uuid: false
        }
    }
}
