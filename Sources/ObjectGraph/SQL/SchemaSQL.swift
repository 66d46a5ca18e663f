/// The statements that create a model's schema, and those on the
/// `faultline_metadata` table that records which model made a store file
/// (``Schema`` runs them when a store opens).
///
/// Tables: one per entity, or per inheritance hierarchy (the root's name;
/// an `ent` column, indexed, holding each row's entity; every entity's
/// columns, ``TableColumns``) (`pk INTEGER PRIMARY KEY`, one column per
/// attribute, one `<name>_pk` column per to-one relationship, indexed), one
/// join table per many-to-many relationship (`source`, `destination`,
/// primary key on both, `WITHOUT ROWID`, plus an index on `(destination,
/// source)` so that either side's keys are searched), an index per indexed
/// attribute, a unique index per uniqueness constraint, and
/// `faultline_metadata`. No triggers: derived attributes are recomputed by
/// the engine inside each write transaction.
enum SchemaSQL {
    /// The statements that create the schema of `model` in an empty
    /// database, in order.
    static func createStatements(for model: Model) -> [String] {
        var statements = [createMetadata]
        var joinTables = Set<String>()
        for root in model.entities where root.rootIndex == root.index {
            let table = root.sql.table
            // The entities whose rows the table holds: the root, then each
            // subentity after its parent.
            let family = model.entities.filter { $0.isKind(of: root) }.sorted { $0.ancestorIndexes.count < $1.ancestorIndexes.count }
            let shared = root.sql.hasEntityColumn
            var columns = ["pk INTEGER PRIMARY KEY"]
            if shared { columns.append("\(EntitySQL.entityColumn) INTEGER NOT NULL") }
            for entity in family {
                // A subentity's required attributes are checked by the
                // engine: the other entities' rows have no value there.
                for attribute in entity.attributes where attribute.declaringEntityIndex == entity.index {
                    let required = !attribute.isOptional && entity === root
                    columns.append("\(quoted(attribute.column)) \(attribute.type.columnType)\(required ? " NOT NULL" : "")")
                }
            }
            for entity in family {
                for index in entity.toOneIndexes where entity.relationships[index].declaringEntityIndex == entity.index {
                    columns.append("\(quoted(entity.relationships[index].sql.foreignKeyColumn!)) INTEGER")
                }
            }
            statements.append("CREATE TABLE \(table) (\(columns.joined(separator: ", ")))")
            if shared {
                // A fetch of a subentity keeps the rows of its entities: by
                // this index, not a scan of the whole hierarchy's table.
                statements.append(
                    "CREATE INDEX \(quoted("\(root.table)_\(EntitySQL.entityColumn)")) ON \(table) (\(EntitySQL.entityColumn))")
            }
            for entity in family {
                for attribute in entity.attributes where attribute.isIndexed && attribute.declaringEntityIndex == entity.index {
                    statements.append(
                        "CREATE INDEX \(quoted("\(entity.table)_\(attribute.column)")) ON \(table) (\(quoted(attribute.column)))")
                }
            }
            for entity in family {
                for index in entity.toOneIndexes where entity.relationships[index].declaringEntityIndex == entity.index {
                    let column = entity.relationships[index].sql.foreignKeyColumn!
                    statements.append("CREATE INDEX \(quoted("\(entity.table)_\(column)")) ON \(table) (\(quoted(column)))")
                }
            }
            for entity in family {
                // A subentity's constraint holds among its own family's rows.
                let codes = entity.layout.familyCodes.sorted().map(String.init).joined(separator: ", ")
                let scope = entity === root ? "" : " WHERE \(EntitySQL.entityColumn) IN (\(codes))"
                let prefix = entity === root ? entity.table : "\(entity.table)_\(entity.name)"
                for (number, constraint) in entity.uniquenessConstraints.enumerated() {
                    let columns = constraint.map { quoted(entity.attribute(named: $0)!.column) }
                    statements.append(
                        "CREATE UNIQUE INDEX \(quoted("\(prefix)_unique_\(number)")) ON \(table) "
                            + "(\(columns.joined(separator: ", ")))\(scope)")
                }
            }
            for entity in family {
                for relationship in entity.relationships where relationship.declaringEntityIndex == entity.index {
                    guard let joinTable = relationship.sql.joinTable, joinTables.insert(joinTable.name).inserted else { continue }
                    statements.append(
                        "CREATE TABLE \(joinTable.table) (source INTEGER NOT NULL, destination INTEGER NOT NULL, "
                            + "PRIMARY KEY (source, destination)) WITHOUT ROWID")
                    statements.append(
                        "CREATE INDEX \(quoted("\(joinTable.name)_destination")) ON \(joinTable.table) (destination, source)")
                }
            }
        }
        return statements
    }

    /// `CREATE INDEX IF NOT EXISTS "faultline_whatif_E_a" ON "E" ("a")`: an
    /// index a ``WhatIf`` asks for; names come from the model, checked.
    static func createWhatIfIndex(_ index: WhatIf.Index, model: Model) throws(ObjectGraphError) -> String {
        guard let entity = model.entity(named: index.entity) else { throw .unknownEntity(index.entity) }
        guard let attribute = entity.attribute(named: index.attribute) else { throw .unknownKey(entity: entity.name, key: index.attribute) }
        return "CREATE INDEX IF NOT EXISTS \(quoted("faultline_whatif_\(entity.table)_\(attribute.column)")) ON \(entity.sql.table) "
            + "(\(quoted(attribute.column)))"
    }

    /// `SELECT name FROM sqlite_schema WHERE type = 'table'`: the tables of
    /// the file, to tell an empty database from one made by something else.
    static let selectTableNames = "SELECT name FROM sqlite_schema WHERE type = 'table'"

    // MARK: faultline_metadata

    /// One row per key: `format_version`, `model_hash`, `model_description`,
    /// `store_identifier`.
    static let createMetadata = "CREATE TABLE faultline_metadata (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)"
    /// Every key and value.
    static let selectMetadata = "SELECT key, value FROM faultline_metadata"
    /// Binds the key, then the value.
    static let insertMetadata = "INSERT INTO faultline_metadata (key, value) VALUES (?, ?)"
    /// The store's identifier (what history tokens name), if it has one yet.
    static let selectStoreIdentifier = "SELECT value FROM faultline_metadata WHERE key = 'store_identifier'"
    /// Binds the new identifier.
    static let insertStoreIdentifier = "INSERT INTO faultline_metadata (key, value) VALUES ('store_identifier', ?)"
    /// `SELECT count(*) FROM faultline_metadata`: the cheapest read of a
    /// table every store has, which starts a read transaction's snapshot
    /// (pinning a query generation).
    static let countMetadata = "SELECT count(*) FROM faultline_metadata"
    /// Makes a new connection read the schema now: preparing any statement
    /// that names a table does, and this one reads no row.
    static let loadSchema = "SELECT 1 FROM faultline_metadata LIMIT 0"
}

extension AttributeType {
    /// The SQLite column type of the attribute's column.
    fileprivate var columnType: String {
        switch self {
        case .int16, .int32, .int64, .bool: "INTEGER"
        case .double, .date: "REAL"
        case .string: "TEXT"
        case .data, .uuid: "BLOB"
        }
    }
}
