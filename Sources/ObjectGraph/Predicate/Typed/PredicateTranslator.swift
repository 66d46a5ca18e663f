import Foundation

/// Reads Foundation's `Predicate` expression tree (what `#Predicate`
/// builds) as an ``ObjectPredicate``: the same tree the format-string twin
/// parses to, so the same SQL, bound values and in-memory evaluation.
///
/// Each node type that has an equivalent conforms to
/// ``TranslatableExpression`` and combines its operands' terms here; a
/// node without one that holds no key path (`limit + 1`) is evaluated once,
/// as a constant; anything else is an ``ObjectGraphError/invalidPredicate(_:)``
/// naming the node's type and what is not translated.
struct PredicateTranslator {
    /// A predicate variable's meaning: the fetched object, the value of an
    /// optional (`flatMap`), or the element of a to-many test.
    private struct Binding {
        var path: TranslatedKeyPath
        /// How many `contains(where:)`, `allSatisfy` or `filter` tests
        /// enclose the variable.
        var level: Int
    }

    /// The predicate's root type, for messages.
    let rootName: String
    private var bindings: [PredicateExpressions.VariableID: Binding] = [:]
    /// How many element tests enclose the node being read.
    private var level = 0

    init(rootName: String, object: PredicateExpressions.VariableID) {
        self.rootName = rootName
        bindings[object] = Binding(path: .object, level: 0)
    }

    // MARK: Reading nodes

    /// The term of any node.
    mutating func translate(_ expression: any PredicateExpression) throws(ObjectGraphError) -> TranslatedTerm {
        guard let node = expression as? any TranslatableExpression else {
            if let constant = Self.constant(expression) { return .constant(constant) }
            throw unsupported(expression, UnsupportedExpression.reason(for: expression))
        }
        do {
            return try node.translate(&self)
        } catch {
            // A node of constants only (`flag ? 1 : 5`) is its value.
            if let constant = Self.constant(expression) { return .constant(constant) }
            throw error
        }
    }

    /// The condition a Bool-valued node stands for.
    mutating func condition(_ expression: any PredicateExpression) throws(ObjectGraphError) -> ObjectPredicate {
        switch try translate(expression) {
        case .predicate(let predicate):
            return predicate
        case .keyPath(let path):
            // A Bool attribute: `$0.published` is `published == YES`.
            return .compare(.keyPath(try key(path, in: expression)), .equal, .value(.bool(true)))
        case .constant(.value(.bool(let value))):
            return .constant(value)
        case .optionalCondition:
            throw unsupported(expression, "is a Bool? here: compare it with true (== true) or give it a default (?? false)")
        default:
            throw unsupported(expression, "is not a condition")
        }
    }

    /// The value of a node without variables, when it has one the model stores.
    private static func constant(_ expression: any PredicateExpression) -> CapturedValue? {
        guard let value = try? expression.evaluate(PredicateBindings()) else { return nil }
        return CapturedValue(value)
    }

    // MARK: Variables and scopes

    /// The key path a variable stands for.
    func path(of variable: PredicateExpressions.VariableID, in node: any PredicateExpression) throws(ObjectGraphError)
        -> TranslatedKeyPath
    {
        guard let binding = bindings[variable] else { throw unsupported(node, "reads a variable the predicate does not define") }
        guard binding.level == level else {
            throw unsupported(
                node,
                "reads the enclosing object inside a contains(where:), allSatisfy or filter test;"
                    + " such a test reads only its element (as SUBQUERY does)")
        }
        return binding.path
    }

    /// Binds `variable` to a key path at the current level (`flatMap`).
    mutating func bind(_ variable: PredicateExpressions.VariableID, to path: TranslatedKeyPath) {
        bindings[variable] = Binding(path: path, level: level)
    }

    /// Enters the test of a to-many relationship's elements; returns the
    /// SUBQUERY variable (`x`, then `y`, `z`, `x4`… when tests nest).
    mutating func enterElementTest(_ variable: PredicateExpressions.VariableID) -> String {
        level += 1
        let names = ["x", "y", "z"]
        let name = level <= names.count ? names[level - 1] : "x\(level)"
        bindings[variable] = Binding(path: TranslatedKeyPath(variable: name, keys: []), level: level)
        return name
    }

