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
            let derived = entity.derivedAttributes
            guard !derived.isEmpty else { continue }
            var targets = Set(changes.inserted.union(changes.updated).filter { $0.entity === entity }.map(\.primaryKey))
            for attribute in derived {
                switch attribute.derivation! {
                case .count(let name), .sum(let name, _):
                    let relationship = entity.relationship(named: name)!
                    let destination = model.destination(of: relationship)
                    let changed = touched.filter { $0.entity === destination }
                    guard !changed.isEmpty else { continue }
                    guard let owners = relationship.sql.ownersOfDestinations?.bound(to: changed.sorted()) else { continue }
                    try connection.query(owners.sql, [owners.argument]) { targets.insert($0.int64(0)) }
                case .lowercase:
                    break
                }
            }
            targets.subtract(changes.deleted.filter { $0.entity === entity }.map(\.primaryKey))
            guard !targets.isEmpty else { continue }
            let ids = targets.sorted().map { ObjectID(entity: entity, primaryKey: $0) }
            let update = DerivedAttributeSQL.update(derived, of: entity).bound(to: ids)
            try connection.run(update.sql, [update.argument])
            let select = DerivedAttributeSQL.select(derived, of: entity).bound(to: ids)
            try connection.query(select.sql, [select.argument]) { row in
                var values: [Int: Value] = [:]
                for (offset, attribute) in derived.enumerated() {
                    values[attribute.index] = Value.read(row, offset + 1, as: attribute.type)
                }
                result[ObjectID(entity: entity, primaryKey: row.int64(0))] = values
            }
        }
        return result
    }
}
