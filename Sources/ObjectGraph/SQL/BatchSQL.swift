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
        if let query { sql += " WHERE pk IN (\(selectKeys(entity, matching: query)))" }
        return returningKeys ? sql + " RETURNING pk" : sql
    }

    /// `INSERT INTO "E" (pk, "a", …) VALUES (?, …) [ON CONFLICT (…) DO
    /// UPDATE SET "b" = excluded."b", … | DO NOTHING] RETURNING pk`: one row,
    /// an upsert on the entity's first uniqueness constraint when it has
    /// one (the returned key is then the existing row's). Binds the new
    /// primary key, then the attributes in order.
    static func insert(_ entity: EntityDescription) -> String {
        let columns = ["pk"] + entity.attributes.map { quoted($0.column) }
        var sql = "INSERT INTO \(entity.sql.table) (\(columns.joined(separator: ", "))) VALUES "
            + "(\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        if let constraint = entity.uniquenessConstraints.first {
            let updates = entity.attributes.filter { !constraint.contains($0.name) }
                .map { "\(quoted($0.column)) = excluded.\(quoted($0.column))" }
            sql += " ON CONFLICT (\(constraint.map(quoted).joined(separator: ", "))) DO "
                + (updates.isEmpty ? "NOTHING" : "UPDATE SET \(updates.joined(separator: ", "))")
        }
        return sql + " RETURNING pk"
    }

    /// `SELECT t0.pk FROM <from> WHERE <condition>`: the keys of the rows a
    /// compiled predicate matches (``QueryBuilder``'s FROM and WHERE), or
    /// every key without one. Binds the condition's values.
    static func selectKeys(_ entity: EntityDescription, matching query: (from: String, condition: String)?) -> String {
        guard let query else { return entity.sql.selectAllKeys }
        return "SELECT t0.pk FROM \(query.from) WHERE \(query.condition)"
    }
}
