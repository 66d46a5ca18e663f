import Foundation

/// A batch update written with key paths and `#Predicate`, for a
/// ``KeyPathNamed`` class:
///
/// ```swift
/// try BatchUpdateRequest(Post.self, where: #Predicate { !$0.published }, setting: [\.published: .value(.bool(true))])
/// ```
extension BatchUpdateRequest {
    /// The update of the class's entity, each key path set to its
    /// expression, on the objects `predicate` matches (every one without).
    /// A key path the class does not name, or a predicate that does not
    /// translate, is thrown here.
    public init<Object: KeyPathNamed & EntityNamed>(
        _ type: Object.Type, where predicate: Predicate<Object>? = nil, setting values: [PartialKeyPath<Object>: UpdateExpression],
        resultType: BatchResultType = .status
    ) throws(ObjectGraphError) {
        var properties: [String: UpdateExpression] = [:]
        for (keyPath, expression) in values {
            guard let key = KeyPathNaming.key(for: keyPath, in: Object.self) else {
                throw .invalidBatchRequest("batch update of \(Object.entityName): \(KeyPathNaming.missing(keyPath, in: Object.self))")
            }
            properties[key] = expression
        }
        self.init(
            entityName: Object.entityName, predicate: try predicate.map { predicate throws(ObjectGraphError) in try ObjectPredicate(predicate) },
            propertiesToUpdate: properties, resultType: resultType)
    }
}
