import Foundation

extension SortKey {
    /// Foundation's `SortDescriptor` (`SortDescriptor(\Post.title, order:
    /// .reverse)`) as a sort key: the key its key path names
    /// (``KeyPathNamed``) and its order. The store sorts as SQLite does:
    /// numbers by value, strings by their UTF-8 bytes (Swift's `<` for
    /// strings in one normalization form), nil first when ascending.
    ///
    /// - Throws: ``ObjectGraphError/invalidFetchRequest(_:)`` when the key
    ///   path names no key (one through several properties,
    ///   `\.author?.name`, included: write `SortKey("author.name")`), or
    ///   when the descriptor compares strings in a localized way.
    public init<Object: KeyPathNamed>(_ descriptor: SortDescriptor<Object>) throws(ObjectGraphError) {
        guard let keyPath = descriptor.keyPath else {
            throw .invalidFetchRequest("SortDescriptor<\(Object.self)> compares whole objects; sort by a key path")
        }
        if let comparator = descriptor.stringComparator, comparator != .lexical {
            throw .invalidFetchRequest(
                "SortDescriptor<\(Object.self)> compares strings with \(comparator); the store sorts strings by their bytes (.lexical)")
        }
        guard let key = KeyPathNaming.key(for: keyPath, in: Object.self) else {
            throw .invalidFetchRequest("SortDescriptor<\(Object.self)>: " + KeyPathNaming.missing(keyPath, in: Object.self))
        }
        self.init(key, ascending: descriptor.order == .forward)
    }
}