    mutating func leaveElementTest() { level -= 1 }

    // MARK: Names

    /// The model key a Swift key path on `type` reads.
    func keyName(_ keyPath: AnyKeyPath, of type: Any.Type) throws(ObjectGraphError) -> String {
        guard let key = KeyPathNaming.key(for: keyPath, in: type) else {
            throw .invalidPredicate("#Predicate<\(rootName)>: " + KeyPathNaming.missing(keyPath, in: type))
        }
        return key
    }

    /// A key path as an operand: a key, not the object itself.
    func key(_ path: TranslatedKeyPath, in node: any PredicateExpression) throws(ObjectGraphError) -> String {
        guard !path.keys.isEmpty else {
            throw unsupported(node, "compares the object itself; compare one of its keys")
        }
        return path.path
    }

    /// The to-many key path a `contains(where:)`, `allSatisfy`, `filter`,
    /// `count` or `isEmpty` reads.
    func collection(_ term: TranslatedTerm, in node: any PredicateExpression) throws(ObjectGraphError) -> TranslatedKeyPath {
        guard case .keyPath(let path) = term, !path.keys.isEmpty else {
            throw unsupported(node, "reads a collection that is not a to-many key path of the object")
        }
        return path
    }

    // MARK: Errors

    /// The error for a node that has no equivalent.
    func unsupported(_ node: any PredicateExpression, _ reason: String) -> ObjectGraphError {
        .invalidPredicate("#Predicate<\(rootName)>: \(UnsupportedExpression.name(of: node)) \(reason)")
    }

    // MARK: Combining terms

    /// `lhs op rhs`, with a key path on the left when one side is a
    /// constant (`10 < $0.likes` is `likes > 10`).
    func compare(
        _ lhs: TranslatedTerm, _ op: ComparisonOperator, _ rhs: TranslatedTerm, options: ComparisonOptions = [],
        in node: any PredicateExpression
    ) throws(ObjectGraphError) -> ObjectPredicate {
        switch (lhs, rhs) {
        case (.keyPath(let left), .keyPath(let right)):
            guard op.isOrdering || op == .equal || op == .notEqual else {
                throw unsupported(node, "compares two keys with \(op.rawValue); only ==, !=, <, <=, > and >= compare keys")
            }
            return .compare(.keyPath(try key(left, in: node)), op, .keyPath(try key(right, in: node)), options: options)
        case (.keyPath(let path), .constant(let value)):
            return .compare(.keyPath(try key(path, in: node)), op, try operand(value, op, in: node), options: options)
        case (.count(let count), .constant(let value)):
            return .compare(count, op, try operand(value, op, in: node), options: options)
        case (.coalesced(let path, let fallback), .constant(let value)):
            return try coalesced(path, fallback, op, try operand(value, op, in: node), options, in: node)
        case (.optionalCondition(let guards, let predicate), .constant(.value(let value))) where op == .equal || op == .notEqual:
            let result = try optionalCondition(guards, predicate, equal: value, in: node)
            return op == .equal ? result : .not(result)
        case (.predicate(let predicate), .constant(.value(.bool(let value)))) where op == .equal || op == .notEqual:
            return value == (op == .equal) ? predicate : .not(predicate)
        case (.caseInsensitiveOrder(let left, let right), .constant(.comparisonResult(let result))) where op == .equal || op == .notEqual:
            let ordering: ComparisonOperator = switch (result, op == .equal) {
            case (.orderedSame, true): .equal
            case (.orderedSame, false): .notEqual
            case (.orderedAscending, true): .less
            case (.orderedAscending, false): .greaterOrEqual
            case (.orderedDescending, true): .greater
            case (.orderedDescending, false): .lessOrEqual
            }
            return try compare(left, ordering, right, options: options.union(.caseInsensitive), in: node)
        case (.constant(let left), .constant(let right)):
            return .compare(try operand(left, .equal, in: node), op, try operand(right, op, in: node), options: options)
        case (.constant, _):
            guard let swapped = op.swapped else {
                throw unsupported(node, "has the value on the left of \(op.rawValue); \(op.rawValue) takes the key on its left")
            }
            return try compare(rhs, swapped, lhs, options: options, in: node)
        default:
            throw unsupported(node, "compares \(lhs.kind) with \(rhs.kind), which has no ObjectPredicate equivalent")
        }
    }

