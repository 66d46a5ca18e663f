/// An entity of a ``Model``: its attributes, relationships and table.
///
/// Immutable once the model is built, and shared by every context of a
/// store, which is what makes it safe to send between threads.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    /// The entity's name.
    public let name: String
    /// Position of the entity in ``Model/entities``.
    public let index: Int
    /// The attributes, inherited ones first (the parent's, in its order),
    /// then the entity's own.
    public let attributes: [AttributeDescription]
    /// The relationships, inherited ones first, then the entity's own.
    public let relationships: [RelationshipDescription]
    /// Each entry is a set of attribute names whose values must be unique
    /// together.
    public let uniquenessConstraints: [[String]]
    /// The class instantiated for objects of this entity.
    public let objectType: ManagedObject.Type
    /// ``ManagedObject/hasFaultHooks`` of the class, asked once: whether
    /// turning an object into a fault calls its hooks.
    let callsFaultHooks: Bool
    /// Whether objects of exactly this entity cannot be inserted.
    public let isAbstract: Bool
    /// The entity this one inherits from, if any.
    public let parentName: String?
    /// The entities that inherit from this one directly.
    public let subentityNames: [String]
    /// The positions of the parent, grandparent, … up to the root.
    let ancestorIndexes: [Int]
    /// The position of the inheritance root, whose table holds the rows.
    let rootIndex: Int
    /// Where a snapshot row holds each value (``TableLayout``).
    let layout: TableLayout

    let attributeIndex: [String: Int]
    let relationshipIndex: [String: Int]
    /// The attributes' names, in order: a key is found by comparing a few
    /// short strings, cheaper than hashing it.
    let attributeNames: [String]
    /// The attributes' names as ``StringBits``, in order, for typed
    /// properties (``scannedAttributePosition(_:)``).
    @usableFromInline let attributeNameBits: [StringBits]
    /// The SQL table.
    let table: String
    /// Indexes of the to-one relationships, whose foreign keys are read with
    /// every row.
    let toOneIndexes: [Int]
    /// The attributes a save or a batch request recomputes in SQL.
    let derivedAttributes: [AttributeDescription]
    /// "relationship fault Entity.relationship" per relationship, the
    /// purpose of its fault's statement: made once, not per fault.
    let relationshipFaultPurposes: [String]
    /// The statements on the entity's table.
    let sql: EntitySQL

    init(
        name: String, index: Int, attributes: [AttributeDescription], relationships: [RelationshipDescription],
        uniquenessConstraints: [[String]], objectType: ManagedObject.Type, isAbstract: Bool, parentName: String?,
        subentityNames: [String], hierarchy: EntityHierarchy, layout: TableLayout, sql: EntitySQL
    ) {
        self.name = name
        self.index = index
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.objectType = objectType
        self.callsFaultHooks = objectType.hasFaultHooks
        self.isAbstract = isAbstract
        self.parentName = parentName
        self.subentityNames = subentityNames
        self.ancestorIndexes = hierarchy.ancestors(of: index)
        self.rootIndex = hierarchy.roots[index]
        self.layout = layout
        self.table = layout.table
        self.attributeIndex = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1.name, $0) })
        self.attributeNames = attributes.map(\.name)
        self.attributeNameBits = attributeNames.map(StringBits.init)
        self.relationshipIndex = Dictionary(uniqueKeysWithValues: relationships.enumerated().map { ($1.name, $0) })
        self.toOneIndexes = relationships.indices.filter { !relationships[$0].isToMany }
        self.derivedAttributes = attributes.filter { $0.derivation != nil }
        self.relationshipFaultPurposes = relationships.map { "relationship fault \(name).\($0.name)" }
        self.sql = sql
    }

    /// The position of the attribute named `key`: a linear search for an
    /// entity of a few attributes (each comparison of two short strings is
    /// a couple of word compares), the dictionary for more.
    @usableFromInline @inline(__always)
    func attributePosition(_ key: String) -> Int? {
        guard attributeNames.count <= 16 else { return attributeIndex[key] }
        for index in attributeNames.indices where attributeNames[index] == key { return index }
        return nil
    }

    /// The position of the attribute named `key` for an entity of at most
    /// 16 attributes, found by comparing the key's ``StringBits`` with the
    /// names'; nil when none matches (an unknown key, a key stored
    /// differently from its name, a larger entity), for which
    /// ``attributePosition(_:)`` looks properly.
    ///
    /// Typed properties inline this, and nothing else of the lookup: with
    /// the dictionary lookup on one of its paths (a call the optimizer
    /// cannot see into), the compiler retained and released the object
    /// around every read, a third of an attribute read's instructions; and
    /// each name before the one read cost a call to compare strings.
    @inlinable @inline(__always)
    func scannedAttributePosition(_ key: String) -> Int? {
        guard attributeNameBits.count <= 16 else { return nil }
        let bits = StringBits(key)
        for index in attributeNameBits.indices where attributeNameBits[index] == bits { return index }
        return nil
    }

    /// `index`, when it is the position of the attribute `key` names and
    /// has a typed field (``TypedFields``): its name's bits match the
    /// key's (a literal key and a model name of up to 15 bytes always do;
    /// anything else is looked up out of line). A constant index in a
    /// property folds the range checks away.
    @inlinable @inline(__always)
    func fieldPosition(_ key: String, at index: Int) -> Int? {
        guard TypedFields.hasField(index), index < attributeNameBits.count, attributeNameBits[index] == StringBits(key) else { return nil }
        return index
    }

    /// Whether this entity is `other` or inherits from it: an object of it
    /// can be where an object of `other` is expected.
    @inline(__always)
    public func isKind(of other: EntityDescription) -> Bool {
        self === other || (!ancestorIndexes.isEmpty && ancestorIndexes.contains(other.index))
    }

    /// Whether some entity inherits from this one.
    public var hasSubentities: Bool { !subentityNames.isEmpty }

    /// The ID of the object in a row that starts with ``EntitySQL/keyColumns``
    /// (or the snapshot columns): the key, and in a shared table the code of
    /// the row's entity, which may be a subentity of this one.
    @inline(__always)
    func objectID(_ row: Row, model: Model) -> ObjectID {
        let key = row.int64(0)
        guard sql.hasEntityColumn else { return ObjectID(entity: self, primaryKey: key) }
        return ObjectID(entity: model.entity(code: row.int64(1), kindOf: self), primaryKey: key)
    }

    /// The attribute named `name`, inherited or the entity's own; nil when
    /// the entity has none of that name.
    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndex[name].map { attributes[$0] }
    }

    /// The relationship named `name`, inherited or the entity's own; nil when
    /// the entity has none of that name.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipIndex[name].map { relationships[$0] }
    }

    /// The entity's name.
    public var description: String { name }
}
