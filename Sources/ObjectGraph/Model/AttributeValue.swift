import Foundation

/// A Swift type that a typed attribute property can have.
public protocol AttributeValue {
    /// The value as the model stores it.
    var attributeValue: Value { get }
    /// The Swift value for a stored value, or nil when it does not convert.
    ///
    /// Borrows the value: a property read then passes the object's stored
    /// value in place instead of copying it (and destroying the copy).
    init?(attributeValue: borrowing Value)
}

extension Int16: AttributeValue {
    /// The value as an integer.
    public var attributeValue: Value { .integer(Int64(self)) }
    /// The integer, or nil when the value is not an integer or does not fit
    /// in 16 bits.
    public init?(attributeValue: borrowing Value) {
        guard case .integer(let v) = copy attributeValue, let value = Int16(exactly: v) else { return nil }
        self = value
    }
}

extension Int32: AttributeValue {
    /// The value as an integer.
    public var attributeValue: Value { .integer(Int64(self)) }
    /// The integer, or nil when the value is not an integer or does not fit
    /// in 32 bits.
    public init?(attributeValue: borrowing Value) {
        guard case .integer(let v) = copy attributeValue, let value = Int32(exactly: v) else { return nil }
        self = value
    }
}

extension Int64: AttributeValue {
    /// The value as an integer.
    public var attributeValue: Value { .integer(self) }
    /// The integer, or nil when the value is not an integer.
    public init?(attributeValue: borrowing Value) {
        guard case .integer(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension Int: AttributeValue {
    /// The value as an integer.
    public var attributeValue: Value { .integer(Int64(self)) }
    /// The integer, or nil when the value is not an integer or does not fit
    /// in `Int`.
    public init?(attributeValue: borrowing Value) {
        guard case .integer(let v) = copy attributeValue, let value = Int(exactly: v) else { return nil }
        self = value
    }
}

extension Double: AttributeValue {
    /// The value as a double.
    public var attributeValue: Value { .double(self) }
    /// The double, or an integer value converted to a double; nil for any
    /// other value.
    public init?(attributeValue: borrowing Value) {
        switch copy attributeValue {
        case .double(let v): self = v
        case .integer(let v): self = Double(v)
        default: return nil
        }
    }
}

extension Bool: AttributeValue {
    /// The value as a bool.
    public var attributeValue: Value { .bool(self) }
    /// The bool, or nil when the value is not a bool.
    public init?(attributeValue: borrowing Value) {
        guard case .bool(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension String: AttributeValue {
    /// The value as a string.
    public var attributeValue: Value { .string(self) }
    /// The string, or nil when the value is not a string.
    public init?(attributeValue: borrowing Value) {
        guard case .string(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension Date: AttributeValue {
    /// The value as a date.
    public var attributeValue: Value { .date(self) }
    /// The date, or nil when the value is not a date.
    public init?(attributeValue: borrowing Value) {
        guard case .date(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension Data: AttributeValue {
    /// The value as data.
    public var attributeValue: Value { .data(self) }
    /// The data, or nil when the value is not data.
    public init?(attributeValue: borrowing Value) {
        guard case .data(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension UUID: AttributeValue {
    /// The value as a UUID.
    public var attributeValue: Value { .uuid(self) }
    /// The UUID, or nil when the value is not a UUID.
    public init?(attributeValue: borrowing Value) {
        guard case .uuid(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    /// The wrapped value's stored value, or ``Value/null`` for nil.
    public var attributeValue: Value { self?.attributeValue ?? .null }
    /// `.none` for ``Value/null``, the wrapped type's value otherwise; nil
    /// (the initializer fails) when a non-null value does not convert to the
    /// wrapped type.
    public init?(attributeValue: borrowing Value) {
        if attributeValue.isNull {
            self = .none
        } else if let value = Wrapped(attributeValue: attributeValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
