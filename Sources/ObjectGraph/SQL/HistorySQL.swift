/// The statements of persistent history: its two tables, recording a
/// transaction and its changes, reading them after a token, and deleting
/// them up to one. ``HistoryRecorder`` and the store's history methods run them.
enum HistorySQL {
    /// The tables, created when a store opens with history tracking on: one
    /// row per transaction (numbered in commit order), one per changed object.
    static let createStatements = [
        "CREATE TABLE IF NOT EXISTS faultline_history_transaction (number INTEGER PRIMARY KEY AUTOINCREMENT, "
            + "author TEXT, context TEXT NOT NULL, timestamp REAL NOT NULL)",
        "CREATE TABLE IF NOT EXISTS faultline_history_change (transaction_number INTEGER NOT NULL, "
            + "entity TEXT NOT NULL, pk INTEGER NOT NULL, kind INTEGER NOT NULL)",
        "CREATE INDEX IF NOT EXISTS faultline_history_change_transaction ON faultline_history_change (transaction_number)",
    ]

    /// Binds the author (or NULL), the context's name and the timestamp;
    /// returns the transaction's number.
    static let insertTransaction =
        "INSERT INTO faultline_history_transaction (author, context, timestamp) VALUES (?, ?, ?) RETURNING number"
    /// Binds the transaction's number, the entity's name, the primary key
    /// and the kind of change.
    static let insertChange = "INSERT INTO faultline_history_change (transaction_number, entity, pk, kind) VALUES (?, ?, ?, ?)"
    /// The newest transaction's number (NULL when there is none).
    static let selectNewestTransaction = "SELECT max(number) FROM faultline_history_transaction"

    /// The transactions after a number, oldest first. Binds the number,
    /// then the author to keep (`byAuthor`), then the author to leave out
    /// (`excludingAuthor`).
    static func selectTransactions(byAuthor: Bool, excludingAuthor: Bool) -> String {
        var sql = "SELECT number, author, context, timestamp FROM faultline_history_transaction WHERE number > ?"
        if byAuthor { sql += " AND author = ?" }
        if excludingAuthor { sql += " AND author IS NOT ?" }
        return sql + " ORDER BY number"
    }

    /// One transaction's changes. Binds its number.
    static let selectChanges = "SELECT entity, pk, kind FROM faultline_history_change WHERE transaction_number = ?"
    /// The changes of the transactions up to a number. Binds the number.
    static let deleteChanges = "DELETE FROM faultline_history_change WHERE transaction_number <= ?"
    /// The transactions up to a number. Binds the number.
    static let deleteTransactions = "DELETE FROM faultline_history_transaction WHERE number <= ?"
}
