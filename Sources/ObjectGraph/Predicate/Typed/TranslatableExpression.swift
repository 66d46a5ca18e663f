import Foundation

/// A node of Foundation's predicate tree that has an ``ObjectPredicate``
/// equivalent: it reads its operands through the translator and combines
/// their terms. docs/predicates.md lists each form with its format-string
/// twin and its SQL.
protocol TranslatableExpression: PredicateExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm
}

// MARK: Operands

extension PredicateExpressions.Variable: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .keyPath(try translator.path(of: key, in: self))
    }
}

extension PredicateExpressions.KeyPath: TranslatableExpression {
    /// A model key (named by ``KeyPathNamed``), or `count` and `isEmpty`
    /// of a to-many relationship (`@count`) or of a string (`== ""`).
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        let base = try translator.translate(root)
        if let kind {
            let isString = Root.Output.self is any StringProtocol.Type
            switch (kind, isString) {
            case (.collectionIsEmpty, true):
                return .predicate(try translator.compare(base, .equal, .constant(.value(.string(""))), in: self))
            case (.collectionCount, true):
                throw translator.unsupported(self, "reads a string's count, which has no ObjectPredicate equivalent")
            case (.collectionCount, false), (.collectionIsEmpty, false):
                let count: ObjectExpression
                if case .filtered(let collection, let variable, let test) = base {
                    count = .subqueryCount(collection: collection.path, variable: variable, predicate: test)
                } else {
                    count = .aggregate(.count, path: try translator.collection(base, in: self).path, attribute: nil)
                }
                return kind == .collectionCount ? .count(count) : .predicate(.compare(count, .equal, .value(.integer(0))))
            default:
                throw translator.unsupported(self, "reads first or last of a collection, which has no ObjectPredicate equivalent")
            }
        }
        guard case .keyPath(let path) = base else {
            throw translator.unsupported(self, "reads a key of \(base.kind); keys are read from the object, an optional's value or an element")
        }
        return .keyPath(path.appending(try translator.keyName(keyPath, of: Root.Output.self)))
    }
}

extension PredicateExpressions.Value: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        guard let constant = CapturedValue(value) else {
            throw translator.unsupported(self, "holds a \(Output.self), which is not a value the model stores")
        }
        return .constant(constant)
    }
}

extension PredicateExpressions.NilLiteral: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .constant(.value(.null))
    }
}

// MARK: Logic

extension PredicateExpressions.Conjunction: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .predicate(PredicateTranslator.all([try translator.condition(lhs), try translator.condition(rhs)]))
    }
}

extension PredicateExpressions.Disjunction: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .predicate(PredicateTranslator.any([try translator.condition(lhs), try translator.condition(rhs)]))
    }
}

extension PredicateExpressions.Negation: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .predicate(.not(try translator.condition(wrapped)))
    }
}

extension PredicateExpressions.Conditional: TranslatableExpression {
    /// `test ? a : b` between conditions: `(test AND a) OR (NOT test AND b)`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        guard If.Output.self == Bool.self else {
            throw translator.unsupported(self, "chooses between values; a conditional (?:) translates only when it chooses between conditions")
        }
        let condition = try translator.condition(test)
        let whenTrue = try translator.condition(trueBranch)
        let whenFalse = try translator.condition(falseBranch)
        return .predicate(PredicateTranslator.any([
            PredicateTranslator.all([condition, whenTrue]), PredicateTranslator.all([.not(condition), whenFalse]),
        ]))
    }
}

// MARK: Comparisons

extension PredicateExpressions.Equal: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .predicate(try translator.compare(try translator.translate(lhs), .equal, try translator.translate(rhs), in: self))
    }
}

extension PredicateExpressions.NotEqual: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .predicate(try translator.compare(try translator.translate(lhs), .notEqual, try translator.translate(rhs), in: self))
    }
}

extension PredicateExpressions.Comparison: TranslatableExpression {
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        let ordering: ObjectGraph.ComparisonOperator = switch op {
        case .lessThan: .less
        case .lessThanOrEqual: .lessOrEqual
        case .greaterThan: .greater
        case .greaterThanOrEqual: .greaterOrEqual
        }
        return .predicate(try translator.compare(try translator.translate(lhs), ordering, try translator.translate(rhs), in: self))
    }
}

// MARK: Optionals

extension PredicateExpressions.OptionalFlatMap: TranslatableExpression {
    /// `$0.author?.name` (what `?.` builds): the key path through the
    /// optional, nil when it is nil, as the engine reads it; a condition
    /// inside (`$0.author?.name.contains(x)`) is a `Bool?`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        guard case .keyPath(let optional) = try translator.translate(wrapped), !optional.keys.isEmpty else {
            throw translator.unsupported(self, "unwraps something other than an optional key (?. and flatMap read a key of the object)")
        }
        translator.bind(variable.key, to: optional)
        switch try translator.translate(transform) {
        case .keyPath(let path):
            return .keyPath(path)
        case .predicate(let condition):
            return .optionalCondition(guards: [optional], condition)
        case .optionalCondition(let guards, let condition):
            return .optionalCondition(guards: [optional] + guards, condition)
        case let other:
            throw translator.unsupported(self, "gives \(other.kind) through an optional, which has no ObjectPredicate equivalent")
        }
    }
}

