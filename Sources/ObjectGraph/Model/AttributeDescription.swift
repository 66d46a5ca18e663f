/// An attribute of an entity, resolved in a ``Model``.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, the key of key-value access and predicates.
    public let name: String
    /// The type of the attribute's values.
    public let type: AttributeType
    /// Whether the attribute may be nil at save; a non-optional one without a
    /// value fails the save (``ObjectGraphError/missingValue(object:key:)``).
    public let isOptional: Bool
    /// The value a newly inserted object starts with.
    public internal(set) var defaultValue: Value
    /// Whether the store keeps an index on this attribute's column.
    public let isIndexed: Bool
    /// How the store computes the value, for a derived attribute.
    public let derivation: Derivation?
    /// Position among the entity's attributes (and in snapshots). An
    /// inherited attribute has the same position in every entity that has
    /// it: a subentity's attributes are its parent's, then its own.
    public internal(set) var index: Int = 0
    /// The entity that declares the attribute (its position in the model):
    /// the entity itself, or the ancestor it inherits the attribute from.
    public internal(set) var declaringEntityIndex: Int = 0
    /// The column that stores the attribute: its name, unless another
    /// entity of the same table has a column of that name (then
    /// `name_Entity`).
    public internal(set) var column: String = ""

    init(name: String, type: AttributeType, isOptional: Bool, defaultValue: Value, isIndexed: Bool, derivation: Derivation? = nil) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.derivation = derivation
        self.column = name
    }
}

/// How a derived attribute is computed. The store updates it when a save or
/// a batch request changes what it depends on; it is stored, so reading it
/// touches no relationship; it cannot be set.
public enum Derivation: Sendable, Hashable, CustomStringConvertible {
    /// The number of destinations of a to-many relationship (`@count`).
    case count(String)
    /// The sum of an attribute over a to-many relationship (`@sum`; 0 when empty).
    case sum(String, String)
    /// Another string attribute, case-folded (a lower-cased copy, for
    /// case-insensitive lookups that can use an index).
    case lowercase(String)

    /// The derivation as a model file writes it: `people.@count`,
    /// `items.@sum.price`, `lowercase(name)`.
    public var description: String {
        switch self {
        case .count(let relationship): "\(relationship).@count"
        case .sum(let relationship, let attribute): "\(relationship).@sum.\(attribute)"
        case .lowercase(let attribute): "lowercase(\(attribute))"
        }
    }
}
