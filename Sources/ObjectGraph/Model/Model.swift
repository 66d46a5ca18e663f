/// The entities of an object graph, checked and resolved.
///
/// Building a model checks it whole: names are plain identifiers, every
/// relationship's destination and inverse exist and agree, defaults fit
/// their attribute's type, constraints name real attributes. The store keeps
/// a hash of ``canonicalDescription`` and refuses a file made with another
/// model.
public final class Model: Sendable {
    /// The entities, in the order they were declared: an entity's position
    /// here is its ``EntityDescription/index``.
    public let entities: [EntityDescription]
    private let entityIndex: [String: Int]

    /// One line per entity, attribute, relationship and constraint, sorted:
    /// what the model hash covers, and what a mismatch error compares.
    public let canonicalDescription: [String]
    /// FNV-1a (64 bits) of the canonical description, in hex.
    public let hash: String

    /// Builds and checks the model from its entity declarations.
    ///
    /// - Throws: ``ObjectGraphError/invalidModel(_:)`` naming the first
    ///   problem: a name that is not a plain identifier or is reserved, an
    ///   entity or property declared twice, a destination, inverse or parent
    ///   that does not exist or does not agree, a default or derivation that
    ///   does not fit its attribute, a constraint on an unknown attribute, a
    ///   table of more columns than SQLite allows.
    public init(_ declarations: [Entity]) throws(ObjectGraphError) {
        var names = Set<String>()
        for declaration in declarations {
            try Self.checkIdentifier(declaration.name, what: "entity name")
            guard names.insert(declaration.name).inserted else {
                throw .invalidModel("entity \(declaration.name) is declared twice")
            }
        }
        let positions = Dictionary(uniqueKeysWithValues: declarations.enumerated().map { ($1.name, $0) })
        let hierarchy = try EntityHierarchy(declarations, positions: positions)

        // Each entity's attributes and relationships: its parent's, then its
        // own, so that an inherited property has one position in every
        // entity that has it. Columns are given in the table of the
        // inheritance root, parents first.
        var attributesOf = [[AttributeDescription]](repeating: [], count: declarations.count)
        var relationshipsOf = [[RelationshipDescription]](repeating: [], count: declarations.count)
        var columns = TableColumns(hierarchy: hierarchy, names: declarations.map(\.name))
        for entity in hierarchy.order {
            let declaration = declarations[entity]
            let parent = hierarchy.parents[entity]
            var attributes = parent.map { attributesOf[$0] } ?? []
            var relationships = parent.map { relationshipsOf[$0] } ?? []
            let inherited = Set(attributes.map(\.name)).union(relationships.map(\.name))
            var propertyNames = Set<String>()
            for property in declaration.properties {
                try Self.checkIdentifier(property.name, what: "property name in \(declaration.name)")
                guard property.name != "pk", !property.name.hasSuffix("_pk") else {
                    throw .invalidModel("\(declaration.name).\(property.name): names \"pk\" and \"…_pk\" are reserved for keys")
                }
                guard propertyNames.insert(property.name).inserted else {
                    throw .invalidModel("\(declaration.name).\(property.name) is declared twice")
                }
                guard !inherited.contains(property.name) else {
                    throw .invalidModel(
                        "\(declaration.name).\(property.name) is inherited from \(declarations[parent!].name): a subentity cannot declare it again")
                }
                switch property {
                case .attribute(var attribute):
                    guard let converted = attribute.defaultValue.converted(to: attribute.type) else {
                        throw .invalidModel(
                            "\(declaration.name).\(attribute.name): default \(attribute.defaultValue) is not a \(attribute.type.rawValue)")
                    }
                    attribute.defaultValue = converted
                    attribute.index = attributes.count
                    attribute.declaringEntityIndex = entity
                    attribute.column = try columns.allocate(attribute.name, for: entity)
                    attributes.append(attribute)
                case .relationship(var relationship):
                    guard let destination = positions[relationship.destinationName] else {
                        throw .invalidModel(
                            "\(declaration.name).\(relationship.name): destination entity \(relationship.destinationName) does not exist")
                    }
                    relationship.index = relationships.count
                    relationship.destinationIndex = destination
                    relationship.declaringEntityIndex = entity
                    if !relationship.isToMany {
                        relationship.storage = .foreignKey(column: try columns.allocate(relationship.name, suffix: "_pk", for: entity))
                    }
                    relationships.append(relationship)
                }
            }
            attributesOf[entity] = attributes
            relationshipsOf[entity] = relationships
        }

        // Inverses and storage, where each relationship is declared; a
        // subentity takes its parent's (parents come first in the order).
        for entity in hierarchy.order {
            let declaration = declarations[entity]
            for r in relationshipsOf[entity].indices {
                var relationship = relationshipsOf[entity][r]
                if relationship.declaringEntityIndex != entity {
                    relationshipsOf[entity][r] = relationshipsOf[hierarchy.parents[entity]!][r]
                    continue
                }
                let label = "\(declaration.name).\(relationship.name)"
                let destination = relationship.destinationIndex
                if let inverseName = relationship.inverseName {
                    guard let inverse = relationshipsOf[destination].firstIndex(where: { $0.name == inverseName }) else {
                        throw .invalidModel("\(label): inverse \(relationship.destinationName).\(inverseName) does not exist")
                    }
                    let other = relationshipsOf[destination][inverse]
                    // The inverse may point at this entity, an ancestor or a
                    // subentity of it (Core Data accepts each; real models
                    // have them): it must point into this entity's hierarchy.
                    let related = hierarchy.isKind(entity, of: other.destinationIndex) || hierarchy.isKind(other.destinationIndex, of: entity)
                    guard related, other.inverseName == relationship.name else {
                        throw .invalidModel(
                            "\(label): inverse \(relationship.destinationName).\(inverseName) does not name \(label) as its inverse")
                    }
                    // A to-many is read through its inverse's column or join
                    // rows: an inverse declared above the destination would
                    // hold the destination's siblings too.
                    if relationship.isToMany, other.declaringEntityIndex != destination,
                        hierarchy.isKind(destination, of: other.declaringEntityIndex)
                    {
                        throw .invalidModel(
                            "\(label): inverse \(inverseName) is declared by \(declarations[other.declaringEntityIndex].name), "
                                + "above \(relationship.destinationName): a to-many's inverse must be declared by its destination")
                    }
                    if other.declaringEntityIndex == entity, inverse == r, relationship.isToMany {
                        throw .invalidModel("\(label): a to-many relationship cannot be its own inverse")
                    }
                    relationship.inverseIndex = inverse
                    if !relationship.isToMany {
                        // Its foreign key column was given with the columns.
                    } else if !other.isToMany, case .foreignKey(let column) = other.storage {
                        relationship.storage = .inverseForeignKey(column: column)
                    } else {
                        let mine = "\(declaration.name)_\(relationship.name)"
                        let theirs = "\(declarations[other.declaringEntityIndex].name)_\(other.name)"
                        relationship.storage = mine < theirs
                            ? .joinTable(table: mine, sourceColumn: "source", destinationColumn: "destination")
                            : .joinTable(table: theirs, sourceColumn: "destination", destinationColumn: "source")
                    }
                } else if relationship.isToMany {
                    relationship.storage = .joinTable(
                        table: "\(declaration.name)_\(relationship.name)", sourceColumn: "source", destinationColumn: "destination")
                }
                relationshipsOf[entity][r] = relationship
            }
        }

        for (entity, declaration) in declarations.enumerated() {
            for attribute in attributesOf[entity] where attribute.declaringEntityIndex == entity {
                guard let derivation = attribute.derivation else { continue }
                let label = "\(declaration.name).\(attribute.name)"
                switch derivation {
                case .count(let name), .sum(let name, _):
                    guard let relationship = relationshipsOf[entity].first(where: { $0.name == name }), relationship.isToMany else {
                        throw .invalidModel("\(label): derived from \(name), which is not a to-many relationship of \(declaration.name)")
                    }
                    guard [.int16, .int32, .int64, .double].contains(attribute.type) else {
                        throw .invalidModel("\(label): a derived \(derivation) needs a number type, not \(attribute.type.rawValue)")
                    }
                    if case .sum(_, let summed) = derivation {
                        let destination = attributesOf[relationship.destinationIndex]
                        guard let target = destination.first(where: { $0.name == summed }),
                            [.int16, .int32, .int64, .double].contains(target.type)
                        else {
                            throw .invalidModel("\(label): \(relationship.destinationName).\(summed) is not a number attribute")
                        }
                    }
                case .lowercase(let name):
                    guard let source = attributesOf[entity].first(where: { $0.name == name }), source.type == .string,
                        attribute.type == .string
                    else {
                        throw .invalidModel("\(label): lowercase needs a string attribute \(name) and a string type")
                    }
                }
            }
            for constraint in declaration.uniquenessConstraints {
                guard !constraint.isEmpty else { throw .invalidModel("\(declaration.name): empty uniqueness constraint") }
                for key in constraint where !attributesOf[entity].contains(where: { $0.name == key }) {
                    throw .invalidModel("\(declaration.name): uniqueness constraint names \(key), which is not an attribute")
                }
            }
        }

        let layouts = TableLayout.make(
            hierarchy: hierarchy, names: declarations.map(\.name), attributes: attributesOf, relationships: relationshipsOf)
        // SQLite refuses a table, or a SELECT, of more columns than its
        // limit: say so now, naming the entity, not at the store's first use.
        let limit = SQLiteLimits.columns
        for root in hierarchy.order where hierarchy.parents[root] == nil {
            let columns = layouts[root].snapshotColumns.components
            guard columns > limit else { continue }
            throw .invalidModel(
                "\(declarations[root].name): its table would have \(columns) columns, more than SQLite's limit of \(limit) (SQLITE_MAX_COLUMN)")
        }
        let statements = declarations.indices.map { index in
            EntitySQL(layout: layouts[index], attributes: attributesOf[index], relationships: relationshipsOf[index])
        }
        for entity in relationshipsOf.indices {
            for r in relationshipsOf[entity].indices {
                let relationship = relationshipsOf[entity][r]
                let destination = relationship.destinationIndex
                relationshipsOf[entity][r].sql = RelationshipSQL(
                    relationship, inverse: relationship.inverseIndex.map { relationshipsOf[destination][$0] },
                    owner: statements[entity], destination: statements[destination])
            }
        }
        let entities = declarations.enumerated().map { index, declaration in
            EntityDescription(
                name: declaration.name, index: index, attributes: attributesOf[index],
                relationships: relationshipsOf[index], uniquenessConstraints: declaration.uniquenessConstraints,
                objectType: declaration.objectType, isAbstract: declaration.isAbstract,
                parentName: hierarchy.parents[index].map { declarations[$0].name },
                subentityNames: hierarchy.children[index].map { declarations[$0].name }, hierarchy: hierarchy,
                layout: layouts[index], sql: statements[index])
        }
        let tables = Set(entities.map(\.table))
        for entity in entities {
            for relationship in entity.relationships {
                if let table = relationship.sql.joinTable?.name, tables.contains(table) {
                    throw .invalidModel("\(entity.name).\(relationship.name): join table \(table) has the name of an entity")
                }
            }
        }
        self.entities = entities
        self.entityIndex = positions
        self.canonicalDescription = Self.describe(entities)
        self.hash = Self.fnv1a(canonicalDescription.joined(separator: "\n"))
    }

