/// The statements that recompute an entity's derived attributes
/// (``Derivation``) for a list of its rows, inside a save's or a batch
/// request's transaction, and read the new values back.
enum DerivedAttributeSQL {
    /// `UPDATE "E" SET "a" = <expression>, … WHERE pk IN (…)`, one
    /// expression per derived attribute, computed by SQLite from the row
    /// itself. Binds the rows' ``KeyList``.
    static func update(_ derived: [AttributeDescription], of entity: EntityDescription, model: Model) -> KeyListStatement {
        let assignments = derived.map { "\(quoted($0.column)) = \(expression($0.derivation!, of: entity, model: model))" }
        return KeyListStatement {
            "UPDATE \(entity.sql.table) SET \(assignments.joined(separator: ", ")) WHERE pk \($0)\(familyScope(of: entity))"
        }
    }

    /// `SELECT pk, "a", … FROM "E" WHERE pk IN (…)`: the recomputed values,
    /// after `pk, ent` in a table shared by a hierarchy (the rows may be of
    /// subentities). Binds the rows' ``KeyList``.
    static func select(_ derived: [AttributeDescription], of entity: EntityDescription) -> KeyListStatement {
        let keys = entity.sql.hasEntityColumn ? "pk, \(EntitySQL.entityColumn)" : "pk"
        return KeyListStatement {
            "SELECT \(keys), \(derived.map { quoted($0.column) }.joined(separator: ", ")) FROM \(entity.sql.table) WHERE pk \($0)"
                + familyScope(of: entity)
        }
    }

    /// ` AND ent IN (…)`: only rows of `entity` and its subentities, in a
    /// table shared by a hierarchy whose other entities do not have the
    /// attribute (the owners of a relationship `entity` inherits may be of
    /// any of them); empty for a whole table.
    private static func familyScope(of entity: EntityDescription) -> String {
        guard entity.sql.familyCondition != nil else { return "" }
        return " AND \(EntitySQL.entityColumn) IN (\(entity.layout.familyCodes.sorted().map(String.init).joined(separator: ", ")))"
    }

    /// The value of a derivation for the row of `entity` being updated:
    /// `faultline_fold("E"."name", 1)`, or a count or sum of the to-many's
    /// destinations correlated to the row (`NULL` for a to-one, which the
    /// model does not allow).
    static func expression(_ derivation: Derivation, of entity: EntityDescription, model: Model) -> String {
        let table = entity.sql.table
        switch derivation {
        case .lowercase(let name):
            return "faultline_fold(\(table).\(quoted(entity.attribute(named: name)!.column)), 1)"
        case .count(let name), .sum(let name, _):
            let relationship = entity.relationship(named: name)!
            var summed: String?
            if case .sum(_, let attribute) = derivation {
                summed = "d.\(quoted(model.destination(of: relationship).attribute(named: attribute)!.column))"
            }
            let select = summed.map { "COALESCE(SUM(\($0)), 0)" } ?? "COUNT(*)"
            guard let destinations = relationship.sql.destinations(of: table, alias: "d", joinAlias: "j") else { return "NULL" }
            return destinations.scalar(select, bare: summed == nil)
        }
    }
}
