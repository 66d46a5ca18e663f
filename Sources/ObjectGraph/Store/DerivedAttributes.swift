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
                    let list = KeyList.argument(changed.sorted())
                    switch relationship.storage {
                    case .joinTable(let table, let source, let target):
                        try connection.query(
                            "SELECT \(source) FROM \(quoted(table)) WHERE \(target) IN (SELECT value FROM json_each(?))", [list]
                        ) { targets.insert($0.int64(0)) }
                    case .inverseForeignKey(let column):
                        try connection.query(
                            "SELECT \(quoted(column)) FROM \(quoted(destination.table)) WHERE pk IN (SELECT value FROM json_each(?)) AND \(quoted(column)) IS NOT NULL",
                            [list]
                        ) { targets.insert($0.int64(0)) }
                    case .foreignKey:
                        break
                    }
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
            let destination = model.destination(of: relationship)
            var summed: String?
            if case .sum(_, let attribute) = derivation { summed = "d.\(quoted(attribute))" }
            let select = summed.map { "COALESCE(SUM(\($0)), 0)" } ?? "COUNT(*)"
            switch relationship.storage {
            case .joinTable(let joinTable, let source, let target):
                if summed == nil {
                    return "(SELECT COUNT(*) FROM \(quoted(joinTable)) j WHERE j.\(source) = \(table).pk)"
                }
                return "(SELECT \(select) FROM \(quoted(joinTable)) j JOIN \(quoted(destination.table)) d ON d.pk = j.\(target) "
                    + "WHERE j.\(source) = \(table).pk)"
            case .inverseForeignKey(let column):
                return "(SELECT \(select) FROM \(quoted(destination.table)) d WHERE d.\(quoted(column)) = \(table).pk)"
            case .foreignKey:
                return "NULL"
            }
        }
    }
}