    /// The entity whose code (``EntityDescription/index``) a row's entity
    /// column holds, when it is `expected` or one of its subentities;
    /// `expected` otherwise (a NULL or a code from another model).
    @inline(__always)
    func entity(code: Int64, kindOf expected: EntityDescription) -> EntityDescription {
        guard code >= 0, code < entities.count else { return expected }
        let entity = entities[Int(code)]
        return entity.isKind(of: expected) ? entity : expected
    }

    /// The entity with this name.
    public func entity(named name: String) -> EntityDescription? {
        entityIndex[name].map { entities[$0] }
    }

    /// `Table.column` of every indexed attribute (the insight rules give no
    /// advice to add an index that exists).
    public var indexedColumns: Set<String> {
        Set(entities.flatMap { entity in entity.attributes.filter(\.isIndexed).map { "\(entity.name).\($0.name)" } })
    }

    /// The entity with this name, or an `unknownEntity` error.
    public func entity(_ name: String) throws(ObjectGraphError) -> EntityDescription {
        guard let entity = entity(named: name) else { throw .unknownEntity(name) }
        return entity
    }

    /// The destination entity of a relationship.
    public func destination(of relationship: RelationshipDescription) -> EntityDescription {
        entities[relationship.destinationIndex]
    }

    /// The inverse of a relationship, when it has one.
    public func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        relationship.inverseIndex.map { entities[relationship.destinationIndex].relationships[$0] }
    }

    // MARK: Checking

    private static func checkIdentifier(_ name: String, what: String) throws(ObjectGraphError) {
        let bytes = Array(name.utf8)
        let isLetter = { (b: UInt8) in (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 }
        let isDigit = { (b: UInt8) in b >= 48 && b <= 57 }
        guard let first = bytes.first, isLetter(first), bytes.allSatisfy({ isLetter($0) || isDigit($0) }),
            !name.lowercased().hasPrefix("sqlite_"), !name.lowercased().hasPrefix("faultline_")
        else {
            throw .invalidModel("\(what) \"\(name)\" is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*, no sqlite_ or faultline_ prefix)")
        }
    }

    // MARK: Hash

    private static func describe(_ entities: [EntityDescription]) -> [String] {
        var lines: [String] = []
        for entity in entities {
            // Flat entities keep the line they always had (their stores'
            // hashes stay valid); an entity of a hierarchy adds its parent,
            // whether it is abstract, and the code its rows carry.
            if entity.sql.hasEntityColumn {
                lines.append(
                    "entity \(entity.name) code=\(entity.index)" + (entity.parentName.map { " parent=\($0)" } ?? "")
                        + (entity.isAbstract ? " abstract" : ""))
            } else {
                lines.append("entity \(entity.name)" + (entity.isAbstract ? " abstract" : ""))
            }
            for a in entity.attributes where a.declaringEntityIndex == entity.index {
                lines.append(
                    "attribute \(entity.name).\(a.name) \(a.type.rawValue)\(a.isOptional ? " optional" : "")"
                        + " default=\(a.defaultValue)\(a.isIndexed ? " indexed" : "")"
                        + (a.derivation.map { " derived=\($0)" } ?? "") + (a.column != a.name ? " column=\(a.column)" : ""))
            }
            for r in entity.relationships where r.declaringEntityIndex == entity.index {
                lines.append(
                    "relationship \(entity.name).\(r.name) \(r.isToMany ? "to-many" : "to-one") \(r.destinationName)"
                        + " inverse=\(r.inverseName ?? "none") delete=\(r.deleteRule.rawValue)\(r.isOptional ? "" : " required")")
            }
            for constraint in entity.uniquenessConstraints {
                lines.append("unique \(entity.name) (\(constraint.joined(separator: ", ")))")
            }
        }
        return lines.sorted()
    }

    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
