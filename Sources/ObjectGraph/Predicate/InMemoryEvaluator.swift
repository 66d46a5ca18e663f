/// Evaluates predicates on objects in memory, with the same meaning as the
/// SQL that ``QueryBuilder`` compiles: terms left to right, `AND` and `OR`
/// short-circuit, nil and strings as ``ObjectPredicate`` and
/// ``StringMatching`` define them. Reading a key fires faults as needed.
///
/// Run a predicate through ``QueryBuilder`` first (``ObjectContext``
/// does): type errors are reported there, and here a comparison that does
/// not fit is simply false.
struct InMemoryEvaluator {
    /// Reads a key path through to-one relationships (an attribute's value,
    /// or a to-one's destination as `.object`).
    let read: (ManagedObject, String) throws -> Operand
    /// The destinations of the to-many relationship a key path ends at
    /// (after to-one steps).
    let toMany: (ManagedObject, String) throws -> [ManagedObject]

    enum Operand {
        case value(Value)
        case object(ObjectID?)
        case list([Operand])
    }

    /// `SUBQUERY` variables bound to objects.
    private var bindings: [String: ManagedObject] = [:]

    init(read: @escaping (ManagedObject, String) throws -> Operand, toMany: @escaping (ManagedObject, String) throws -> [ManagedObject]) {
        self.read = read
        self.toMany = toMany
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
        case .comparison(let c):
            if let quantifier = c.quantifier { return try quantified(c, quantifier, object) }
            if c.isContainsOnKeyPath, case .object = c.rhs, case .keyPath(let path) = c.lhs, endsAtToMany(path, object) {
                return try quantified(c.asAnyEqual, .any, object)
            }
            return Self.compare(try operand(c.lhs, object), c.op, try operand(c.rhs, object), c.options)
        }
    }

    /// Splits `$x.rest` into the bound object and `rest`.
    private func subject(_ path: String, _ object: ManagedObject) -> (ManagedObject, String) {
        guard path.hasPrefix("$"), let dot = path.firstIndex(of: ".") else { return (object, path) }
        let name = String(path[path.index(after: path.startIndex)..<dot])
        guard let bound = bindings[name] else { return (object, path) }
        return (bound, String(path[path.index(after: dot)...]))
    }

    /// Whether `path` ends at a to-many relationship (`toMany CONTAINS
    /// object` then means `ANY toMany == object`).
    private func endsAtToMany(_ path: String, _ object: ManagedObject) -> Bool {
        let (target, rest) = subject(path, object)
        guard let model = target.context?.store.model else { return false }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return model.toManyRelationship(at: parts, from: target.entity) != nil
    }

    private func operand(_ expression: ObjectExpression, _ object: ManagedObject) throws -> Operand {
        switch expression {
        case .keyPath(let path):
            let (target, rest) = subject(path, object)
            return try read(target, rest)
        case .value(let value): return .value(value)
        case .object(let id): return .object(id)
        case .list(let items): return .list(try items.map { try operand($0, object) })
        case .variable: return .value(.null)
        case .aggregate(let aggregate, let path, let attribute):
            let (target, rest) = subject(path, object)
            let elements = try toMany(target, rest)
            if aggregate == .count { return .value(.integer(Int64(elements.count))) }
            var values: [Value] = []
            for element in elements {
                if case .value(let value) = try read(element, attribute ?? ""), !value.isNull { values.append(value) }
            }
            return .value(Self.aggregate(aggregate, values))
        case .subqueryCount(let collection, let variable, let predicate):
            let (target, rest) = subject(collection, object)
            var count = 0
            for element in try toMany(target, rest) {
                var inner = self
                inner.bindings[variable] = element
                if try inner.evaluate(predicate, on: element) { count += 1 }
            }
            return .value(.integer(Int64(count)))
        }
    }

    private func quantified(_ c: Comparison, _ quantifier: Quantifier, _ object: ManagedObject) throws -> Bool {
        guard case .keyPath(let path) = c.lhs else { return false }
        let (target, full) = subject(path, object)
        // The to-many step is the first component whose value is a to-many
        // relationship: split there.
        let parts = full.split(separator: ".").map(String.init)
        var split = parts.count
        var entity = target.entity
        for (index, part) in parts.enumerated() {
            guard let relationship = entity.relationship(named: part) else { break }
            if relationship.isToMany {
                split = index + 1
                break
            }
            entity = target.context?.store.model.destination(of: relationship) ?? entity
        }
        let manyPath = parts[..<split].joined(separator: ".")
        let rest = parts[split...].joined(separator: ".")
        let rhs = try operand(c.rhs, object)
        var any = false
        var all = true
        for element in try toMany(target, manyPath) {
            let left: Operand = rest.isEmpty ? .object(element.objectID) : try read(element, rest)
            let result = Self.compare(left, c.op, rhs, c.options)
            any = any || result
            all = all && result
            if quantifier == .any, any { return true }
            if quantifier == .none, any { return false }
            if quantifier == .all, !all { return false }
        }
        switch quantifier {
        case .any: return any
        case .none: return !any
        case .all: return all
        }
    }

    static func aggregate(_ aggregate: Aggregate, _ values: [Value]) -> Value {
        switch aggregate {
        case .count:
            return .integer(Int64(values.count))
        case .sum:
            if values.allSatisfy({ if case .integer = $0 { true } else { false } }) {
                return .integer(values.reduce(0) { sum, value in if case .integer(let v) = value { sum &+ v } else { sum } })
            }
            return .double(values.reduce(0.0) { $0 + (number($1) ?? 0) })
        case .avg:
            guard !values.isEmpty else { return .null }
            return .double(values.reduce(0.0) { $0 + (number($1) ?? 0) } / Double(values.count))
        case .min:
            return values.min { ValueComparison.ascending($0, $1) < 0 } ?? .null
        case .max:
            return values.max { ValueComparison.ascending($0, $1) < 0 } ?? .null
        }
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .integer(let v): Double(v)
        case .double(let v): v
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    private static func folded(_ value: Value, _ options: ComparisonOptions) -> Value {
        guard !options.isEmpty, case .string(let text) = value else { return value }
        return .string(StringMatching.fold(text, options))
    }

    static func compare(_ lhs: Operand, _ op: ComparisonOperator, _ rhs: Operand, _ options: ComparisonOptions = []) -> Bool {
        switch (lhs, rhs) {
        case (.value(let left), .value(let right)):
            let a = folded(left, options)
            let b = folded(right, options)
            switch op {
            case .equal: return ValueComparison.equal(a, b)
            case .notEqual: return !ValueComparison.equal(a, b)
            case .less: return ValueComparison.compare(a, b).map { $0 < 0 } ?? false
            case .lessOrEqual: return ValueComparison.compare(a, b).map { $0 <= 0 } ?? false
            case .greater: return ValueComparison.compare(a, b).map { $0 > 0 } ?? false
            case .greaterOrEqual: return ValueComparison.compare(a, b).map { $0 >= 0 } ?? false
            case .like, .contains, .beginsWith, .endsWith, .matches:
                guard case .string(let text) = left, case .string(let pattern) = right else { return false }
                let p = StringMatching.fold(pattern, options)
                // A LIKE that SQL runs through faultline_like costs the same here.
                if op == .like, !LikePattern.isPlain(p) {
                    return LikePattern.cached(pattern, options).matches(text)
                }
                let t = StringMatching.fold(text, options)
                switch op {
                case .like: return StringMatching.like(t, p)
                case .contains: return StringMatching.contains(t, p)
                case .beginsWith: return StringMatching.beginsWith(t, p)
                case .endsWith: return StringMatching.endsWith(t, p)
                default: return StringMatching.matches(text, pattern, options)
                }
            case .in, .between: return false
            }
        case (.value(let left), .list(let items)):
            // SQL semantics: a nil on either side never matches.
            guard !left.isNull else { return false }
            let a = folded(left, options)
            let values = items.compactMap { item -> Value? in if case .value(let v) = item { folded(v, options) } else { nil } }
            switch op {
            case .in: return values.contains { !$0.isNull && ValueComparison.equal(a, $0) }
            case .between:
                guard values.count == 2, let low = ValueComparison.compare(a, values[0]),
                    let high = ValueComparison.compare(a, values[1])
                else { return false }
                return low >= 0 && high <= 0
            default: return false
            }
        case (.object(let a), .object(let b)):
            switch op {
            case .equal: return a == b
            case .notEqual: return a != b
            default: return false
            }
        case (.object(let a), .list(let items)):
            guard op == .in, let a else { return false }
            return items.contains { if case .object(let b) = $0 { b == a } else { false } }
        case (.object(let a), .value(let b)), (.value(let b), .object(let a)):
            // Only nil compares with a relationship.
            guard b.isNull else { return false }
            switch op {
            case .equal: return a == nil
            case .notEqual: return a != nil
            default: return false
            }
        default:
            return false
        }
    }

    /// A comparison of two constants, decided when compiling.
    static func compareConstants(_ c: Comparison) throws(ObjectGraphError) -> Bool {
        func operand(_ e: ObjectExpression) throws(ObjectGraphError) -> Operand {
            switch e {
            case .value(let v): return .value(v)
            case .object(let id): return .object(id)
            case .list(let items):
                var operands: [Operand] = []
                for item in items { operands.append(try operand(item)) }
                return .list(operands)
            case .variable(let name): throw .invalidPredicate("variable $\(name) has no value")
            default: throw .invalidPredicate("\(e) cannot be compared here")
            }
        }
        if c.op == .matches, case .value(.string(let pattern)) = c.rhs, StringMatching.regularExpression(pattern, c.options) == nil {
            throw .invalidPredicate("MATCHES: \"\(pattern)\" is not a valid regular expression")
        }
        return compare(try operand(c.lhs), c.op, try operand(c.rhs), c.options)
    }
}
