/// The statements of batch requests that are not an entity's or a
/// relationship's own: the UPDATE of a batch update, the upsert of a batch
/// insert, and the selection of the rows a request applies to.
enum BatchSQL {
    /// One column a batch update sets.
    enum Assignment {
        /// `"column" = ?`: binds the value.
        case value(column: String)
        /// `"column" = "source" + ?`: binds the operand.
        case arithmetic(column: String, source: String, UpdateExpression.ArithmeticOperator)
    }

    /// `UPDATE "E" SET … [WHERE pk IN (<matching keys>)] [RETURNING pk]`.
    /// Binds the assignments' values in order, then the condition's.
    static func update(
        _ entity: EntityDescription, setting assignments: [Assignment], matching query: (from: String, condition: String)?,
        returningKeys: Bool
    ) -> String {
        let set = assignments.map { assignment in
            switch assignment {
            case .value(let column): "\(quoted(column)) = ?"
            case .arithmetic(let column, let source, let op): "\(quoted(column)) = \(quoted(source)) \(op.rawValue) ?"
            }
        }
        var sql = "UPDATE \(entity.sql.table) SET \(set.joined(separator: ", "))"
        if let query { sql += " WHERE pk IN (SELECT t0.pk FROM \(query.from) WHERE \(query.condition))" }
        return returningKeys ? sql + " RETURNING \(returnedKeys(entity))" : sql
    }

    /// `INSERT INTO "E" (pk, "a", …) VALUES (?, …) [ON CONFLICT (…) DO
    /// UPDATE SET "b" = excluded."b", … | DO NOTHING] RETURNING pk`: one row,
    /// an upsert on the entity's first uniqueness constraint when it has
    /// one (the returned key is then the existing row's). Binds the new
    /// primary key, then the attributes in order.
    static func insert(_ entity: EntityDescription) -> String {
        let shared = entity.sql.hasEntityColumn
        let columns = ["pk"] + (shared ? [EntitySQL.entityColumn] : []) + entity.attributes.map { quoted($0.column) }
        let values = ["?"] + (shared ? ["\(entity.index)"] : []) + Array(repeating: "?", count: entity.attributes.count)
        var sql = "INSERT INTO \(entity.sql.table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
        if let constraint = entity.uniquenessConstraints.first {
            let updates = entity.attributes.filter { !constraint.contains($0.name) }
                .map { "\(quoted($0.column)) = excluded.\(quoted($0.column))" }
            let target = constraint.map { quoted(entity.attribute(named: $0)!.column) }.joined(separator: ", ")
            // A subentity's constraint is a partial index over its family's
            // rows (``SchemaSQL``): the conflict target names it whole.
            let scope = entity.sql.familyCondition.map { " WHERE " + $0.dropFirst(3) } ?? ""
            sql += " ON CONFLICT (\(target))\(scope) DO "
                + (updates.isEmpty ? "NOTHING" : "UPDATE SET \(updates.joined(separator: ", "))")
        }
        return sql + " RETURNING \(returnedKeys(entity))"
    }

    /// `pk`, or `pk, ent` in a table shared by a hierarchy: what a
    /// `RETURNING` clause gives back to make object IDs.
    private static func returnedKeys(_ entity: EntityDescription) -> String {
        entity.sql.hasEntityColumn ? "pk, \(EntitySQL.entityColumn)" : "pk"
    }

    /// `SELECT t0.pk[, t0.ent] FROM <from> WHERE <condition>`: the keys of the rows a
    /// compiled predicate matches (``QueryBuilder``'s FROM and WHERE), or
    /// every key without one. Binds the condition's values.
    static func selectKeys(_ entity: EntityDescription, matching query: (from: String, condition: String)?) -> String {
        guard let query else { return entity.sql.selectAllKeys }
        return "SELECT \(entity.sql.keyColumns) FROM \(query.from) WHERE \(query.condition)"
    }
}
