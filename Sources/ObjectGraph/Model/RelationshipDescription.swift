/// A relationship of an entity, resolved in a ``Model``.
public struct RelationshipDescription: Sendable {
    /// The relationship's name, the key of key-value access and predicates.
    public let name: String
    /// The name of the destination entity.
    public let destinationName: String
    /// The name of the inverse relationship on the destination, if any.
    public let inverseName: String?
    /// Whether the relationship holds a set of destinations rather than one.
    public let isToMany: Bool
    /// What deleting the source does to the destinations.
    public let deleteRule: DeleteRule
    /// Whether a to-one may be nil at save; always true for a to-many.
    public let isOptional: Bool

    /// Position among the entity's relationships.
    public internal(set) var index = 0
    /// Index of the destination entity in the model.
    public internal(set) var destinationIndex = 0
    /// Index of the inverse among the destination's relationships.
    public internal(set) var inverseIndex: Int?
    /// The entity that declares the relationship: the entity itself, or the
    /// ancestor it inherits it from.
    public internal(set) var declaringEntityIndex = 0
    /// How the store keeps the relationship.
    var storage: Storage = .foreignKey(column: "")
    /// The relationship's statements and SQL fragments. Set with `storage`
    /// when the model is built (it needs the tables at both ends).
    var sql: RelationshipSQL!

    init(name: String, destinationName: String, inverseName: String?, isToMany: Bool, deleteRule: DeleteRule, isOptional: Bool) {
        self.name = name
        self.destinationName = destinationName
        self.inverseName = inverseName
        self.isToMany = isToMany
        self.deleteRule = deleteRule
        self.isOptional = isOptional
    }

    /// The join table of a many-to-many relationship (one row per pair);
    /// nil for a to-one or a one-to-many.
    public var joinTable: String? {
        if case .joinTable(let table, _, _) = storage { return table }
        return nil
    }

    /// How a relationship is stored.
    enum Storage: Sendable, Equatable {
        /// A to-one: a column of the source's table holding the destination's
        /// primary key.
        case foreignKey(column: String)
        /// A to-many whose inverse is a to-one: the destinations' table has a
        /// column holding the source's primary key.
        case inverseForeignKey(column: String)
        /// A many-to-many, or a to-many without an inverse: a join table
        /// with one row per (source, destination) pair. `sourceColumn`
        /// holds this side's keys.
        case joinTable(table: String, sourceColumn: String, destinationColumn: String)
    }
}
