/// Where an entity's rows are and how a row snapshot reads them: the table
/// (its inheritance root's), the columns a snapshot selects, and the
/// position of each of the entity's attributes and to-one keys among them.
///
/// A flat entity has its own table and reads `pk`, its attributes, then its
/// to-one foreign keys. Every entity of an inheritance hierarchy reads the
/// whole row of the shared table (`pk`, `ent`, every entity's attributes,
/// every to-one's key), so that one SELECT of a parent reads any
/// subentity's row; each entity knows where its own values are in it. A
/// to-one whose destination has subentities also reads the destination's
/// entity, `(SELECT e.ent FROM "Item" e WHERE e.pk = t0."item_pk")`, so
/// that the object it points to is made of the right entity.
struct TableLayout: Sendable {
    /// The table's name, unquoted: the inheritance root's name.
    let table: String
    /// Whether the table holds several entities, told apart by `ent`.
    let hasEntityColumn: Bool
    /// The snapshot's columns, `t0.pk, …`, and how many there are.
    let snapshotColumns: (text: String, components: Int)
    /// Each attribute's column position in a snapshot row, by attribute index.
    let attributePositions: [Int]
    /// Each to-one's key position in a snapshot row, by relationship index
    /// (-1 for a to-many).
    let toOneKeyPositions: [Int]
    /// Each to-one's destination-entity position, by relationship index
    /// (-1 when the destination has no subentities).
    let toOneEntityPositions: [Int]
    /// The codes (`ent` values) of the entity and its subentities, the
    /// entity's first.
    let familyCodes: [Int]
    /// Whether the entity is the table's root (every row is of its family).
    let isRoot: Bool

    static func make(
        hierarchy: EntityHierarchy, names: [String], attributes: [[AttributeDescription]], relationships: [[RelationshipDescription]]
    ) -> [TableLayout] {
        var layouts: [TableLayout?] = Array(repeating: nil, count: names.count)
        for root in hierarchy.order where hierarchy.parents[root] == nil {
            let members = hierarchy.family(of: root)
            let shared = members.count > 1
            var columns = ["t0.pk"] + (shared ? ["t0.\(EntitySQL.entityColumn)"] : [])
            var positions: [String: Int] = [:]
            for member in members {
                for attribute in attributes[member] where attribute.declaringEntityIndex == member {
                    positions[attribute.column] = columns.count
                    columns.append("t0.\(quoted(attribute.column))")
                }
            }
            for member in members {
                for relationship in relationships[member] where relationship.declaringEntityIndex == member {
                    guard case .foreignKey(let column) = relationship.storage else { continue }
                    positions[column] = columns.count
                    columns.append("t0.\(quoted(column))")
                }
            }
            var entityPositions: [String: Int] = [:]
            for member in members {
                for relationship in relationships[member] where relationship.declaringEntityIndex == member {
                    guard case .foreignKey(let column) = relationship.storage,
                        !hierarchy.children[relationship.destinationIndex].isEmpty
                    else { continue }
                    let destination = quoted(names[hierarchy.roots[relationship.destinationIndex]])
                    entityPositions[column] = columns.count
                    columns.append("(SELECT e.\(EntitySQL.entityColumn) FROM \(destination) e WHERE e.pk = t0.\(quoted(column)))")
                }
            }
            let snapshotColumns = (text: columns.joined(separator: ", "), components: columns.count)
            for member in members {
                let keyPositions = relationships[member].map { relationship -> Int in
                    guard case .foreignKey(let column) = relationship.storage else { return -1 }
                    return positions[column]!
                }
                let destinationPositions = relationships[member].map { relationship -> Int in
                    guard case .foreignKey(let column) = relationship.storage else { return -1 }
                    return entityPositions[column] ?? -1
                }
                layouts[member] = TableLayout(
                    table: names[root], hasEntityColumn: shared, snapshotColumns: snapshotColumns,
                    attributePositions: attributes[member].map { positions[$0.column]! }, toOneKeyPositions: keyPositions,
                    toOneEntityPositions: destinationPositions, familyCodes: hierarchy.family(of: member), isRoot: member == root)
            }
        }
        return layouts.map { $0! }
    }
}
