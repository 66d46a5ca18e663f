/// A condition on objects of one entity: the expression tree that fetch
/// requests filter with.
///
/// It compiles to one SQL `WHERE` clause with bound values (never values
/// spliced into SQL text) and evaluates in memory with the same answer.
///
/// Meaning of nil (both evaluators): nil equals only nil (`x == nil`,
/// `x != nil`); an ordering comparison (`<`, `<=`, `>`, `>=`) with nil on
/// either side is false; `NOT` negates the result. So for a row whose
/// `rating` is nil, `rating < 5` is false and `NOT (rating < 5)` is true,
/// as NSPredicate has it (SQL's three-valued logic would make both false).
public indirect enum ObjectPredicate: Sendable, Hashable {
    case constant(Bool)
    case comparison(ObjectExpression, ComparisonOperator, ObjectExpression)
    case and([ObjectPredicate])
    case or([ObjectPredicate])
    case not(ObjectPredicate)

    public static let `true` = ObjectPredicate.constant(true)
    public static let `false` = ObjectPredicate.constant(false)
}

/// One side of a comparison.
public indirect enum ObjectExpression: Sendable, Hashable {
    /// A key of the entity, or a path through to-one relationships
    /// (`owner.name`). A to-one relationship itself compares with objects
    /// and nil.
    case keyPath(String)
    /// A constant.
    case value(Value)
    /// An object, by ID (for comparisons with a to-one relationship).
    case object(ObjectID)
}

/// Comparison operators.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    var sql: String {
        switch self {
        case .equal: "="
        case .notEqual: "!="
        default: rawValue
        }
    }

    /// The operator with its operands swapped (`a < b` is `b > a`).
    var swapped: ComparisonOperator {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        case .equal, .notEqual: self
        }
    }
}

// MARK: Building predicates in Swift

/// A key path, for building predicates: `Key("rating") < 5`,
/// `Key("owner.name") == "Ada" && Key("rating") >= 3`.
public struct Key: Sendable {
    public let path: String
    public init(_ path: String) { self.path = path }

    public static func == (lhs: Key, rhs: Value) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .equal, .value(rhs)) }
    public static func != (lhs: Key, rhs: Value) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .notEqual, .value(rhs)) }
    public static func < (lhs: Key, rhs: Value) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .less, .value(rhs)) }
    public static func <= (lhs: Key, rhs: Value) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .lessOrEqual, .value(rhs)) }
    public static func > (lhs: Key, rhs: Value) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .greater, .value(rhs)) }
    public static func >= (lhs: Key, rhs: Value) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .greaterOrEqual, .value(rhs)) }
    public static func == (lhs: Key, rhs: ObjectID) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .equal, .object(rhs)) }
    public static func != (lhs: Key, rhs: ObjectID) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .notEqual, .object(rhs)) }
    public static func == (lhs: Key, rhs: Key) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .equal, .keyPath(rhs.path)) }
    public static func < (lhs: Key, rhs: Key) -> ObjectPredicate { .comparison(.keyPath(lhs.path), .less, .keyPath(rhs.path)) }
}

extension ObjectPredicate {
    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        if case .and(let terms) = lhs { return .and(terms + [rhs]) }
        return .and([lhs, rhs])
    }

    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        if case .or(let terms) = lhs { return .or(terms + [rhs]) }
        return .or([lhs, rhs])
    }

    public static prefix func ! (operand: ObjectPredicate) -> ObjectPredicate { .not(operand) }
}

// MARK: Printing

extension ObjectPredicate: CustomStringConvertible {
    /// The predicate in format-string syntax: `rating < 5 AND name == "x"`.
    public var description: String {
        switch self {
        case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let lhs, let op, let rhs): "\(lhs) \(op.rawValue) \(rhs)"
        case .and(let terms): terms.map { $0.parenthesized(inside: "AND") }.joined(separator: " AND ")
        case .or(let terms): terms.map { $0.parenthesized(inside: "OR") }.joined(separator: " OR ")
        case .not(let operand): "NOT \(operand.parenthesized(inside: "NOT"))"
        }
    }

    private func parenthesized(inside parent: String) -> String {
        switch self {
        case .constant, .comparison: description
        default: "(\(description))"
        }
    }
}

extension ObjectExpression: CustomStringConvertible {
    public var description: String {
        switch self {
        case .keyPath(let path): path
        case .value(let value): value.description
        case .object(let id): "\(id)"
        }
    }
}
