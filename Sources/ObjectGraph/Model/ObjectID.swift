/// The identity of an object: its entity and its primary key.
///
/// Stable across the contexts of one store and `Sendable`: IDs, not
/// objects, are what cross between contexts and threads. Primary keys are
/// assigned when an object is inserted, so an ID never changes.
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let entity: EntityDescription
    public let primaryKey: Int64

    public init(entity: EntityDescription, primaryKey: Int64) {
        self.entity = entity
        self.primaryKey = primaryKey
    }

    public var entityName: String { entity.name }

    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.entity === rhs.entity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
        hasher.combine(entity.index)
    }

    /// Orders by entity, then primary key: the order saves write in.
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.entity.index != rhs.entity.index ? lhs.entity.index < rhs.entity.index : lhs.primaryKey < rhs.primaryKey
    }

    /// `Selfie/p42`, the form events and logs use.
    public var description: String { "\(entity.name)/p\(primaryKey)" }
}
