/// The statements on one entity's table: reading row snapshots, and
/// inserting, updating and deleting rows.
///
/// Built once with the model (``EntityDescription/sql``): the text depends
/// only on the entity, so a fault, a page of a batched fetch or a save does
/// not build it again, and the connections' statement caches find it by the
/// same string each time. Values are always bound, in the order each
/// statement's documentation gives.
final class EntitySQL: Sendable {
    /// The entity column of a table shared by an inheritance hierarchy:
    /// the code (``EntityDescription/index``) of each row's entity, Core
    /// Data's `Z_ENT`.
    static let entityColumn = "ent"

    /// The table, quoted: `"Person"` (an inheritance root's name for every
    /// entity of its hierarchy).
    let table: String
    /// Whether the table holds several entities: key reads then also read
    /// `ent`, right after the key (``keyColumns``, ``snapshotColumns``).
    let hasEntityColumn: Bool
    /// `t0.pk, t0."name", …, t0."company_pk"`: the columns a row snapshot
    /// reads (``TableLayout``): primary key, `ent` in a shared table,
    /// attributes, to-one foreign keys.
    let snapshotColumns: String
    /// `t0.pk`, or `t0.pk, t0.ent` in a shared table: what an object ID is
    /// read from.
    let keyColumns: String
    /// The condition that keeps this entity's rows (and its subentities')
    /// in a shared table, `t0.ent IN (2, 3)`; nil when every row of the
    /// table is one (a flat entity, or a hierarchy's root).
    let familyCondition: String?
    /// `t0.ent = 2`: only this entity's rows, not its subentities' (a fetch
    /// with `includesSubentities` false); nil for a flat entity.
    let exactCondition: String?
    /// `SELECT <snapshot columns> FROM "E" t0 WHERE t0.pk = ?`: the row of a
    /// fault. Binds the primary key.
    let selectRow: String
    /// `SELECT <snapshot columns> FROM "E" t0 WHERE t0.pk IN (…)`: the rows
    /// of a list of keys (a page of a batched fetch, prefetched
    /// destinations). Binds a ``KeyList``.
    let selectRows: String
    /// `SELECT <key columns> FROM "E" t0 [WHERE <family condition>]`: every key.
    let selectAllKeys: String
    /// `SELECT t0.pk, t0.ent FROM "E" t0 WHERE t0.pk IN (…)`: the entities
    /// of a list of rows of a shared table (``keyColumns`` for keys). Binds
    /// a ``KeyList``.
    let selectKeysOfRows: String
    /// `SELECT max(pk) FROM "E"`: where key allocation starts when a store opens.
    let selectMaximumKey: String
    /// `INSERT INTO "E" (pk, "a", …, "r_pk") VALUES (?, …)`: a whole row.
    /// Binds the primary key, the attributes in order, then the to-one
    /// foreign keys in relationship order. In a shared table the entity's
    /// code is part of the text (`ent` is the model's, not a user's value).
    let insertRow: String
    /// `DELETE FROM "E" WHERE pk = ?`. Binds the primary key.
    let deleteRow: String
    /// `DELETE FROM "E" WHERE pk IN (…)`. Binds a ``KeyList``.
    let deleteRows: String

    /// Quoted column of each attribute, by attribute index.
    let attributeColumns: [String]
    /// Quoted foreign key column of each to-one, by relationship index (nil
    /// for a to-many).
    private let foreignKeyColumns: [String?]

    init(layout: TableLayout, attributes: [AttributeDescription], relationships: [RelationshipDescription]) {
        let table = quoted(layout.table)
        self.table = table
        hasEntityColumn = layout.hasEntityColumn
        attributeColumns = attributes.map { quoted($0.column) }
        foreignKeyColumns = relationships.map { RelationshipSQL.foreignKeyColumn(of: $0).map(quoted) }
        let toOneColumns = foreignKeyColumns.compactMap { $0 }
        snapshotColumns = layout.snapshotColumns.text
        keyColumns = layout.hasEntityColumn ? "t0.pk, t0.\(Self.entityColumn)" : "t0.pk"
        let code = layout.familyCodes[0]
        let codes = layout.familyCodes.sorted()
        if layout.hasEntityColumn {
            exactCondition = "t0.\(Self.entityColumn) = \(code)"
            familyCondition = layout.isRoot ? nil
                : codes.count == 1 ? exactCondition
                : "t0.\(Self.entityColumn) IN (\(codes.map(String.init).joined(separator: ", ")))"
        } else {
            exactCondition = nil
            familyCondition = nil
        }
        selectRow = "SELECT \(snapshotColumns) FROM \(table) t0 WHERE t0.pk = ?"
        selectRows = "SELECT \(snapshotColumns) FROM \(table) t0 WHERE t0.pk \(KeyList.membership)"
        selectAllKeys = "SELECT \(keyColumns) FROM \(table) t0" + (familyCondition.map { " WHERE \($0)" } ?? "")
        selectKeysOfRows = "SELECT \(keyColumns) FROM \(table) t0 WHERE t0.pk \(KeyList.membership)"
        selectMaximumKey = "SELECT max(pk) FROM \(table)"
        let columns = ["pk"] + (layout.hasEntityColumn ? [Self.entityColumn] : []) + attributeColumns + toOneColumns
        let placeholders = ["?"] + (layout.hasEntityColumn ? ["\(code)"] : [])
            + Array(repeating: "?", count: attributeColumns.count + toOneColumns.count)
        insertRow = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))"
        deleteRow = "DELETE FROM \(table) WHERE pk = ?"
        deleteRows = "DELETE FROM \(table) WHERE pk \(KeyList.membership)"
    }

    /// `UPDATE "E" SET "a" = ?, …, "r_pk" = ? WHERE pk = ?`: the changed
    /// columns of a row. Binds the attributes' values in the order given,
    /// then the to-ones' foreign keys in the order given, then the primary key.
    func updateRow(attributes: [Int], toOnes: [Int]) -> String {
        var assignments: [String] = []
        assignments.reserveCapacity(attributes.count + toOnes.count)
        for index in attributes { assignments.append("\(attributeColumns[index]) = ?") }
        for index in toOnes { assignments.append("\(foreignKeyColumns[index]!) = ?") }
        return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE pk = ?"
    }
}
