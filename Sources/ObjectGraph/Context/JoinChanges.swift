/// Unsaved changes to join tables: the (source, destination) pairs to
/// insert and to delete, per table. Adding a pair that is pending deletion
/// cancels the deletion, and the other way round.
struct JoinChanges {
    struct Pair: Hashable, Comparable {
        let source: Int64
        let destination: Int64
        /// The objects at both ends, to drop the pair when one is forgotten.
        let ends: [ObjectID]

        static func == (a: Pair, b: Pair) -> Bool { a.source == b.source && a.destination == b.destination }
        func hash(into hasher: inout Hasher) {
            hasher.combine(source)
            hasher.combine(destination)
        }
        static func < (a: Pair, b: Pair) -> Bool { (a.source, a.destination) < (b.source, b.destination) }
    }

    struct Table {
        /// The table's row statements.
        let sql: JoinTableSQL
        var inserted: Set<Pair> = []
        var deleted: Set<Pair> = []
    }

    /// The tables with changes, by name.
    private(set) var tables: [String: Table] = [:]

    var isEmpty: Bool { tables.values.allSatisfy { $0.inserted.isEmpty && $0.deleted.isEmpty } }

    /// Whether no table was ever changed (then ``isEmpty`` too): one check.
    var hasNoTables: Bool { tables.isEmpty }

    mutating func add(_ pair: Pair, in table: JoinTableSQL) {
        if tables[table.name, default: Table(sql: table)].deleted.remove(pair) == nil {
            tables[table.name]!.inserted.insert(pair)
        }
    }

    mutating func remove(_ pair: Pair, in table: JoinTableSQL) {
        if tables[table.name, default: Table(sql: table)].inserted.remove(pair) == nil {
            tables[table.name]!.deleted.insert(pair)
        }
    }

    /// Drops the pairs with `id` at one end. Inlined: most refreshes happen
    /// with no join change pending, and then this is one check.
    @inline(__always)
    mutating func removeAll(involving id: ObjectID) {
        guard !tables.isEmpty else { return }
        removePairs(involving: id)
    }

    private mutating func removePairs(involving id: ObjectID) {
        for name in Array(tables.keys) {
            tables[name]!.inserted = tables[name]!.inserted.filter { !$0.ends.contains(id) }
            tables[name]!.deleted = tables[name]!.deleted.filter { !$0.ends.contains(id) }
        }
    }
}
