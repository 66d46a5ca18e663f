import Foundation

/// The two kinds of history store the tests run against: a SQLite file,
/// and a database of the test process's PostgreSQL server
/// (``PostgreSQLTestServer``).
public enum HistoryStoreKind: String, CaseIterable, Sendable {
    case sqlite, postgreSQL

    /// A `--history` argument for a store that does not exist yet: a file
    /// in a new directory, or a new empty database.
    public func newStore() throws -> String {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-history-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory.appendingPathComponent("history.sqlite").path
        case .postgreSQL:
            return try PostgreSQLTestServer.shared().createDatabase()
        }
    }
}
