/// An attribute of an entity, resolved in a ``Model``.
public struct AttributeDescription: Sendable, Hashable {
    public let name: String
    public let type: AttributeType
    public let isOptional: Bool
    /// The value a newly inserted object starts with.
    public let defaultValue: Value
    /// Whether the store keeps an index on this attribute's column.
    public let isIndexed: Bool
    /// Position among the entity's attributes (and in snapshots).
    public internal(set) var index: Int = 0

    init(name: String, type: AttributeType, isOptional: Bool, defaultValue: Value, isIndexed: Bool) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
    }

    /// The column that stores the attribute.
    var column: String { name }
}
