/// The SQL schema of a model, and the check that a store file matches it.
///
/// Tables: one per entity (`pk INTEGER PRIMARY KEY`, one column per
/// attribute, one `<name>_pk` column per to-one relationship, indexed), one
/// join table per many-to-many relationship (`source`, `destination`,
/// primary key on both, `WITHOUT ROWID`, plus an index on `destination`),
/// a unique index per uniqueness constraint, and `faultline_metadata`, which
/// records the model's hash and canonical description.
enum Schema {
    static let formatVersion = "1"

    /// The statements that create the schema, in order.
    static func statements(for model: Model) -> [String] {
        var statements = ["CREATE TABLE faultline_metadata (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)"]
        var joinTables = Set<String>()
        for entity in model.entities {
            var columns = ["pk INTEGER PRIMARY KEY"]
            for attribute in entity.attributes {
                columns.append("\(quoted(attribute.column)) \(attribute.type.columnType)\(attribute.isOptional ? "" : " NOT NULL")")
            }
            for index in entity.toOneIndexes {
                columns.append("\(quoted(entity.relationships[index].sql.foreignKeyColumn!)) INTEGER")
            }
            statements.append("CREATE TABLE \(quoted(entity.table)) (\(columns.joined(separator: ", ")))")
            for attribute in entity.attributes where attribute.isIndexed {
                statements.append(
                    "CREATE INDEX \(quoted("\(entity.table)_\(attribute.column)")) ON \(quoted(entity.table)) (\(quoted(attribute.column)))")
            }
            for index in entity.toOneIndexes {
                let column = entity.relationships[index].sql.foreignKeyColumn!
                statements.append("CREATE INDEX \(quoted("\(entity.table)_\(column)")) ON \(quoted(entity.table)) (\(quoted(column)))")
            }
            for (number, constraint) in entity.uniquenessConstraints.enumerated() {
                statements.append(
                    "CREATE UNIQUE INDEX \(quoted("\(entity.table)_unique_\(number)")) ON \(quoted(entity.table)) "
                        + "(\(constraint.map(quoted).joined(separator: ", ")))")
            }
            for relationship in entity.relationships {
                guard let table = relationship.sql.joinTable?.name, joinTables.insert(table).inserted else { continue }
                statements.append(
                    "CREATE TABLE \(quoted(table)) (source INTEGER NOT NULL, destination INTEGER NOT NULL, "
                        + "PRIMARY KEY (source, destination)) WITHOUT ROWID")
                statements.append("CREATE INDEX \(quoted("\(table)_destination")) ON \(quoted(table)) (destination, source)")
            }
        }
        return statements
    }

    /// Creates the schema in an empty database, or checks that an existing
    /// one was made with this model.
    static func prepare(_ connection: Connection, model: Model) throws(ObjectGraphError) {
        let path = connection.path
        // Schema work is set-up, not the application's statements.
        let hook = connection.statementHook
        connection.statementHook = nil
        defer { connection.statementHook = hook }
        do {
            var hasMetadata = false
            var tableCount = 0
            try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table'") { row in
                tableCount += 1
                if row.string(0) == "faultline_metadata" { hasMetadata = true }
            }
            if hasMetadata {
                var metadata: [String: String] = [:]
                try connection.query("SELECT key, value FROM faultline_metadata") { row in
                    metadata[row.string(0)] = row.string(1)
                }
                guard metadata["model_hash"] != model.hash else { return }
                let stored = Set((metadata["model_description"] ?? "").split(separator: "\n").map(String.init))
                let current = Set(model.canonicalDescription)
                var differences = stored.subtracting(current).sorted().map { "store has \"\($0)\"" }
                differences += current.subtracting(stored).sorted().map { "model has \"\($0)\"" }
                if differences.isEmpty { differences = ["model hash \(metadata["model_hash"] ?? "none") differs from \(model.hash)"] }
                throw ObjectGraphError.modelMismatch(path: path, differences: differences)
            }
            guard tableCount == 0 else {
                throw ObjectGraphError.store(
                    path: path, reason: "the file is an SQLite database that Faultline did not create (no faultline_metadata table)",
                    sqlite: nil)
            }
            try connection.executeUntraced("BEGIN IMMEDIATE")
            do {
                for statement in statements(for: model) {
                    try connection.executeUntraced(statement)
                }
                for (key, value) in [
                    ("format_version", formatVersion), ("model_hash", model.hash),
                    ("model_description", model.canonicalDescription.joined(separator: "\n")),
                ] {
                    let statement = try connection.cachedStatement("INSERT INTO faultline_metadata (key, value) VALUES (?, ?)")
                    try connection.execute(statement, [.text(key), .text(value)]) { _ in }
                }
                try connection.executeUntraced("COMMIT")
            } catch {
                connection.rollbackIfNeeded()
                throw error
            }
        } catch let error as ObjectGraphError {
            throw error
        } catch let error as SQLiteError {
            throw ObjectGraphError.store(path: path, reason: Store.explain(error), sqlite: error)
        } catch {
            throw ObjectGraphError.store(path: path, reason: "\(error)", sqlite: nil)
        }
    }
}
