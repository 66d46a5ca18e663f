/// A key path a `#Predicate` reads, as the engine names it: from the
/// fetched object (`author.name`) or from the element a `contains(where:)`,
/// `allSatisfy` or `filter` test reads (`$x.likes`, the SUBQUERY variable).
struct TranslatedKeyPath: Hashable {
    /// The SUBQUERY variable the path starts from (without `$`); nil for
    /// the fetched object.
    var variable: String?
    /// The model keys, in order; empty for the object itself.
    var keys: [String]

    /// The fetched object itself.
    static let object = TranslatedKeyPath(variable: nil, keys: [])

    /// The key path as predicates write it: `author.name`, `$x.likes`.
    var path: String { ((variable.map { ["$" + $0] } ?? []) + keys).joined(separator: ".") }

    func appending(_ key: String) -> TranslatedKeyPath {
        TranslatedKeyPath(variable: variable, keys: keys + [key])
    }
}
