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
    public var attributeValue: Value { .integer(Int64(self)) }
    public init?(attributeValue: borrowing Value) {
        guard case .integer(let v) = copy attributeValue, let value = Int16(exactly: v) else { return nil }
        self = value
    }
}

extension Int32: AttributeValue {
    public var attributeValue: Value { .integer(Int64(self)) }
    public init?(attributeValue: borrowing Value) {
        guard case .integer(let v) = copy attributeValue, let value = Int32(exactly: v) else { return nil }
        self = value
    }
}

extension Int64: AttributeValue {
    public var attributeValue: Value { .integer(self) }
    public init?(attributeValue: borrowing Value) {
        guard case .integer(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension Int: AttributeValue {
    public var attributeValue: Value { .integer(Int64(self)) }
    public init?(attributeValue: borrowing Value) {
        guard case .integer(let v) = copy attributeValue, let value = Int(exactly: v) else { return nil }
        self = value
    }
}

extension Double: AttributeValue {
    public var attributeValue: Value { .double(self) }
    public init?(attributeValue: borrowing Value) {
        switch copy attributeValue {
        case .double(let v): self = v
        case .integer(let v): self = Double(v)
        default: return nil
        }
    }
}

extension Bool: AttributeValue {
    public var attributeValue: Value { .bool(self) }
    public init?(attributeValue: borrowing Value) {
        guard case .bool(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension String: AttributeValue {
    public var attributeValue: Value { .string(self) }
    public init?(attributeValue: borrowing Value) {
        guard case .string(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension Date: AttributeValue {
    public var attributeValue: Value { .date(self) }
    public init?(attributeValue: borrowing Value) {
        guard case .date(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension Data: AttributeValue {
    public var attributeValue: Value { .data(self) }
    public init?(attributeValue: borrowing Value) {
        guard case .data(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension UUID: AttributeValue {
    public var attributeValue: Value { .uuid(self) }
    public init?(attributeValue: borrowing Value) {
        guard case .uuid(let v) = copy attributeValue else { return nil }
        self = v
    }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    public var attributeValue: Value { self?.attributeValue ?? .null }
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
