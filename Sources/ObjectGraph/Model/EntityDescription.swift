/// An entity of a ``Model``: its attributes, relationships and table.
///
/// Immutable once the model is built, and shared by every context of a
/// store, which is what makes it safe to send between threads.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    public let name: String
    /// Position of the entity in ``Model/entities``.
    public let index: Int
    public let attributes: [AttributeDescription]
    public let relationships: [RelationshipDescription]
    public let uniquenessConstraints: [[String]]
    /// The class instantiated for objects of this entity.
    public let objectType: ManagedObject.Type

    let attributeIndex: [String: Int]
    let relationshipIndex: [String: Int]
    /// The attributes' names, in order: a typed property's key is found by
    /// comparing a few short strings, cheaper than hashing it.
    @usableFromInline let attributeNames: [String]
    /// The SQL table.
    let table: String
    /// Indexes of the to-one relationships, whose foreign keys are read with
    /// every row.
    let toOneIndexes: [Int]
    /// The attributes a save or a batch request recomputes in SQL.
    let derivedAttributes: [AttributeDescription]
    /// The statements on the entity's table.
    let sql: EntitySQL

    init(
        name: String, index: Int, attributes: [AttributeDescription], relationships: [RelationshipDescription],
        uniquenessConstraints: [[String]], objectType: ManagedObject.Type, sql: EntitySQL
    ) {
        self.name = name
        self.index = index
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.objectType = objectType
        self.table = name
        self.attributeIndex = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1.name, $0) })
        self.attributeNames = attributes.map(\.name)
        self.relationshipIndex = Dictionary(uniqueKeysWithValues: relationships.enumerated().map { ($1.name, $0) })
        self.toOneIndexes = relationships.indices.filter { !relationships[$0].isToMany }
        self.derivedAttributes = attributes.filter { $0.derivation != nil }
        self.sql = sql
    }

    /// The position of the attribute named `key`: a linear search for an
    /// entity of a few attributes (each comparison of two short strings is
    /// a couple of word compares), the dictionary for more.
    @usableFromInline @inline(__always)
    func attributePosition(_ key: String) -> Int? {
        attributeNames.count <= 16 ? scannedAttributePosition(key) : attributeIndex[key]
    }

    /// The position of the attribute named `key` for an entity of at most
    /// 16 attributes, by comparing names; nil for an unknown key and for a
    /// larger entity, which ``attributePosition(_:)`` looks up in the
    /// dictionary.
    ///
    /// Typed properties inline this, and nothing else of the lookup: with a
    /// dictionary lookup (a call the optimizer cannot see into) on one of
    /// its paths, the compiler retains and releases the object around every
    /// read, a third of an attribute read's instructions.
    @inlinable @inline(__always)
    func scannedAttributePosition(_ key: String) -> Int? {
        guard attributeNames.count <= 16 else { return nil }
        for index in attributeNames.indices where attributeNames[index] == key { return index }
        return nil
    }

    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndex[name].map { attributes[$0] }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipIndex[name].map { relationships[$0] }
    }

    public var description: String { name }
}
