/// How a user declares an entity of a ``Model``.
///
/// ```swift
/// let model = try Model([
///     Entity("Selfie", Selfie.self, properties: [
///         .attribute("name", .string),
///         .attribute("rating", .int16, default: 0, indexed: true),
///         .toMany("people", "Person", inverse: "selfies"),
///     ], uniquenessConstraints: [["name"]]),
///     …
/// ])
/// ```
///
/// An entity may name a `parent` (entity inheritance, as Core Data's): it
/// inherits the parent's attributes and relationships, its rows live in the
/// table of its inheritance root with every other entity of the hierarchy,
/// and a fetch of the parent returns it. An `abstract` entity cannot be
/// inserted: only its subentities can.
///
/// ```swift
/// Entity("LibraryItem", abstract: true, properties: [.attribute("title", .string)]),
/// Entity("Book", parent: "LibraryItem", properties: [.attribute("pages", .int32)]),
/// ```
public struct Entity: Sendable {
    /// The entity's name: a plain identifier, unique in the model.
    public var name: String
    /// The class instantiated for objects of this entity: ``ManagedObject``
    /// or a subclass of it.
    public var objectType: ManagedObject.Type
    /// The entity's own attributes and relationships (not those it inherits
    /// from `parent`).
    public var properties: [Property]
    /// Each entry is a set of attribute names whose values must be unique
    /// together.
    public var uniquenessConstraints: [[String]]
    /// The entity this one inherits from, if any.
    public var parent: String?
    /// Whether objects of exactly this entity cannot be inserted (only of
    /// its subentities).
    public var isAbstract: Bool

    /// Declares an entity named `name` whose objects are instances of
    /// `objectType`. The ``Model`` checks the declaration when it is built.
    public init(
        _ name: String, _ objectType: ManagedObject.Type = ManagedObject.self, parent: String? = nil, abstract: Bool = false,
        properties: [Property], uniquenessConstraints: [[String]] = []
    ) {
        self.name = name
        self.objectType = objectType
        self.parent = parent
        self.isAbstract = abstract
        self.properties = properties
        self.uniquenessConstraints = uniquenessConstraints
    }
}

/// What a relationship does to its destinations when its source is deleted.
public enum DeleteRule: String, Sendable, Hashable {
    /// Remove the deleted object from the destinations' inverse.
    case nullify
    /// Delete the destinations too.
    case cascade
    /// Refuse to delete while there are destinations.
    case deny
    /// Leave the destinations alone (their inverse may then dangle).
    case noAction
}

/// One property of an ``Entity`` declaration.
public enum Property: Sendable {
    /// An attribute; made with ``attribute(_:_:optional:default:indexed:)`` or
    /// ``derived(_:_:_:indexed:)``.
    case attribute(AttributeDescription)
    /// A relationship; made with ``toOne(_:_:inverse:deleteRule:optional:)``
    /// or ``toMany(_:_:inverse:deleteRule:)``.
    case relationship(RelationshipDescription)

    /// An attribute. A non-optional attribute without a default must be set
    /// before a save.
    public static func attribute(
        _ name: String, _ type: AttributeType, optional: Bool = false, default defaultValue: Value = .null,
        indexed: Bool = false
    ) -> Property {
        .attribute(AttributeDescription(name: name, type: type, isOptional: optional, defaultValue: defaultValue, isIndexed: indexed))
    }

    /// A derived attribute: stored, computed by the store on save (see
    /// ``Derivation``). Its type must fit the derivation: an integer or
    /// double for `count` and `sum`, a string for `lowercase`.
    public static func derived(_ name: String, _ type: AttributeType, _ derivation: Derivation, indexed: Bool = false) -> Property {
        .attribute(AttributeDescription(
            name: name, type: type, isOptional: true, defaultValue: .null, isIndexed: indexed, derivation: derivation))
    }

    /// A to-one relationship, stored as a foreign key column of the source.
    public static func toOne(
        _ name: String, _ destination: String, inverse: String? = nil, deleteRule: DeleteRule = .nullify,
        optional: Bool = true
    ) -> Property {
        .relationship(RelationshipDescription(
            name: name, destinationName: destination, inverseName: inverse, isToMany: false,
            deleteRule: deleteRule, isOptional: optional))
    }

    /// A to-many relationship. A to-one inverse makes it one-to-many (a
    /// foreign key on the destination), a to-many inverse makes it
    /// many-to-many (a join table). Without an inverse (which Core Data
    /// allows, with a warning) it is kept in a join table of its own, and
    /// nothing on the destination's side knows of it.
    public static func toMany(
        _ name: String, _ destination: String, inverse: String?, deleteRule: DeleteRule = .nullify
    ) -> Property {
        .relationship(RelationshipDescription(
            name: name, destinationName: destination, inverseName: inverse, isToMany: true,
            deleteRule: deleteRule, isOptional: true))
    }

    /// The attribute's or relationship's name.
    public var name: String {
        switch self {
        case .attribute(let a): a.name
        case .relationship(let r): r.name
        }
    }
}
