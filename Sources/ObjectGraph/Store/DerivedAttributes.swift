/// Keeps derived attributes (``Derivation``) up to date: inside the write
/// transaction of a save or batch request, recomputes them with one UPDATE
/// per entity of the rows the changes affect (``DerivedAttributeSQL``), and
/// reads the new values back so that contexts and the row cache hold them.
enum DerivedAttributes {
    /// Recomputes what `changes` affect. Returns the new derived values of
    /// each affected object (attribute index → value).
    static func update(_ changes: ChangeSet, model: Model, on connection: Connection) throws -> [ObjectID: [Int: Value]] {
        var result: [ObjectID: [Int: Value]] = [:]
        guard model.entities.contains(where: { !$0.derivedAttributes.isEmpty }) else { return result }
        let touched = changes.inserted.union(changes.updated).union(changes.deleted)
        guard !touched.isEmpty else { return result }
        for entity in model.entities {
            // The derived attributes the entity declares: its subentities
            // inherit them (same columns, same table), and are updated with it.
            let derived = entity.derivedAttributes.filter { $0.declaringEntityIndex == entity.index }
            guard !derived.isEmpty else { continue }
            var targets = Set(changes.inserted.union(changes.updated).filter { $0.entity.isKind(of: entity) }.map(\.primaryKey))
            for attribute in derived {
                switch attribute.derivation! {
                case .count(let name), .sum(let name, _):
                    let relationship = entity.relationship(named: name)!
                    let destination = model.destination(of: relationship)
                    let changed = touched.filter { $0.entity.isKind(of: destination) }
                    guard !changed.isEmpty else { continue }
                    guard let owners = relationship.sql.ownersOfDestinations?.bound(to: changed.sorted()) else { continue }
                    try connection.query(owners.sql, [owners.argument]) { targets.insert($0.int64(0)) }
                case .lowercase:
                    break
                }
            }
            targets.subtract(changes.deleted.filter { $0.entity.isKind(of: entity) }.map(\.primaryKey))
            guard !targets.isEmpty else { continue }
            let ids = targets.sorted().map { ObjectID(entity: entity, primaryKey: $0) }
            let update = DerivedAttributeSQL.update(derived, of: entity, model: model).bound(to: ids)
            try connection.run(update.sql, [update.argument])
            let select = DerivedAttributeSQL.select(derived, of: entity).bound(to: ids)
            let first = entity.sql.hasEntityColumn ? 2 : 1
            try connection.query(select.sql, [select.argument]) { row in
                let id = entity.objectID(row, model: model)
                for (offset, attribute) in derived.enumerated() {
                    result[id, default: [:]][attribute.index] = Value.read(row, first + offset, as: attribute.type)
                }
            }
        }
        return result
    }
}