extension PredicateExpressions.NilCoalesce: TranslatableExpression {
    /// `(optional ?? value)` compared with a value, or `(Bool? ?? false)`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        switch (try translator.translate(lhs), try translator.translate(rhs)) {
        case (.keyPath(let path), .constant(.value(let fallback))) where !fallback.isNull:
            return .coalesced(path, default: fallback)
        case (.optionalCondition(let guards, let condition), .constant(.value(.bool(let fallback)))):
            // nil becomes the fallback: `?? false` is `== true`, `?? true` is `!= false`.
            let result = try translator.optionalCondition(guards, condition, equal: .bool(!fallback), in: self)
            return .predicate(fallback ? .not(result) : result)
        case (let left, let right):
            throw translator.unsupported(
                self, "gives \(left.kind) the default \(right.kind); ?? translates with a key and a value, or a Bool? and false or true")
        }
    }
}

// MARK: Strings

extension PredicateExpressions.CollectionContainsCollection: TranslatableExpression
where Base.Output: StringProtocol, Other.Output: StringProtocol {
    /// `$0.title.contains(text)`: `CONTAINS`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .predicate(try translator.compare(try translator.translate(base), .contains, try translator.translate(other), in: self))
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatableExpression
where Base.Output: StringProtocol, Prefix.Output: StringProtocol {
    /// `$0.title.starts(with: text)`: `BEGINSWITH`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .predicate(try translator.compare(try translator.translate(base), .beginsWith, try translator.translate(prefix), in: self))
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: TranslatableExpression {
    /// `$0.title.localizedStandardContains(text)`: `CONTAINS[cd]`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .predicate(try translator.compare(
            try translator.translate(root), .contains, try translator.translate(other),
            options: [.caseInsensitive, .diacriticInsensitive], in: self))
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: TranslatableExpression {
    /// `$0.title.caseInsensitiveCompare(text)`, read where it is compared
    /// with a `ComparisonResult`: `==[c]`, `<[c]`…
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        .caseInsensitiveOrder(try translator.translate(root), try translator.translate(other))
    }
}

// MARK: Collections

extension PredicateExpressions.SequenceContains: TranslatableExpression {
    /// `values.contains($0.key)`: `IN`, and `OR key == nil` when the
    /// values hold nil (a nil in `IN` matches nothing, in Swift it matches
    /// nil); `range.contains($0.key)` as
    /// ``PredicateExpressions/RangeExpressionContains``.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        let element = try translator.translate(element)
        switch try translator.translate(sequence) {
        case .constant(.list(let values)):
            let present = values.filter { !$0.isNull }
            let member = try translator.compare(element, .in, .constant(.list(present)), in: self)
            guard present.count < values.count else { return .predicate(member) }
            return .predicate(PredicateTranslator.any([member, try translator.compare(element, .equal, .constant(.value(.null)), in: self)]))
        case .constant(.range(let lower, let upper, let closed)):
            return .predicate(try translator.contains(element, lower, upper, closed: closed, in: self))
        case .keyPath:
            throw translator.unsupported(
                self, "tests a to-many relationship for a value; a #Predicate cannot hold objects: test its elements with contains(where:)")
        case let other:
            throw translator.unsupported(self, "tests \(other.kind) for an element; contains(_:) translates on a list of values (IN)")
        }
    }
}

extension PredicateExpressions.RangeExpressionContains: TranslatableExpression {
    /// `(low...high).contains($0.key)`: `BETWEEN`; `low..<high`: `>=` and `<`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        let element = try translator.translate(element)
        guard case .constant(.range(let lower, let upper, let closed)) = try translator.translate(range) else {
            throw translator.unsupported(self, "tests a range whose bounds are not values; ranges translate with constant bounds")
        }
        return .predicate(try translator.contains(element, lower, upper, closed: closed, in: self))
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatableExpression {
    /// `$0.comments.contains { test }`: `ANY comments.key op value` when
    /// the test is one such comparison, else `SUBQUERY(…).@count > 0`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        let collection = try translator.collection(try translator.translate(sequence), in: self)
        let name = translator.enterElementTest(variable.key)
        defer { translator.leaveElementTest() }
        let condition = try translator.condition(test)
        return .predicate(translator.quantified(.any, collection, variable: name, condition))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatableExpression {
    /// `$0.comments.allSatisfy { test }`: `ALL comments.key op value`, or
    /// `SUBQUERY(comments, $x, NOT (test)).@count == 0`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        let collection = try translator.collection(try translator.translate(sequence), in: self)
        let name = translator.enterElementTest(variable.key)
        defer { translator.leaveElementTest() }
        let condition = try translator.condition(test)
        return .predicate(translator.quantified(.all, collection, variable: name, condition))
    }
}

extension PredicateExpressions.Filter: TranslatableExpression {
    /// `$0.comments.filter { test }`, whose `count` is `SUBQUERY(…).@count`.
    func translate(_ translator: inout PredicateTranslator) throws(ObjectGraphError) -> TranslatedTerm {
        let collection = try translator.collection(try translator.translate(sequence), in: self)
        let name = translator.enterElementTest(variable.key)
        defer { translator.leaveElementTest() }
        return .filtered(collection: collection, variable: name, try translator.condition(filter))
    }
}
