import Foundation

/// The Swift value inside a ``Value``, for code that reads key-value
/// results (`value(forKey:)`, dictionary fetches): nil when the value is
/// nil or of another kind. `"\(value)"` is the value's description, which
/// quotes strings; `stringValue` is the string itself.
extension Value {
    /// The string, for a string value.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, for an integer value (every integer attribute type).
    public var int64Value: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The integer as an `Int`, for an integer value.
    public var intValue: Int? {
        int64Value.map { Int($0) }
    }

    /// The number, for a double value or an integer one (as a double).
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// The flag, for a bool value.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The date, for a date value.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The bytes, for a data value.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The UUID, for a UUID value.
    public var uuidValue: UUID? {
        if case .uuid(let value) = self { return value }
        return nil
    }
}
