import Foundation

extension ObjectPredicate {
    /// Foundation's `Predicate` (`#Predicate<Post> { $0.likes > 10 }`) as
    /// the engine's predicate: the tree its format-string twin parses to
    /// (`likes > 10`), so the same SQL with the same bound values, the same
    /// in-memory evaluation and the same description in fetch events, the
    /// SQL log and `explain`. Captured values become values of the tree,
    /// never SQL text.
    ///
    /// Key paths are named by ``KeyPathNamed`` (the predicate's root and
    /// every class it reads through). docs/predicates.md lists each form
    /// that translates, its twin and its SQL.
    ///
    /// - Throws: ``ObjectGraphError/invalidPredicate(_:)`` naming the
    ///   expression's type and what in it has no equivalent (arithmetic on
    ///   keys, casts, subscripts, a key path a class does not name…).
    ///   ``FetchRequest`` keeps the error and throws it at the fetch.
    public init<Object: KeyPathNamed>(_ predicate: Predicate<Object>) throws(ObjectGraphError) {
        var translator = PredicateTranslator(rootName: "\(Object.self)", object: predicate.variable.key)
        self = try translator.condition(predicate.expression)
    }
}