    /// A constant as the right side of `op`.
    private func operand(_ value: CapturedValue, _ op: ComparisonOperator, in node: any PredicateExpression) throws(ObjectGraphError)
        -> ObjectExpression
    {
        switch (value, op) {
        case (.value(let value), .in), (.value(let value), .between):
            throw unsupported(node, "takes a list for \(op.rawValue), got \(value)")
        case (.value(let value), _):
            return .value(value)
        case (.list(let values), .in), (.list(let values), .between):
            return .list(values.map { .value($0) })
        case (.range(let lower, let upper, true), .between):
            return .list([.value(lower), .value(upper)])
        case (.comparisonResult, _):
            throw unsupported(node, "compares a ComparisonResult that is not from caseInsensitiveCompare(_:)")
        default:
            throw unsupported(node, "compares with a list or a range where \(op.rawValue) takes one value")
        }
    }

    /// `(path ?? fallback) op value`: the comparison of `path`, and what a
    /// nil `path` gives where the fallback gives otherwise (`(rating ?? 0)
    /// < 5` is `rating < 5 OR rating == nil`).
    private func coalesced(
        _ path: TranslatedKeyPath, _ fallback: Value, _ op: ComparisonOperator, _ value: ObjectExpression,
        _ options: ComparisonOptions, in node: any PredicateExpression
    ) throws(ObjectGraphError) -> ObjectPredicate {
        let key = try key(path, in: node)
        let comparison = ObjectPredicate.compare(.keyPath(key), op, value, options: options)
        let right: InMemoryEvaluator.Operand = switch value {
        case .list(let items): .list(items.compactMap { if case .value(let v) = $0 { .value(v) } else { nil } })
        case .value(let v): .value(v)
        default: .value(.null)
        }
        let whenNil = InMemoryEvaluator.compare(.value(.null), op, right, options)
        let withFallback = InMemoryEvaluator.compare(.value(fallback), op, right, options)
        switch (whenNil, withFallback) {
        case (false, true): return Self.any([comparison, .compare(.keyPath(key), .equal, .value(.null))])
        case (true, false): return Self.all([comparison, .compare(.keyPath(key), .notEqual, .value(.null))])
        default: return comparison
        }
    }

    /// `optional.flatMap { condition } == value`, for `value` true, false
    /// or nil. A guard that is nil makes the result nil; where the
    /// condition is false anyway when a guard is nil (it compares a key
    /// through it with a value), the guard is not written
    /// (`$0.author?.name.contains(x) == true` is `author.name CONTAINS x`).
    func optionalCondition(
        _ guards: [TranslatedKeyPath], _ condition: ObjectPredicate, equal value: Value, in node: any PredicateExpression
    ) throws(ObjectGraphError) -> ObjectPredicate {
        var present: [ObjectPredicate] = []
        var absent: [ObjectPredicate] = []
        for path in guards {
            let key = try key(path, in: node)
            present.append(.compare(.keyPath(key), .notEqual, .value(.null)))
            absent.append(.compare(.keyPath(key), .equal, .value(.null)))
        }
        switch value {
        case .bool(true):
            let needed = zip(guards, present).filter { !Self.isFalseWhenNil(condition, through: $0.0.path) }.map(\.1)
            return Self.all(needed + [condition])
        case .bool(false):
            return Self.all(present + [.not(condition)])
        case .null:
            return Self.any(absent)
        default:
            throw unsupported(node, "compares a Bool? with \(value)")
        }
    }

