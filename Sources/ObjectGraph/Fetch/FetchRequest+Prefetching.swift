/// Prefetching and intended lazy loads named by key paths, for a
/// ``KeyPathNamed`` class: `request.prefetch(\.author, \.comments)` is
/// `relationshipKeyPathsForPrefetching = ["author", "comments"]`, and
/// `request.intendLazyLoads(\.author)` is `intendedLazyLoads = ["author"]`.
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

    /// Adds each relationship to ``intendedLazyLoads``, by its model key:
    /// its lazy loads for this fetch's objects are done on purpose. A key
    /// path the class does not name is an `invalidFetchRequest` error.
    public mutating func intendLazyLoads(_ relationships: PartialKeyPath<Object>...) throws(ObjectGraphError) {
        for keyPath in relationships {
            guard let key = KeyPathNaming.key(for: keyPath, in: Object.self) else {
                throw .invalidFetchRequest("intendLazyLoads: \(KeyPathNaming.missing(keyPath, in: Object.self))")
            }
            intendedLazyLoads.append(key)
        }
    }
}
