import Foundation

#if !canImport(Darwin)
// Foundation on Apple platforms declares this expression; on Linux it does
// not, and `#Predicate` expands `localizedStandardContains(_:)` to a call
// of `build_localizedStandardContains` all the same. Declaring it here makes
// the form build on Linux, with the store's meaning.
extension PredicateExpressions {
    /// `root.localizedStandardContains(other)` in a `#Predicate`: whether
    /// `other` is in `root` when both are folded for case and diacritics
    /// (`CONTAINS[cd]`, as ``StringMatching`` folds, with no locale).
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        /// Whether `root` contains `other`.
        public typealias Output = Bool

        /// The string searched or compared.
        public let root: Root
        /// The string looked for or compared with.
        public let other: Other

        /// The expression of `root` and `other`.
        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        /// The same answer as the store's `CONTAINS[cd]`.
        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            let options: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
            return StringMatching.contains(
                StringMatching.fold(String(try root.evaluate(bindings)), options),
                StringMatching.fold(String(try other.evaluate(bindings)), options))
        }
    }

    /// What `#Predicate` calls for `localizedStandardContains(_:)`.
    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other)
        -> StringLocalizedStandardContains<Root, Other>
    {
        StringLocalizedStandardContains(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}
extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {}
extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}
#endif
