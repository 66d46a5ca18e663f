import Foundation

/// How an error names a node of a `#Predicate` that does not translate,
/// and why the common ones do not.
enum UnsupportedExpression {
    /// The node's type as Swift prints it, without its module
    /// (`Arithmetic<KeyPath<Variable<Post>, Int32>, Value<Int32>>`), at
    /// most 160 characters.
    static func name(of node: any PredicateExpression) -> String {
        let name = String(describing: type(of: node))
        return name.count <= 160 ? name : String(name.prefix(159)) + "…"
    }

    /// Why a node with no translation has none.
    static func reason(for node: any PredicateExpression) -> String {
        let base = String(describing: type(of: node)).prefix { $0 != "<" }
        switch base {
        case "Arithmetic", "UnaryMinus", "IntDivision", "IntRemainder", "FloatDivision":
            return "is not translated: arithmetic on keys has no ObjectPredicate equivalent; compute the value outside the predicate"
        case "ForcedUnwrap":
            return "is not translated: force unwrapping (!) of a key; use optional chaining (?.) or ?? with a default"
        case "TypeCheck", "ConditionalCast", "ForceCast":
            return "is not translated: type checks and casts (is, as?, as!) have no ObjectPredicate equivalent"
        case "CollectionIndexSubscript", "CollectionRangeSubscript", "DictionaryKeySubscript", "DictionaryKeyDefaultValueSubscript":
            return "is not translated: subscripts have no ObjectPredicate equivalent"
        case "SequenceMinimum", "SequenceMaximum":
            return "is not translated: min() and max() of a key have no ObjectPredicate equivalent"
        case "StringContainsRegex":
            return "is not translated: use ObjectPredicate(format:) with MATCHES for regular expressions"
        case "StringLocalizedCompare":
            return "is not translated: the store has no locale-aware comparison; use caseInsensitiveCompare(_:)"
        case "PredicateEvaluate", "ExpressionEvaluate":
            return "is not translated: a predicate evaluated inside a predicate"
        default:
            return "has no ObjectPredicate equivalent"
        }
    }
}
