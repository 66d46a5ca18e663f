import Foundation

#if !canImport(Darwin)
// Foundation on Apple platforms declares this expression; on Linux it does
// not, and `#Predicate` expands `caseInsensitiveCompare(_:)` to a call of
// `build_caseInsensitiveCompare` all the same. Declaring it here makes the
// form build on Linux, with the store's meaning.
extension PredicateExpressions {
    /// `root.caseInsensitiveCompare(other)` in a `#Predicate`: the order of
    /// the two strings folded for case (as ``StringMatching`` folds for
    /// `[c]`), by their UTF-8 bytes, as the store compares `==[c]`, `<[c]`…
    public struct StringCaseInsensitiveCompare<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// The order of `root` and `other`.
        public typealias Output = ComparisonResult

        /// The string searched or compared.
        public let root: Root
        /// The string looked for or compared with.
        public let other: Other

        /// The expression of `root` and `other`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// The same order as the store's `<[c]`, `==[c]` and `>[c]`.
        public func evaluate(_ bindings: PredicateBindings) throws -> ComparisonResult {
            let left = StringMatching.fold(String(try root.evaluate(bindings)), .caseInsensitive)
            let right = StringMatching.fold(String(try other.evaluate(bindings)), .caseInsensitive)
            let order = ValueComparison.compare(.string(left), .string(right)) ?? 0
            return order < 0 ? .orderedAscending : order > 0 ? .orderedDescending : .orderedSame
        }
    }

    /// What `#Predicate` calls for `caseInsensitiveCompare(_:)`.
    public static func build_caseInsensitiveCompare<Root, Other>(_ root: Root, _ other: Other)
        -> StringCaseInsensitiveCompare<Root, Other>
    {
        StringCaseInsensitiveCompare(root: root, other: other)
    }
}

extension PredicateExpressions.StringCaseInsensitiveCompare: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringCaseInsensitiveCompare: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
#endif
