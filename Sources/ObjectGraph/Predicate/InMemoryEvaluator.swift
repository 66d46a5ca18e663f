/// Evaluates predicates on objects in memory, with the same meaning as the
/// SQL that ``QueryBuilder`` compiles: terms left to right, `AND` and `OR`
/// short-circuit, nil as ``ObjectPredicate`` documents.
///
/// Reading a key fires the object's fault (and those along a to-one path).
struct InMemoryEvaluator {
    /// Reads a key path's value (an attribute, or a to-one's destination as
    /// `.object`).
    let read: (ManagedObject, String) throws -> Operand

    enum Operand {
        case value(Value)
        case object(ObjectID?)
    }

    func evaluate(_ predicate: ObjectPredicate, on object: ManagedObject) throws -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .and(let terms):
            for term in terms where try !evaluate(term, on: object) { return false }
            return true
        case .or(let terms):
            for term in terms where try evaluate(term, on: object) { return true }
            return false
        case .not(let operand):
            return try !evaluate(operand, on: object)
        case .comparison(let lhs, let op, let rhs):
            return Self.compare(try operand(lhs, object), op, try operand(rhs, object))
        }
    }

    private func operand(_ expression: ObjectExpression, _ object: ManagedObject) throws -> Operand {
        switch expression {
        case .keyPath(let path): try read(object, path)
        case .value(let value): .value(value)
        case .object(let id): .object(id)
        }
    }

    static func compare(_ lhs: Operand, _ op: ComparisonOperator, _ rhs: Operand) -> Bool {
        switch (lhs, rhs) {
        case (.value(let a), .value(let b)):
            switch op {
            case .equal: return ValueComparison.equal(a, b)
            case .notEqual: return !ValueComparison.equal(a, b)
            case .less: return ValueComparison.compare(a, b).map { $0 < 0 } ?? false
            case .lessOrEqual: return ValueComparison.compare(a, b).map { $0 <= 0 } ?? false
            case .greater: return ValueComparison.compare(a, b).map { $0 > 0 } ?? false
            case .greaterOrEqual: return ValueComparison.compare(a, b).map { $0 >= 0 } ?? false
            }
        case (.object(let a), .object(let b)):
            switch op {
            case .equal: return a == b
            case .notEqual: return a != b
            default: return false
            }
        case (.object(let a), .value(let b)), (.value(let b), .object(let a)):
            // Only nil compares with a relationship.
            guard b.isNull else { return false }
            switch op {
            case .equal: return a == nil
            case .notEqual: return a != nil
            default: return false
            }
        }
    }

    /// A comparison of two constants, decided when compiling.
    static func compareConstants(_ lhs: ObjectExpression, _ op: ComparisonOperator, _ rhs: ObjectExpression) -> Bool {
        func operand(_ e: ObjectExpression) -> Operand {
            switch e {
            case .value(let v): .value(v)
            case .object(let id): .object(id)
            case .keyPath: .value(.null)
            }
        }
        return compare(operand(lhs), op, operand(rhs))
    }
}
