/// How a Swift key path becomes a model key: through the ``KeyPathNamed``
/// class its root is. One lookup for typed predicates and sort descriptors.
enum KeyPathNaming {
    /// The model key `keyPath` reads on `type`; nil when `type` is not
    /// ``KeyPathNamed`` or does not list the key path.
    static func key(for keyPath: AnyKeyPath, in type: Any.Type) -> String? {
        (type as? any KeyPathNamed.Type)?.keyNames[keyPath]
    }

    /// Why ``key(for:in:)`` found no key, in one sentence.
    static func missing(_ keyPath: AnyKeyPath, in type: Any.Type) -> String {
        let valueType = Swift.type(of: keyPath).valueType
        guard type is ManagedObject.Type else {
            return "\(keyPath.debugDescription) reads a property of \(type), which is not a model key"
        }
        guard type is any KeyPathNamed.Type else {
            return "\(type) is not KeyPathNamed, so its key path to \(valueType) (\(keyPath.debugDescription)) names no model key;"
                + " make \(type) KeyPathNamed"
        }
        return "\(type).keyNames does not list its key path to \(valueType) (\(keyPath.debugDescription));"
            + " key paths through several properties (\\.author?.name) are not named either"
    }
}
