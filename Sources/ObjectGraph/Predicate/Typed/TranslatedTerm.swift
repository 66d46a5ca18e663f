/// What one node of a `#Predicate`'s expression tree stands for once read:
/// a condition, or one of the operands conditions are made of. The
/// translator combines terms bottom-up into an ``ObjectPredicate``.
indirect enum TranslatedTerm {
    /// A condition.
    case predicate(ObjectPredicate)
    /// A key path (`$0.likes`, `$0.author?.name`); an attribute, a to-one
    /// or a to-many relationship: the model decides at the fetch.
    case keyPath(TranslatedKeyPath)
    /// A literal or captured value.
    case constant(CapturedValue)
    /// `toMany.count` or `toMany.filter { … }.count`: an `@count` or a
    /// `SUBQUERY(…).@count`.
    case count(ObjectExpression)
    /// `(optional ?? value)`: the key path's value, or `value` when it is nil.
    case coalesced(TranslatedKeyPath, default: Value)
    /// `optional.flatMap { condition }`, which `?.` builds
    /// (`$0.author?.name.contains(x)`): a `Bool?`, nil when one of the
    /// guard key paths is nil, else the condition.
    case optionalCondition(guards: [TranslatedKeyPath], ObjectPredicate)
    /// `a.caseInsensitiveCompare(b)`: a `ComparisonResult`, read when it is
    /// compared with one.
    case caseInsensitiveOrder(TranslatedTerm, TranslatedTerm)
    /// `toMany.filter { test }`: only its `count` and `isEmpty` are read.
    case filtered(collection: TranslatedKeyPath, variable: String, ObjectPredicate)
}
