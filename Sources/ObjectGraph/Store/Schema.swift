/// A store file's schema: created in an empty database, or checked against
/// the model (its hash and canonical description in `faultline_metadata`).
/// The statements are ``SchemaSQL``'s.
enum Schema {
    static let formatVersion = "1"

    /// Creates the schema in an empty database, or checks that an existing
    /// one was made with this model. Called on the writer untraced
    /// (``ConnectionPool/withWriterUntraced(_:)``): schema work is set-up,
    /// not the application's statements.
    static func prepare(_ connection: Connection, model: Model) throws(ObjectGraphError) {
        let path = connection.path
        do {
            var hasMetadata = false
            var tableCount = 0
            try connection.query(SchemaSQL.selectTableNames) { row in
                tableCount += 1
                if row.string(0) == "faultline_metadata" { hasMetadata = true }
            }
            if hasMetadata {
                var metadata: [String: String] = [:]
                try connection.query(SchemaSQL.selectMetadata) { row in
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
                for statement in SchemaSQL.createStatements(for: model) {
                    try connection.executeUntraced(statement)
                }
                for (key, value) in [
                    ("format_version", formatVersion), ("model_hash", model.hash),
                    ("model_description", model.canonicalDescription.joined(separator: "\n")),
                ] {
                    let statement = try connection.cachedStatement(SchemaSQL.insertMetadata)
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
