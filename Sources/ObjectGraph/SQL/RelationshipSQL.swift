/// The SQL of one relationship: the one place that turns how the store
/// keeps a relationship (``RelationshipDescription/storage``) into
/// statements and fragments.
///
/// - a to-one (`foreignKey`): a column of the owner's table holding the
///   destination's key;
/// - a one-to-many (`inverseForeignKey`): a column of the destination's
///   table holding the owner's key;
/// - a many-to-many (`joinTable`): a join table with one row per pair.
///
/// Everything else asks this type: relationship faults, prefetching, saves
/// (join rows), batch deletes and `relate`, derived attributes, and the
/// predicate compiler (joins, correlated subqueries, membership). Built
/// once per relationship with the model; values are always bound.
final class RelationshipSQL: Sendable {
    /// A to-one's foreign key column in the owner's table, unquoted
    /// (`company_pk`); nil for a to-many.
    let foreignKeyColumn: String?
    /// A many-to-many's join table; nil otherwise.
    let joinTable: JoinTableSQL?
    /// The keys of one owner's destinations, in key order (a relationship
    /// fault): `SELECT t0.pk FROM "Person" t0 WHERE t0."company_pk" = ? ORDER
    /// BY t0.pk`, or `SELECT destination FROM "Person_selfies" WHERE source =
    /// ? ORDER BY destination`; with each key, the destination's entity when
    /// its table is shared by a hierarchy (``EntitySQL/keyColumns``). Binds
    /// the owner's key. Nil for a to-one.
    let destinationKeys: String?
    /// How a prefetch reads the relationship.
    let prefetch: Prefetch
    /// What deleting owners in a batch delete reads and changes.
    let deletion: Deletion
    /// Relates an owner to a destination (``Store/relate(_:through:of:file:line:)``):
    /// `INSERT OR IGNORE INTO "J" (source, destination) VALUES (?, ?)`,
    /// `UPDATE "D" SET "owner_pk" = ? WHERE pk = ?`, or for a to-one
    /// `UPDATE "E" SET "r_pk" = ?2 WHERE pk = ?1`. Binds the owner's key,
    /// then the destination's.
    let relate: String?
    /// The owners of a list of destinations, for recomputing derived
    /// counts and sums: `SELECT source FROM "J" WHERE destination IN (…)`, or
    /// `SELECT "owner_pk" FROM "D" WHERE pk IN (…) AND "owner_pk" IS NOT
    /// NULL`. Binds the destinations' ``KeyList``. Nil for a to-one.
    let ownersOfDestinations: KeyListStatement?

    private let storage: RelationshipDescription.Storage
    /// The destination's table, quoted.
    private let destinationTable: String

    /// How a prefetch reads a relationship for a list of owners.
    enum Prefetch {
        /// A to-one: the destinations' keys are in the owners' rows; their
        /// rows are read by key (``EntitySQL/selectRows``).
        case destinationRowsByKey
        /// A one-to-many: the destinations' rows by their foreign key,
        /// `SELECT <snapshot columns> FROM "D" t0 WHERE t0."owner_pk" IN (…)
        /// ORDER BY t0."owner_pk", t0.pk`. Binds the owners' ``KeyList``.
        case destinationRowsByForeignKey(String)
        /// A many-to-many: the (owner, destination) key pairs,
        /// `SELECT source, destination FROM "J" WHERE source IN (…) ORDER BY
        /// source, destination` (columns in the owner's orientation). Binds
        /// the owners' ``KeyList``; a third column, the destination's entity,
        /// when its table is shared. The destinations' rows are then read by key.
        case keyPairs(String)
    }

    /// What deleting a list of owners reads and changes through the
    /// relationship. Each statement binds the owners' ``KeyList``.
    enum Deletion {
        /// A many-to-many: the destinations' keys
        /// (`SELECT destination FROM "J" WHERE source IN (…)`) and the
        /// DELETE of the owners' join rows.
        case joinRows(destinations: String, delete: String)
        /// The destinations hold the owner's key (a one-to-many, or a
        /// one-to-one whose inverse has the foreign key): their keys
        /// (`SELECT pk FROM "D" WHERE "owner_pk" IN (…)`) and the UPDATE
        /// that clears it.
        case keyInDestinations(holders: String, nullify: String)
        /// The owners' rows hold the destination's key (a to-one whose
        /// inverse is a to-many, or that has none): the keys that are set,
        /// `SELECT "r_pk" FROM "E" WHERE pk IN (…) AND "r_pk" IS NOT NULL`.
        case keyInOwners(destinations: String)
    }

    /// A to-one's foreign key column (unquoted), nil for a to-many: what the
    /// owner's table has for the relationship.
    static func foreignKeyColumn(of relationship: RelationshipDescription) -> String? {
        if case .foreignKey(let column) = relationship.storage { return column }
        return nil
    }

