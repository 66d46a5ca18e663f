import Foundation

/// What differs between two Core Data models (`perf-run model diff A B`):
/// entities, attributes and relationships added, removed or changed, as
/// the model files declare them.
///
/// Elements are matched by name (an entity by its name, a property by its
/// entity's and its own); a renamed element is a removal and an addition.
/// Properties are compared as each entity declares them, not with what it
/// inherits: a change of parent entity is reported on the entity itself
/// (``Aspect/parentEntity``). A property that turns from an attribute into
/// a relationship, or back, is removed and added.
///
/// Changes come in the first model's order (each entity, then its
/// properties), followed by the entities only the second model has.
public struct ModelDiff: Equatable, Sendable {
    public var changes: [Change]

    /// Whether the models declare the same entities, attributes and
    /// relationships with the same aspects.
    public var isIdentical: Bool { changes.isEmpty }

    /// How many changes are of `kind`.
    public func count(_ kind: Kind) -> Int { changes.filter { $0.kind == kind }.count }

    /// The differences from `old` to `new`.
    public init(from old: CoreDataModelXML, to new: CoreDataModelXML) {
        var changes: [Change] = []
        var seen: Set<String> = []
        for entity in old.entities where seen.insert(entity.name).inserted {
            guard let other = new.entity(named: entity.name) else {
                changes.append(Change(.removed, .entity, entity: entity.name, summary: Self.summary(of: entity)))
                continue
            }
            let aspects = Self.compare([
                (.parentEntity, entity.parent, other.parent),
                (.abstract, Self.flag(entity.isAbstract), Self.flag(other.isAbstract)),
            ])
            if !aspects.isEmpty { changes.append(Change(.changed, .entity, entity: entity.name, aspects: aspects)) }
            changes += Self.compareProperties(of: entity, with: other)
        }
        for entity in new.entities where seen.insert(entity.name).inserted {
            changes.append(Change(.added, .entity, entity: entity.name, summary: Self.summary(of: entity)))
        }
        self.changes = changes
    }

    /// An attribute or a relationship, as a declaration lists it.
    enum Property {
        case attribute(CoreDataModelXML.Attribute)
        case relationship(CoreDataModelXML.Relationship)

        var name: String {
            switch self {
            case .attribute(let a): a.name
            case .relationship(let r): r.name
            }
        }

        var element: Element {
            switch self {
            case .attribute: .attribute
            case .relationship: .relationship
            }
        }

        var summary: String {
            switch self {
            case .attribute(let a): ModelDiff.summary(of: a)
            case .relationship(let r): ModelDiff.summary(of: r)
            }
        }

        /// An entity's properties, attributes first, each name once (the
        /// first declaration of a name that a file repeats).
        static func of(_ entity: CoreDataModelXML.Entity) -> [Property] {
            var seen: Set<String> = []
            let all = entity.attributes.map(Property.attribute) + entity.relationships.map(Property.relationship)
            return all.filter { seen.insert($0.name).inserted }
        }
    }

    /// The property changes between two declarations of one entity: the
    /// old declaration's properties in order (removed or changed), then
    /// those only the new one has. A name that is an attribute in one and
    /// a relationship in the other is removed and added.
    static func compareProperties(of old: CoreDataModelXML.Entity, with new: CoreDataModelXML.Entity) -> [Change] {
        let entity = old.name
        let newProperties = Property.of(new)
        let newByName = Dictionary(newProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [Change] = []
        var matched: Set<String> = []
        for property in Property.of(old) {
            switch (property, newByName[property.name]) {
            case (.attribute(let a), .attribute(let b)?):
                matched.insert(a.name)
                let aspects = compare([
                    (.type, a.type, b.type),
                    (.optional, flag(a.isOptional), flag(b.isOptional)),
                    (.defaultValue, defaultText(a), defaultText(b)),
                    (.derivation, a.derivation, b.derivation),
                    (.transient, flag(a.isTransient), flag(b.isTransient)),
                ])
                if !aspects.isEmpty { changes.append(Change(.changed, .attribute, entity: entity, property: a.name, aspects: aspects)) }
            case (.relationship(let a), .relationship(let b)?):
                matched.insert(a.name)
                let aspects = compare([
                    (.destination, a.destination, b.destination),
                    (.inverse, a.inverse, b.inverse),
                    (.toMany, flag(a.isToMany), flag(b.isToMany)),
                    (.ordered, flag(a.isOrdered), flag(b.isOrdered)),
                    (.optional, flag(a.isOptional), flag(b.isOptional)),
                    (.deleteRule, a.deleteRule, b.deleteRule),
                    (.transient, flag(a.isTransient), flag(b.isTransient)),
                ])
                if !aspects.isEmpty { changes.append(Change(.changed, .relationship, entity: entity, property: a.name, aspects: aspects)) }
            default:
                changes.append(Change(.removed, property.element, entity: entity, property: property.name, summary: property.summary))
            }
        }
        for property in newProperties where !matched.contains(property.name) {
            changes.append(Change(.added, property.element, entity: entity, property: property.name, summary: property.summary))
        }
        return changes
    }

    /// The aspects whose values differ, in the order given.
    static func compare(_ pairs: [(Aspect, String?, String?)]) -> [AspectChange] {
        pairs.compactMap { aspect, old, new in old == new ? nil : AspectChange(aspect, old: old, new: new) }
    }

    /// A flag as Core Data's files write it.
    static func flag(_ value: Bool) -> String { value ? "YES" : "NO" }

    /// An attribute's default: a Date's interval as the date it is
    /// (`2021-01-01T00:00:00Z`), otherwise `defaultValueString` as written.
    static func defaultText(_ attribute: CoreDataModelXML.Attribute) -> String? {
        if let interval = attribute.defaultDateTimeInterval {
            guard let seconds = Double(interval), seconds.isFinite else { return interval }
            return Date(timeIntervalSinceReferenceDate: seconds).formatted(.iso8601)
        }
        return attribute.defaultValue
    }

    /// `abstract, parent Item, 3 attributes, 2 relationships`.
    static func summary(of entity: CoreDataModelXML.Entity) -> String {
        var parts: [String] = []
        if entity.isAbstract { parts.append("abstract") }
        if let parent = entity.parent { parts.append("parent \(parent)") }
        parts.append(entity.attributes.count == 1 ? "1 attribute" : "\(entity.attributes.count) attributes")
        parts.append(entity.relationships.count == 1 ? "1 relationship" : "\(entity.relationships.count) relationships")
        return parts.joined(separator: ", ")
    }

    /// `Integer 16, optional, default 0`.
    static func summary(of attribute: CoreDataModelXML.Attribute) -> String {
        var parts = [attribute.type]
        if attribute.isOptional { parts.append("optional") }
        if let value = defaultText(attribute) { parts.append("default \(value)") }
        if let derivation = attribute.derivation { parts.append("derived as \(derivation)") }
        if attribute.isTransient { parts.append("transient") }
        return parts.joined(separator: ", ")
    }

    /// `to-many Tag, inverse posts, ordered, Cascade`.
    static func summary(of relationship: CoreDataModelXML.Relationship) -> String {
        var parts = ["\(relationship.isToMany ? "to-many" : "to-one") \(relationship.destination)"]
        parts.append(relationship.inverse.map { "inverse \($0)" } ?? "no inverse")
        if relationship.isOrdered { parts.append("ordered") }
        if relationship.isOptional { parts.append("optional") }
        parts.append(relationship.deleteRule)
        return parts.joined(separator: ", ")
    }
}
