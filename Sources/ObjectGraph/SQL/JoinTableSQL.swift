/// The row statements of a many-to-many relationship's join table.
///
/// A join table has one row per related pair, in the columns `source` and
/// `destination`; which side of the relationship is `source` is the
/// relationship's business (``RelationshipSQL/joinRow(owner:destination:)``).
/// Its schema is in ``SchemaSQL``.
final class JoinTableSQL: Sendable {
    /// The table's name, unquoted: `Person_selfies`.
    let name: String
    /// The table, quoted.
    let table: String
    /// `INSERT INTO "J" (source, destination) VALUES (?, ?)`. Binds the
    /// source key, then the destination key.
    let insertRow: String
    /// `DELETE FROM "J" WHERE source = ? AND destination = ?`. Binds the
    /// source key, then the destination key.
    let deleteRow: String

    init(name: String) {
        self.name = name
        table = quoted(name)
        insertRow = "INSERT INTO \(table) (source, destination) VALUES (?, ?)"
        deleteRow = "DELETE FROM \(table) WHERE source = ? AND destination = ?"
    }
}
