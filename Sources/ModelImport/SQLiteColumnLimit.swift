import ObjectGraph

/// The most columns a table may have, as the SQLite library Faultline runs
/// on says (`sqlite3_limit(…, SQLITE_LIMIT_COLUMN, -1)`: 2000 unless SQLite
/// was built with another `SQLITE_MAX_COLUMN`), and the check that an
/// imported entity's table stays within it.
///
/// An entity's table has a column for its key, one per attribute (derived
/// ones too) and one per to-one relationship (the foreign key). A table
/// wider than the limit cannot be created: the engine's store would fail on
/// its first use with SQLite's "too many columns", so the import skips such
/// an entity and says why instead.
public enum SQLiteColumnLimit {
    /// SQLite's limit on columns per table, as the engine reads it
    /// (``ObjectGraph/SQLiteLimits/columns``): the engine's model refuses a
    /// wider table too; the import skips it instead, with its reason.
    public static var current: Int { SQLiteLimits.columns }

    /// `SQLITE_MAX_COLUMN`'s default.
    public static let defaultLimit = 2000

    /// The columns `declaration`'s table has: the key, its attributes and
    /// its to-one relationships.
    public static func columns(of declaration: Entity) -> Int {
        1 + declaration.properties.reduce(0) { count, property in
            switch property {
            case .attribute: count + 1
            case .relationship(let relationship): count + (relationship.isToMany ? 0 : 1)
            }
        }
    }
}

extension CoreDataModelImport {
    /// Removes from `declarations` each inheritance hierarchy whose table
    /// would have more than `limit` columns (an entity without parent or
    /// subentities is a hierarchy of one), and the relationships to its
    /// entities; what was removed and why.
    ///
    /// A hierarchy's table holds the key, the entity column, every entity's
    /// attributes and to-one keys; a snapshot of it also reads, per to-one
    /// whose destination has subentities, that destination's entity: SQLite's
    /// limit applies to that SELECT's columns too.
    static func removeTablesTooWide(
        from declarations: inout [Entity], in xml: CoreDataModelXML, limit: Int
    ) -> [ImportedModel.Skipped] {
        var skipped: [ImportedModel.Skipped] = []
        let byName = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // Each entity's root, remembered along every chain walked, so that
        // a chain is walked once, not once per entity on it.
        var roots: [String: String] = [:]
        func root(of name: String) -> String {
            if let known = roots[name] { return known }
            var path = [name]
            var seen: Set<String> = [name]
            var current = name
            while roots[current] == nil, let parent = byName[current]?.parent, byName[parent] != nil, seen.insert(parent).inserted {
                current = parent
                path.append(current)
            }
            let found = roots[current] ?? current
            for member in path { roots[member] = found }
            return found
        }
        let parents = Set(declarations.compactMap(\.parent))
        var columns: [String: Int] = [:]
        var members: [String: Int] = [:]
        for declaration in declarations {
            let table = root(of: declaration.name)
            members[table, default: 0] += 1
            columns[table, default: 1] += SQLiteColumnLimit.columns(of: declaration) - 1
            for property in declaration.properties {
                if case .relationship(let relationship) = property, !relationship.isToMany, parents.contains(relationship.destinationName) {
                    columns[table, default: 1] += 1
                }
            }
        }
        var removed: Set<String> = []
        for (table, count) in columns.sorted(by: { $0.key < $1.key }) {
            let total = count + (members[table, default: 1] > 1 ? 1 : 0)
            guard total > limit else { continue }
            let family = declarations.map(\.name).filter { root(of: $0) == table }
            removed.formUnion(family)
            skipped.append(.init(
                element: table,
                reason: "its table would have \(total) columns, more than SQLite's limit of \(limit) per table (SQLITE_MAX_COLUMN): "
                    + "split the entity" + (family.count > 1 ? " (the table holds \(family.joined(separator: ", ")))" : ""),
                line: xml.entity(named: table)?.line))
        }
        guard !removed.isEmpty else { return skipped }
        declarations.removeAll { removed.contains($0.name) }
        for index in declarations.indices {
            let name = declarations[index].name
            declarations[index].properties.removeAll { property in
                guard case .relationship(let relationship) = property, removed.contains(relationship.destinationName) else { return false }
                skipped.append(.init(
                    element: "\(name).\(relationship.name)",
                    reason: "destination \(relationship.destinationName) is skipped (its table would have too many columns)"))
                return true
            }
        }
        return skipped
    }
}
