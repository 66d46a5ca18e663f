/// Prefetching named by key paths, for a ``KeyPathNamed`` class:
/// `request.prefetch(\.author, \.comments)` is
/// `relationshipKeyPathsForPrefetching = ["author", "comments"]`.
extension FetchRequest where Object: KeyPathNamed {
    /// Adds each relationship to ``relationshipKeyPathsForPrefetching``, by
    /// its model key. A key path the class does not name is an
    /// `invalidFetchRequest` error, thrown here.
    public mutating func prefetch(_ relationships: PartialKeyPath<Object>...) throws(ObjectGraphError) {
        for keyPath in relationships {
            guard let key = KeyPathNaming.key(for: keyPath, in: Object.self) else {
                throw .invalidFetchRequest("prefetch: \(KeyPathNaming.missing(keyPath, in: Object.self))")
            }
            relationshipKeyPathsForPrefetching.append(key)
        }
    }
}
