/// The statements on one entity's table: reading row snapshots, and
/// inserting, updating and deleting rows.
///
/// Built once with the model (``EntityDescription/sql``): the text depends
/// only on the entity, so a fault, a page of a batched fetch or a save does
/// not build it again, and the connections' statement caches find it by the
/// same string each time. Values are always bound, in the order each
/// statement's documentation gives.
final class EntitySQL: Sendable {
    /// The table, quoted: `"Person"`.
    let table: String
    /// `t0.pk, t0."name", …, t0."company_pk"`: the columns a row snapshot
    /// reads, in the order ``RowSnapshot/read(_:entity:model:generation:)``
    /// expects them: primary key, attributes, to-one foreign keys.
    let snapshotColumns: String
    /// `SELECT <snapshot columns> FROM "E" t0 WHERE t0.pk = ?`: the row of a
    /// fault. Binds the primary key.
    let selectRow: String
    /// `SELECT <snapshot columns> FROM "E" t0 WHERE t0.pk IN (…)`: the rows
    /// of a list of keys (a page of a batched fetch, prefetched
    /// destinations). Binds a ``KeyList``.
    let selectRows: String
    /// `SELECT t0.pk FROM "E" t0`: every key.
    let selectAllKeys: String
    /// `SELECT max(pk) FROM "E"`: where key allocation starts when a store opens.
    let selectMaximumKey: String
    /// `INSERT INTO "E" (pk, "a", …, "r_pk") VALUES (?, …)`: a whole row.
    /// Binds the primary key, the attributes in order, then the to-one
    /// foreign keys in relationship order.
    let insertRow: String
    /// `DELETE FROM "E" WHERE pk = ?`. Binds the primary key.
    let deleteRow: String
    /// `DELETE FROM "E" WHERE pk IN (…)`. Binds a ``KeyList``.
    let deleteRows: String

    /// Quoted column of each attribute, by attribute index.
    private let attributeColumns: [String]
    /// Quoted foreign key column of each to-one, by relationship index (nil
    /// for a to-many).
    private let foreignKeyColumns: [String?]

    init(table name: String, attributes: [AttributeDescription], relationships: [RelationshipDescription]) {
        let table = quoted(name)
        self.table = table
        attributeColumns = attributes.map { quoted($0.column) }
        foreignKeyColumns = relationships.map { RelationshipSQL.foreignKeyColumn(of: $0).map(quoted) }
        let toOneColumns = foreignKeyColumns.compactMap { $0 }
        snapshotColumns = (["t0.pk"] + (attributeColumns + toOneColumns).map { "t0.\($0)" }).joined(separator: ", ")
        selectRow = "SELECT \(snapshotColumns) FROM \(table) t0 WHERE t0.pk = ?"
        selectRows = "SELECT \(snapshotColumns) FROM \(table) t0 WHERE t0.pk \(KeyList.membership)"
        selectAllKeys = "SELECT t0.pk FROM \(table) t0"
        selectMaximumKey = "SELECT max(pk) FROM \(table)"
        let columns = ["pk"] + attributeColumns + toOneColumns
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        insertRow = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))"
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