    /// Whether `predicate` is false, in SQL and in memory, when the key
    /// path `guardPath` is nil: a comparison of a key through it with a
    /// value (not `!=`, which nil satisfies), `ANY` over a to-many through
    /// it, an `AND` with one such term, an `OR` of such terms only.
    static func isFalseWhenNil(_ predicate: ObjectPredicate, through guardPath: String) -> Bool {
        switch predicate {
        case .constant(let value):
            return !value
        case .and(let terms):
            return terms.contains { isFalseWhenNil($0, through: guardPath) }
        case .or(let terms):
            return !terms.isEmpty && terms.allSatisfy { isFalseWhenNil($0, through: guardPath) }
        case .not:
            return false
        case .comparison(let c):
            guard c.quantifier == nil || c.quantifier == .any, case .keyPath(let path) = c.lhs,
                path == guardPath || path.hasPrefix(guardPath + "."), c.op != .notEqual
            else { return false }
            switch c.rhs {
            case .value(let value): return !value.isNull
            case .list: return c.op == .in || c.op == .between
            default: return false
            }
        }
    }

    /// An element in a range of values: `BETWEEN` when the range is
    /// closed, `>=` and `<` when not.
    func contains(_ element: TranslatedTerm, _ lower: Value, _ upper: Value, closed: Bool, in node: any PredicateExpression)
        throws(ObjectGraphError) -> ObjectPredicate
    {
        if closed { return try compare(element, .between, .constant(.list([lower, upper])), in: node) }
        return Self.all([
            try compare(element, .greaterOrEqual, .constant(.value(lower)), in: node),
            try compare(element, .less, .constant(.value(upper)), in: node),
        ])
    }

    /// `ANY collection.key op value` when the test is one comparison of an
    /// element's key with a value, else `SUBQUERY(collection, $x, test).@count > 0`
    /// (`ALL` and `SUBQUERY(…, NOT (test)).@count == 0` for `allSatisfy`).
    func quantified(_ quantifier: Quantifier, _ collection: TranslatedKeyPath, variable: String, _ test: ObjectPredicate)
        -> ObjectPredicate
    {
        let element = "$" + variable + "."
        if case .comparison(let c) = test, c.quantifier == nil, case .keyPath(let path) = c.lhs, path.hasPrefix(element),
            Self.isConstant(c.rhs)
        {
            let key = collection.path + "." + path.dropFirst(element.count)
            return .comparison(Comparison(lhs: .keyPath(key), op: c.op, rhs: c.rhs, options: c.options, quantifier: quantifier))
        }
        switch quantifier {
        case .all:
            return .compare(
                .subqueryCount(collection: collection.path, variable: variable, predicate: .not(test)), .equal, .value(.integer(0)))
        default:
            return .compare(.subqueryCount(collection: collection.path, variable: variable, predicate: test), .greater, .value(.integer(0)))
        }
    }

    private static func isConstant(_ expression: ObjectExpression) -> Bool {
        switch expression {
        case .value: true
        case .list(let items): items.allSatisfy(isConstant)
        default: false
        }
    }

    /// `AND` of the terms, nested `AND`s flattened (as the format parser
    /// reads `a AND b AND c`).
    static func all(_ terms: [ObjectPredicate]) -> ObjectPredicate {
        let flat = terms.flatMap { term -> [ObjectPredicate] in if case .and(let inner) = term { inner } else { [term] } }
        return flat.count == 1 ? flat[0] : .and(flat)
    }

    /// `OR` of the terms, nested `OR`s flattened.
    static func any(_ terms: [ObjectPredicate]) -> ObjectPredicate {
        let flat = terms.flatMap { term -> [ObjectPredicate] in if case .or(let inner) = term { inner } else { [term] } }
        return flat.count == 1 ? flat[0] : .or(flat)
    }
}

extension TranslatedTerm {
    /// What the term is, for messages.
    var kind: String {
        switch self {
        case .predicate: "a condition"
        case .keyPath(let path): path.keys.isEmpty ? "the object itself" : "the key \(path.path)"
        case .constant(let value): "the value \(value)"
        case .count(let count): "\(count)"
        case .coalesced(let path, let fallback): "(\(path.path) ?? \(fallback))"
        case .optionalCondition: "a Bool? (a condition through optional chaining)"
        case .caseInsensitiveOrder: "a caseInsensitiveCompare(_:) result"
        case .filtered(let collection, _, _): "a filter of \(collection.path)"
        }
    }
}
