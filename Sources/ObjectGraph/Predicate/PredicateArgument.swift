import Foundation

/// A value that can fill a format string's `%@`, `%d`, `%f` (and `%K`, for
/// a `String`) or a `$variable`.
public protocol PredicateArgument: Sendable {
    /// The argument as an expression: a value, an object, or a list.
    var predicateExpression: ObjectExpression { get }
}

extension Value: PredicateArgument {
    /// The value itself.
    public var predicateExpression: ObjectExpression { .value(self) }
}

extension ObjectID: PredicateArgument {
    /// The object, for a comparison with a to-one relationship or
    /// `toMany CONTAINS %@`.
    public var predicateExpression: ObjectExpression { .object(self) }
}

extension Int: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.integer(Int64(self))) } }
extension Int16: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.integer(Int64(self))) } }
extension Int32: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.integer(Int64(self))) } }
extension Int64: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.integer(self)) } }
extension Double: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.double(self)) } }
extension Bool: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.bool(self)) } }
extension String: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.string(self)) } }
extension Date: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.date(self)) } }
extension Data: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.data(self)) } }
extension UUID: PredicateArgument { public var predicateExpression: ObjectExpression { .value(.uuid(self)) } }

extension Array: PredicateArgument where Element: PredicateArgument {
    /// A list of the elements, for `IN` and `BETWEEN`.
    public var predicateExpression: ObjectExpression { .list(map(\.predicateExpression)) }
}

extension Optional: PredicateArgument where Wrapped: PredicateArgument {
    /// The wrapped argument, or nil (``Value/null``).
    public var predicateExpression: ObjectExpression { self?.predicateExpression ?? .value(.null) }
}
