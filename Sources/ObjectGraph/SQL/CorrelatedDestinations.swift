/// The destinations of a to-many relationship for one row of an outer
/// statement: the FROM and the correlation of a subquery, made by
/// ``RelationshipSQL/destinations(of:alias:joinAlias:)``.
///
/// Predicates use it for `ANY`/`ALL`/`NONE`, aggregates and `SUBQUERY`
/// (with aliases `s1_0`, `s1_j` under `t0`), and derived attributes for their
/// counts and sums (with `d` and `j` under the table being updated).
struct CorrelatedDestinations {
    /// `"Person" s1_0` (one-to-many), or `"Person_selfies" s1_j JOIN
    /// "Person" s1_0 ON s1_0.pk = s1_j.source` (many-to-many).
    let from: String
    /// The FROM without the destination's table when a join table has the
    /// keys: enough for a count.
    let countFrom: String
    /// `s1_0."company_pk" = t0.pk`, or `s1_j.destination = t0.pk`.
    let correlation: String
    /// `s1_0.pk`: the destination row's key, to compare with objects.
    let destinationKey: String
    /// The owner row's reference (`t0`) and, for a many-to-many, the join
    /// table with its alias and the owner's and destination's columns.
    let owner: String
    let joinTable: (table: String, alias: String, ownerColumn: String, destinationColumn: String)?

    /// `SELECT <columns> FROM <from> <joins> WHERE <correlation> [AND
    /// <condition>]`. `joins` are the destination's own (a condition's
    /// to-one key paths); `bare` reads `countFrom` (only when neither
    /// `joins` nor `condition` needs the destination's row).
    func select(_ columns: String, joins: [String] = [], where condition: String? = nil, bare: Bool = false) -> String {
        let source = bare ? countFrom : ([from] + joins).joined(separator: " ")
        return "SELECT \(columns) FROM \(source) WHERE \(correlation)" + (condition.map { " AND \($0)" } ?? "")
    }

    /// `(SELECT <expression> FROM … WHERE <correlation> [AND <condition>])`:
    /// a value over the destinations (`COUNT(*)`, `COALESCE(SUM(…), 0)`, …).
    func scalar(_ expression: String, joins: [String] = [], where condition: String? = nil, bare: Bool = false) -> String {
        "(" + select(expression, joins: joins, where: condition, bare: bare) + ")"
    }

    /// `EXISTS (SELECT 1 FROM … WHERE <correlation> [AND <condition>])`, or
    /// `NOT EXISTS` when `negated`: whether the owner row has a destination
    /// (satisfying `condition`). SQLite stops at the first one, where a
    /// count compared with zero would visit them all.
    func exists(joins: [String] = [], where condition: String? = nil, bare: Bool = false, negated: Bool = false) -> String {
        (negated ? "NOT EXISTS (" : "EXISTS (") + select("1", joins: joins, where: condition, bare: bare) + ")"
    }

    /// `s1_j.destination`: the join table's column of destination keys, to
    /// compare with objects in ``owners(whereDestination:negated:)``; nil
    /// without a join table.
    var joinedDestinationKey: String? {
        joinTable.map { "\($0.alias).\($0.destinationColumn)" }
    }

    /// `t0.pk IN (SELECT s1_j.source FROM "Person_selfies" s1_j WHERE
    /// <condition>)` (`NOT IN` when `negated`): the owners related to the
    /// destinations that `condition` (on ``joinedDestinationKey``) names,
    /// read from the join table through its index on either column, instead
    /// of an `EXISTS` per owner row that joins every destination. Only for
    /// a many-to-many.
    func owners(whereDestination condition: String, negated: Bool) -> String {
        guard let join = joinTable else { preconditionFailure("only a join table lists owners by destination") }
        let owners = "SELECT \(join.alias).\(join.ownerColumn) FROM \(join.table) \(join.alias) WHERE \(condition)"
        return "\(owner).pk \(negated ? "NOT IN" : "IN") (\(owners))"
    }
}