    init(_ relationship: RelationshipDescription, inverse: RelationshipDescription?, owner: EntitySQL, destination: EntitySQL) {
        storage = relationship.storage
        destinationTable = destination.table
        let list = KeyList.membership
        // `SELECT "c" FROM "T" WHERE pk IN (…) AND "c" IS NOT NULL`.
        func keysIn(_ column: String, of table: String, _ membership: String = list) -> String {
            "SELECT \(quoted(column)) FROM \(table) WHERE pk \(membership) AND \(quoted(column)) IS NOT NULL"
        }
        switch relationship.storage {
        case .foreignKey(let column):
            foreignKeyColumn = column
            joinTable = nil
            destinationKeys = nil
            prefetch = .destinationRowsByKey
            if let inverse, let inverseColumn = Self.foreignKeyColumn(of: inverse) {
                deletion = Self.keyInDestinations(inverseColumn, of: destination.table)
            } else {
                deletion = .keyInOwners(destinations: keysIn(column, of: owner.table))
            }
            relate = "UPDATE \(owner.table) SET \(quoted(column)) = ?2 WHERE pk = ?1"
            ownersOfDestinations = nil

        case .inverseForeignKey(let column):
            let c = quoted(column)
            foreignKeyColumn = nil
            joinTable = nil
            destinationKeys = "SELECT \(destination.keyColumns) FROM \(destination.table) t0 WHERE t0.\(c) = ? ORDER BY t0.pk"
            prefetch = .destinationRowsByForeignKey(
                "SELECT \(destination.snapshotColumns) FROM \(destination.table) t0 WHERE t0.\(c) \(list) ORDER BY t0.\(c), t0.pk")
            deletion = Self.keyInDestinations(column, of: destination.table)
            relate = "UPDATE \(destination.table) SET \(c) = ? WHERE pk = ?"
            ownersOfDestinations = KeyListStatement { keysIn(column, of: destination.table, $0) }

        case .joinTable(let name, let source, let target):
            let join = JoinTableSQL(name: name)
            let table = join.table
            foreignKeyColumn = nil
            joinTable = join
            if destination.hasEntityColumn {
                // The destinations' entities are in their table: joined, as
                // Core Data joins it.
                let entity = "d.\(EntitySQL.entityColumn)"
                let joined = "\(table) j JOIN \(destination.table) d ON d.pk = j.\(target)"
                destinationKeys = "SELECT j.\(target), \(entity) FROM \(joined) WHERE j.\(source) = ? ORDER BY j.\(target)"
                prefetch = .keyPairs(
                    "SELECT j.\(source), j.\(target), \(entity) FROM \(joined) WHERE j.\(source) \(list) ORDER BY j.\(source), j.\(target)")
            } else {
                destinationKeys = "SELECT \(target) FROM \(table) WHERE \(source) = ? ORDER BY \(target)"
                prefetch = .keyPairs("SELECT \(source), \(target) FROM \(table) WHERE \(source) \(list) ORDER BY \(source), \(target)")
            }
            deletion = .joinRows(
                destinations: "SELECT \(target) FROM \(table) WHERE \(source) \(list)",
                delete: "DELETE FROM \(table) WHERE \(source) \(list)")
            relate = "INSERT OR IGNORE INTO \(table) (\(source), \(target)) VALUES (?, ?)"
            ownersOfDestinations = KeyListStatement { membership in "SELECT \(source) FROM \(table) WHERE \(target) \(membership)" }
        }
    }

    private static func keyInDestinations(_ column: String, of table: String) -> Deletion {
        let c = quoted(column)
        return .keyInDestinations(
            holders: "SELECT pk FROM \(table) WHERE \(c) \(KeyList.membership)",
            nullify: "UPDATE \(table) SET \(c) = NULL WHERE \(c) \(KeyList.membership)")
    }

    // MARK: Join rows

    /// The join row of `owner` related to `destination`, as (source,
    /// destination) keys: the owner is `source` on the side whose
    /// `Entity_relationship` name sorts first.
    func joinRow(owner: Int64, destination: Int64) -> (source: Int64, destination: Int64) {
        guard case .joinTable(_, let ownerColumn, _) = storage else {
            preconditionFailure("a relationship without a join table has no join rows")
        }
        return ownerColumn == "source" ? (owner, destination) : (destination, owner)
    }

    // MARK: Fragments for queries

    /// `t0."company_pk"`: a to-one's foreign key in the row aliased `alias`.
    func foreignKey(in alias: String) -> String {
        guard let foreignKeyColumn else { preconditionFailure("a to-many relationship has no foreign key column") }
        return "\(alias).\(quoted(foreignKeyColumn))"
    }

    /// `LEFT JOIN "Company" t1 ON t1.pk = t0."company_pk"`: a to-one's
    /// destination row, aliased `alias`, for the owner row aliased `owner`
    /// (NULLs when it has none).
    func leftJoin(_ alias: String, from owner: String) -> String {
        "LEFT JOIN \(destinationTable) \(alias) ON \(alias).pk = \(foreignKey(in: owner))"
    }

    /// A to-many's destinations for the outer row `owner` (an alias, `t0`,
    /// or a table, `"Person"`), with the destination's table aliased `alias`
    /// and the join table (if any) `joinAlias`. Nil for a to-one.
    func destinations(of owner: String, alias: String, joinAlias: String) -> CorrelatedDestinations? {
        switch storage {
        case .foreignKey:
            return nil
        case .inverseForeignKey(let column):
            let from = "\(destinationTable) \(alias)"
            return CorrelatedDestinations(
                from: from, countFrom: from, correlation: "\(alias).\(quoted(column)) = \(owner).pk", destinationKey: "\(alias).pk",
                owner: owner, joinTable: nil)
        case .joinTable(_, let source, let target):
            let table = joinTable!.table
            return CorrelatedDestinations(
                from: "\(table) \(joinAlias) JOIN \(destinationTable) \(alias) ON \(alias).pk = \(joinAlias).\(target)",
                countFrom: "\(table) \(joinAlias)", correlation: "\(joinAlias).\(source) = \(owner).pk",
                destinationKey: "\(alias).pk", owner: owner, joinTable: (table, joinAlias, source, target))
        }
    }
}
