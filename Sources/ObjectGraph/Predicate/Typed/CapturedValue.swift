import Foundation

/// A value a `#Predicate` holds: a literal or a captured variable
/// (`10`, `name`, `["a", "b"]`, `1...5`), as the engine's values. Anything
/// else (a struct of the application's, an object) is not a model value
/// and the translation refuses it.
enum CapturedValue: Equatable {
    /// One value; nil is ``Value/null``.
    case value(Value)
    /// An array or a set, for `IN`.
    case list([Value])
    /// A range of two values: `BETWEEN` when closed, `>=` and `<` when not.
    case range(lower: Value, upper: Value, closed: Bool)
    /// What `caseInsensitiveCompare(_:)` is compared with.
    case comparisonResult(ComparisonResult)

    /// The value `any` holds, or nil when it is none of the above.
    init?(_ any: Any) {
        if let result = any as? ComparisonResult {
            self = .comparisonResult(result)
        } else if let value = Self.scalar(any) {
            self = .value(value)
        } else if let range = any as? any CapturedRange, let lower = Self.scalar(range.bounds.lower),
            let upper = Self.scalar(range.bounds.upper)
        {
            self = .range(lower: lower, upper: upper, closed: range.bounds.closed)
        } else if let sequence = any as? any Sequence {
            var values: [Value] = []
            for element in sequence {
                guard let value = Self.scalar(element) else { return nil }
                values.append(value)
            }
            self = .list(values)
        } else {
            return nil
        }
    }

    /// A single value of a type the model stores; nil for anything else.
    static func scalar(_ any: Any) -> Value? {
        if let optional = any as? any CapturedOptional {
            guard let wrapped = optional.wrappedValue else { return .null }
            return scalar(wrapped)
        }
        switch any {
        case let v as Bool: return .bool(v)
        case let v as Int: return .integer(Int64(v))
        case let v as Int8: return .integer(Int64(v))
        case let v as Int16: return .integer(Int64(v))
        case let v as Int32: return .integer(Int64(v))
        case let v as Int64: return .integer(v)
        case let v as UInt8: return .integer(Int64(v))
        case let v as UInt16: return .integer(Int64(v))
        case let v as UInt32: return .integer(Int64(v))
        case let v as UInt: return Int64(exactly: v).map { .integer($0) }
        case let v as UInt64: return Int64(exactly: v).map { .integer($0) }
        case let v as Double: return .double(v)
        case let v as Float: return .double(Double(v))
        case let v as String: return .string(v)
        case let v as Substring: return .string(String(v))
        case let v as Character: return .string(String(v))
        case let v as Date: return .date(v)
        case let v as Data: return .data(v)
        case let v as UUID: return .uuid(v)
        case let v as Value: return v
        default: return nil
        }
    }
}

/// An `Optional` seen through `Any`.
private protocol CapturedOptional {
    var wrappedValue: Any? { get }
}

extension Optional: CapturedOptional {
    fileprivate var wrappedValue: Any? { self.map { $0 as Any } }
}

/// A `ClosedRange` or a `Range` seen through `Any`.
private protocol CapturedRange {
    var bounds: (lower: Any, upper: Any, closed: Bool) { get }
}

extension ClosedRange: CapturedRange {
    fileprivate var bounds: (lower: Any, upper: Any, closed: Bool) { (lowerBound, upperBound, true) }
}

extension Range: CapturedRange {
    fileprivate var bounds: (lower: Any, upper: Any, closed: Bool) { (lowerBound, upperBound, false) }
}

extension CapturedValue: CustomStringConvertible {
    /// The value in predicate syntax (`5`, `{1, 2}`), for messages.
    var description: String {
        switch self {
        case .value(let value): value.description
        case .list(let values): "{" + values.map(\.description).joined(separator: ", ") + "}"
        case .range(let lower, let upper, let closed): "\(lower)\(closed ? "..." : "..<")\(upper)"
        case .comparisonResult(let result): "\(result)"
        }
    }
}
