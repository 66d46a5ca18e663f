/// Keeps derived attributes (``Derivation``) up to date: inside the write
/// transaction of a save or batch request, recomputes them with one UPDATE
/// per derived attribute for the rows the changes affect, and reads the new
/// values back so that contexts and the row cache hold them.
enum DerivedAttributes {
    /// Recomputes what `changes` affect. Returns the new derived values of
    /// each affected object (attribute index → value).
    static func update(_ changes: ChangeSet, model: Model, on connection: Connection) throws -> [ObjectID: [Int: Value]] {
        var result: [ObjectID: [Int: Value]] = [:]
        let touched = changes.inserted.union(changes.updated).union(changes.deleted)
        guard !touched.isEmpty else { return result }
        for entity in model.entities {
            let derived = entity.attributes.filter { $0.derivation != nil }
            guard !derived.isEmpty else { continue }
            var targets = Set(changes.inserted.union(changes.updated).filter { $0.entity === entity }.map(\.primaryKey))
            for attribute in derived {
                switch attribute.derivation! {
                case .count(let name), .sum(let name, _):
                    let relationship = entity.relationship(named: name)!
                    let destination = model.destination(of: relationship)
                    let changed = touched.filter { $0.entity === destination }
                    guard !changed.isEmpty else { continue }
                    guard let owners = relationship.sql.ownersOfDestinations else { continue }
                    try connection.query(owners, [KeyList.argument(changed.sorted())]) { targets.insert($0.int64(0)) }
                case .lowercase:
                    break
                }
            }
            targets.subtract(changes.deleted.filter { $0.entity === entity }.map(\.primaryKey))
            guard !targets.isEmpty else { continue }
            let ids = targets.sorted().map { ObjectID(entity: entity, primaryKey: $0) }
            let list = KeyList.argument(ids)
            let table = quoted(entity.table)
            var assignments: [String] = []
            for attribute in derived {
                assignments.append("\(quoted(attribute.column)) = \(expression(attribute.derivation!, of: entity, model: model))")
            }
            try connection.run(
                "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE pk IN (SELECT value FROM json_each(?))", [list])
            try connection.query(
                "SELECT pk, \(derived.map { quoted($0.column) }.joined(separator: ", ")) FROM \(table) WHERE pk IN (SELECT value FROM json_each(?))",
                [list]
            ) { row in
                var values: [Int: Value] = [:]
                for (offset, attribute) in derived.enumerated() {
                    values[attribute.index] = Value.read(row, offset + 1, as: attribute.type)
                }
                result[ObjectID(entity: entity, primaryKey: row.int64(0))] = values
            }
        }
        return result
    }

    /// The SQL that computes a derivation for the row of `entity` being updated.
    static func expression(_ derivation: Derivation, of entity: EntityDescription, model: Model) -> String {
        let table = quoted(entity.table)
        switch derivation {
        case .lowercase(let name):
            return "faultline_fold(\(table).\(quoted(name)), 1)"
        case .count(let name), .sum(let name, _):
            let relationship = entity.relationship(named: name)!
            var summed: String?
            if case .sum(_, let attribute) = derivation { summed = "d.\(quoted(attribute))" }
            let select = summed.map { "COALESCE(SUM(\($0)), 0)" } ?? "COUNT(*)"
            guard let destinations = relationship.sql.destinations(of: table, alias: "d", joinAlias: "j") else { return "NULL" }
            return "(\(destinations.select(select, bare: summed == nil)))"
        }
    }
}
