/// Two objects are equal when they are the same object: within a context
/// there is one object per ID (uniquing), as `NSManagedObject`'s equality
/// is its identity. Equatable so that a `#Predicate` can compare a to-one
/// relationship with nil (`$0.author == nil`), which Swift allows only for
/// optionals of Equatable values.
extension ManagedObject: Equatable {
    /// Whether `lhs` and `rhs` are the same object (`===`).
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
}
